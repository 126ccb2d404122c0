import { EMPTY_ID } from '../../../core/ids.js'
import type { AtomicTxStatus } from '../../../platform/xchain/cchainAtomic.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { AvaxContext } from './context.js'

/** `client.GetAtomicTxStatusReply`: `blockHeight` (json.Uint64) only when accepted. */
export type GetAtomicTxStatusResult = { status: AtomicTxStatus; blockHeight?: string }

/**
 * `avax.getAtomicTxStatus({txID})`: `Accepted` (with the C-chain block's height), `Processing` (in
 * the atomic mempool), `Dropped` (discarded by the block builder, while the mempool remembers it)
 * or `Unknown`; the empty id fails `nil transaction ID`.
 */
export const getAtomicTxStatus = defineNodeMethod(objectParams({ txID: cb58Id }), ({ txID }, ctx: AvaxContext): GetAtomicTxStatusResult => {
  if (txID === EMPTY_ID) throw new NodeRpcError('nil transaction ID')
  const status = ctx.cAtomic.status(txID)
  const height = ctx.cAtomic.getTx(txID)?.block?.height
  return status === 'Accepted' && height !== undefined ? { status, blockHeight: String(height) } : { status }
})
