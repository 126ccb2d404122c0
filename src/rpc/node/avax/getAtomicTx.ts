import { EMPTY_ID } from '../../../core/ids.js'
import { encodeBytes, encodingField, type Encoding } from '../platform/common.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { AvaxContext } from './context.js'

/** coreth's `FormattedTx`: the signed bytes, and `blockHeight` (json.Uint64) once accepted. */
export type GetAtomicTxResult = { tx: string; encoding: Encoding; blockHeight?: string }

/**
 * `avax.getAtomicTx({txID, encoding})`: an accepted atomic tx, or one the mempool holds or
 * discarded, as its signed bytes under `encoding` (`json` fails `unsupported encoding in
 * method`); an unknown one fails `could not find tx <id>`, the empty id `nil transaction ID`.
 */
export const getAtomicTx = defineNodeMethod(objectParams({ txID: cb58Id, encoding: encodingField }), ({ txID, encoding }, ctx: AvaxContext): GetAtomicTxResult => {
  if (txID === EMPTY_ID) throw new NodeRpcError('nil transaction ID')
  const accepted = ctx.cAtomic.getTx(txID)
  const bytes = accepted?.bytes ?? ctx.cAtomic.mempoolTx(txID)?.bytes
  if (!bytes) throw new NodeRpcError(`could not find tx ${txID}`)
  const height = accepted?.block?.height
  return { tx: encodeBytes(encoding, bytes), encoding, ...(height !== undefined ? { blockHeight: String(height) } : {}) }
})
