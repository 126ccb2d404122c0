import type { NodeService } from '../types.js'
import type { AvmContext } from './context.js'
import { getAllBalances } from './getAllBalances.js'
import { getAssetDescription } from './getAssetDescription.js'
import { getBalance } from './getBalance.js'
import { getBlock } from './getBlock.js'
import { getBlockByHeight } from './getBlockByHeight.js'
import { getHeight } from './getHeight.js'
import { getTx } from './getTx.js'
import { getTxFee } from './getTxFee.js'
import { getTxStatus } from './getTxStatus.js'
import { getUTXOs } from './getUTXOs.js'
import { issueTx } from './issueTx.js'

export type { AvmContext } from './context.js'

/** The `avm` service at `/ext/bc/X` (alias `/ext/X`): avalanchego's `vms/avm/service.go`. */
export const avmService = {
  getAllBalances,
  getAssetDescription,
  getBalance,
  getBlock,
  getBlockByHeight,
  getHeight,
  getTx,
  getTxFee,
  getTxStatus,
  getUTXOs,
  issueTx,
} satisfies NodeService<AvmContext>
