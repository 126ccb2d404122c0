import { defineEthMethod } from '../define.js'
import type { Hex } from '../../../core/hex.js'
import { address, tuple } from '../../params.js'

/**
 * Serves `anvil_stopImpersonatingAccount` (also `hardhat_stopImpersonatingAccount`).
 */
export const anvil_stopImpersonatingAccount = defineEthMethod(
  tuple(address),
  ([who], ctx) => {
    ctx.chain.impersonated.delete(who.toLowerCase() as Hex)
    return null
  },
)
