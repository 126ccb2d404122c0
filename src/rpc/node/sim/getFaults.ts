import { defineNodeMethod } from '../types.js'
import { objectParams } from '../params.js'
import { type SimContext } from './context.js'

/** `sim.getFaults {}`: the faults in force, oldest first. */
export const getFaults = defineNodeMethod(objectParams({}), async (_args, ctx: SimContext) => {
  return { faults: ctx.network.faults.list() }
})
