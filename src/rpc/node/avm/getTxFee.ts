import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { AvmContext } from './context.js'

export type GetTxFeeResult = { txFee: string; createAssetTxFee: string }

/**
 * `avm.getTxFee`: the X-chain's static fees in nAVAX (json.Uint64), which avalanchejs'
 * `Context.getContextFromURI` and `@avalanche-sdk/client` read as `baseTxFee` / `createAssetTxFee`.
 */
export const getTxFee = defineNodeMethod(noParams, (_params, ctx: AvmContext): GetTxFeeResult => ({
  txFee: String(ctx.xchain.txFee),
  createAssetTxFee: String(ctx.xchain.createAssetTxFee),
}))
