import { decodeSignedTx } from '../../../platform/codec.js'
import { PChainTxError } from '../../../platform/pchain/errors.js'
import type { PChainSignedTx } from '../../../platform/txs.js'
import { objectParams, str } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { decodeBytes, encodingField } from './common.js'
import type { PlatformContext } from './context.js'

/** `api.JSONTxID`. */
export type IssueTxResult = { txID: string }

/**
 * `platform.issueTx({tx, encoding})` (`api.FormattedTx`): the signed tx bytes under `encoding`
 * (default hex with checksum, as avalanchejs' `issueSignedTx` and @avalanche-sdk/client's
 * `sendXPTransaction` send them) go to the P-chain's mempool (`ctx.issue`, default
 * `pchain.mempool.issue`); the answer is the tx id, for a tx already waiting in the mempool too.
 * Refusals, as `Service.IssueTx` words them: `problem decoding transaction: …` (the encoding),
 * `couldn't parse tx: …` (the codec), `couldn't issue tx: …` (the mempool's text, e.g. `failed
 * verification: failed execution: standard tx <id> failed execution: …`).
 */
export const issueTx = defineNodeMethod(objectParams({ tx: str, encoding: encodingField }), async ({ tx, encoding }, ctx: PlatformContext): Promise<IssueTxResult> => {
  let bytes: Uint8Array
  try {
    bytes = decodeBytes(encoding, tx)
  } catch (error) {
    throw new NodeRpcError(`problem decoding transaction: ${(error as NodeRpcError).shortMessage}`)
  }
  let signed: PChainSignedTx
  try {
    signed = decodeSignedTx('P', bytes)
  } catch (error) {
    throw new NodeRpcError(`couldn't parse tx: ${(error as { shortMessage?: string }).shortMessage ?? (error as Error).message}`)
  }
  try {
    return { txID: await (ctx.issue ? ctx.issue(signed) : ctx.pchain.mempool.issue(signed)) }
  } catch (error) {
    if (error instanceof PChainTxError) throw new NodeRpcError(`couldn't issue tx: ${error.shortMessage}`)
    throw error
  }
})
