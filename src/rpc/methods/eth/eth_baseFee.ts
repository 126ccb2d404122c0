import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { tuple } from '../../params.js'

/** Serves coreth's `eth_baseFee`: the base fee of the next block if built now. */
export const eth_baseFee = defineEthMethod(
  tuple(),
  (_params, ctx) => toQuantity(ctx.chain.nextBaseFee()),
)
