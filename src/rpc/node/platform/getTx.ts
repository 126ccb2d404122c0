import { encodeSignedTx } from '../../../platform/codec.js'
import type { PChainSignedTx } from '../../../platform/txs.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { encodeBytes, encodingField, type Encoding } from './common.js'
import type { PlatformContext } from './context.js'
import { platformTxJson } from './txJson.js'

/** `api.GetTxReply`: `tx` is the encoded string, or the tx as JSON for `encoding: "json"`. */
export type GetTxResult = { tx: unknown; encoding: Encoding }

/**
 * `platform.getTx({txID, encoding})`: an accepted tx (reward txs included) in its signed bytes
 * under `encoding` (default hex, with checksum), or as JSON (see {@link platformTxJson}).
 * Unknown: `couldn't get tx: not found`.
 */
export const getTx = defineNodeMethod(objectParams({ txID: cb58Id, encoding: encodingField }), ({ txID, encoding }, ctx: PlatformContext): GetTxResult => {
  const stored = ctx.pchain.state.getTx(txID)
  if (!stored) throw new NodeRpcError('couldn\'t get tx: not found')
  const signed = stored.tx as PChainSignedTx | Uint8Array
  if (encoding === 'json') {
    if (signed instanceof Uint8Array) throw new NodeRpcError('couldn\'t get tx: stored as bytes only')
    return { tx: platformTxJson(ctx.pchain.config.networkId, signed, stored.id), encoding }
  }
  const bytes = signed instanceof Uint8Array ? signed : encodeSignedTx('P', signed)
  return { tx: encodeBytes(encoding, bytes), encoding }
})
