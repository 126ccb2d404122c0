import type { NodeService } from '../types.js'
import type { AvmContext } from './context.js'
import { getAssetDescription } from './getAssetDescription.js'
import { getBalance } from './getBalance.js'
import { getHeight } from './getHeight.js'
import { getTx } from './getTx.js'
import { getTxStatus } from './getTxStatus.js'
import { getUTXOs } from './getUTXOs.js'

export type { AvmContext } from './context.js'

/** The `avm` service at `/ext/bc/X` (alias `/ext/X`): read methods of avalanchego's `vms/avm/service.go`. */
export const avmService = {
  getAssetDescription,
  getBalance,
  getHeight,
  getTx,
  getTxStatus,
  getUTXOs,
} satisfies NodeService<AvmContext>
