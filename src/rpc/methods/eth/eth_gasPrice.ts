import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { suggestTip } from '../../../evm/gasPrice.js'
import { tuple } from '../../params.js'

/** Serves `eth_gasPrice`: the suggested tip plus the next block's base fee, as coreth computes it. */
export const eth_gasPrice = defineEthMethod(
  tuple(),
  (_params, ctx) => toQuantity(suggestTip(ctx.chain) + ctx.chain.nextBaseFee()),
)
