import { defineNodeMethod } from '../types.js'
import { objectParams } from '../params.js'
import { type SimContext } from './context.js'

/** `sim.clearFaults {}`: lifts every fault. */
export const clearFaults = defineNodeMethod(objectParams({}), async (_args, ctx: SimContext) => {
  ctx.network.faults.clear()
  return {}
})
