import { defineEthMethod } from '../define.js'
import { address, blockTag, tuple } from '../../params.js'
import { toQuantity } from '../../../core/hex.js'
import { toBlockTag } from '../shared.js'

/**
 * Serves `eth_getBalance`. @example eth_getBalance ["0xf39f…", "latest"] → "0x21e19e0c9bab2400000"
 */
export const eth_getBalance = defineEthMethod(
  tuple(address, blockTag),
  async ([who, tag], ctx) => toQuantity((await ctx.chain.getAccountFields(who, toBlockTag(tag))).balance),
)
