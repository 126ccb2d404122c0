import { defineNodeMethod } from '../types.js'
import { objectParams } from '../params.js'
import { type SimContext } from './context.js'

/**
 * `sim.reset {}`: back to the state the network started from — right after its scenario ran
 * when it was started from one, else its genesis. Clears every snapshot and lifts every fault,
 * as `anvil_reset` does.
 * @example sim.reset {} → {}
 */
export const reset = defineNodeMethod(objectParams({}), async (_args, ctx: SimContext) => {
  await ctx.network.reset()
  return {}
})
