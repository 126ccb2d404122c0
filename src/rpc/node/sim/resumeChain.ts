import { defineNodeMethod } from '../types.js'
import { objectParams, str } from '../params.js'
import { chainAlias, type SimContext } from './context.js'

/** `sim.resumeChain {chain}`: lifts a stallChain fault. */
export const resumeChain = defineNodeMethod(objectParams({ chain: str }), async (args, ctx: SimContext) => {
  ctx.network.faults.resumeChain(chainAlias(ctx, args.chain))
  return {}
})
