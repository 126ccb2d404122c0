import type { BaseError } from '../../../core/errors.js'
import { decodeCSignedTx } from '../../../platform/xchain/cAtomicCodec.js'
import { decodeBytes, encodingField } from '../platform/common.js'
import { objectParams, str } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { AvaxContext } from './context.js'

export type IssueTxResult = { txID: string }

/**
 * `avax.issueTx({tx, encoding})` (coreth `AvaxAPI.IssueTx`; avalanchejs' `EVMApi.issueSignedTx`
 * sends checksummed hex): `problem decoding transaction: …`, `problem parsing transaction: …`,
 * then the atomic mempool (`Mempool.AddLocalTx`: verified at the tip, coreth's messages; a tx
 * already there is taken as issued) and the C-chain's next block.
 */
export const issueTx = defineNodeMethod(objectParams({ tx: str, encoding: encodingField }), async (args, ctx: AvaxContext): Promise<IssueTxResult> => {
  let bytes: Uint8Array
  try {
    bytes = decodeBytes(args.encoding, args.tx)
  } catch (error) {
    throw new NodeRpcError(`problem decoding transaction: ${(error as BaseError).shortMessage}`)
  }
  try {
    decodeCSignedTx(bytes)
  } catch (error) {
    throw new NodeRpcError(`problem parsing transaction: ${(error as BaseError).shortMessage}`)
  }
  return { txID: (await ctx.issue(bytes)).txId }
})
