import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { suggestTip } from '../../../evm/gasPrice.js'
import { tuple } from '../../params.js'

/** Serves `eth_maxPriorityFeePerGas`: coreth's tip oracle (40th percentile, at least 1 wei). */
export const eth_maxPriorityFeePerGas = defineEthMethod(
  tuple(),
  (_params, ctx) => toQuantity(suggestTip(ctx.chain)),
)
