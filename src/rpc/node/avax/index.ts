import type { NodeService } from '../types.js'
import type { AvaxContext } from './context.js'
import { getAtomicTx } from './getAtomicTx.js'
import { getAtomicTxStatus } from './getAtomicTxStatus.js'
import { getUTXOs } from './getUTXOs.js'
import { issueTx } from './issueTx.js'

export type { AvaxContext } from './context.js'

/** coreth's `avax` service at `/ext/bc/C/avax`: the C-chain's atomic txs (`plugin/evm/atomic/vm/api.go`). */
export const avaxService = {
  getAtomicTx,
  getAtomicTxStatus,
  getUTXOs,
  issueTx,
} satisfies NodeService<AvaxContext>
