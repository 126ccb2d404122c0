import { defineNodeMethod } from '../types.js'
import { objectParams, uint64 } from '../params.js'
import { type SimContext } from './context.js'

/** `sim.advanceTime {seconds}`: moves network time forward; interval mining and health checks catch up. Returns the new time (unix seconds). */
export const advanceTime = defineNodeMethod(objectParams({ seconds: uint64 }), async (args, ctx: SimContext) => {
  await ctx.network.advanceTime(Number(args.seconds))
  return { time: ctx.network.clock.now() }
})
