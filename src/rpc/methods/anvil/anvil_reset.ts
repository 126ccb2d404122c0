import { defineEthMethod } from '../define.js'
import { any, optional, tuple } from '../../params.js'

/**
 * Serves `anvil_reset` (also `hardhat_reset`): `network.reset()`, back to the state right after start — after
 * the scenario's steps when the network was started from one, the loaded state for a snapshot file — with every
 * snapshot cleared and every fault lifted. Forking options are not supported and are ignored.
 */
export const anvil_reset = defineEthMethod(
  tuple(optional(any)),
  async (_params, ctx) => {
    await ctx.network.reset()
    return null
  },
)
