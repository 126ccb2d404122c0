import { defineEthMethod } from '../define.js'
import { any, optional, tuple } from '../../params.js'

/**
 * Serves `anvil_reset` (also `hardhat_reset`): back to the state right after start. Forking options are not
 * supported and are ignored.
 */
export const anvil_reset = defineEthMethod(
  tuple(optional(any)),
  async (_params, ctx) => {
    await ctx.network.reset()
    return null
  },
)
