import { defineEthMethod } from '../define.js'
import type { Hex } from '../../../core/hex.js'
import { address, tuple } from '../../params.js'

/**
 * Serves `anvil_setCoinbase`: the coinbase of the next blocks (fees go there).
 */
export const anvil_setCoinbase = defineEthMethod(
  tuple(address),
  ([who], ctx) => {
    ctx.chain.coinbase = who.toLowerCase() as Hex
    return null
  },
)
