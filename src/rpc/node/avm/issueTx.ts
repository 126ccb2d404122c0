import { BaseError } from '../../../core/errors.js'
import { decodeSignedTx } from '../../../platform/codec.js'
import { decodeBytes, encodingField } from '../platform/common.js'
import { objectParams, str } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { AvmContext } from './context.js'

export type IssueTxResult = { txID: string }

/**
 * `avm.issueTx({tx, encoding})` (`api.FormattedTx`, what avalanchejs' `issueSignedTx` sends: hex
 * with its checksum, no encoding named): decodes and parses the signed tx, then issues it as the
 * node does (`issueTxFromRPC`): verified against the last accepted state into the mempool, built
 * into a block at once. Errors are the node's, unwrapped: `problem decoding transaction: …`, the
 * codec's parse error, the verifier's (`failed to verify transfer: …`), the mempool's (`tx
 * conflicts with other tx: <id>`), or a refusal the mempool remembers for this tx.
 */
export const issueTx = defineNodeMethod(objectParams({ tx: str, encoding: encodingField }), (args, ctx: AvmContext): IssueTxResult => {
  let bytes: Uint8Array
  try {
    bytes = decodeBytes(args.encoding, args.tx)
  } catch (error) {
    throw new NodeRpcError(`problem decoding transaction: ${(error as BaseError).shortMessage}`)
  }
  // `ParseTx` first: bytes that do not parse never reach the mempool.
  decodeSignedTx('X', bytes)
  return { txID: ctx.xchain.issueTx(bytes).txId }
})
