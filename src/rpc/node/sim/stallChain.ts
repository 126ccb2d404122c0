import { defineNodeMethod } from '../types.js'
import { objectParams, str } from '../params.js'
import { chainAlias, type SimContext } from './context.js'

/** `sim.stallChain {chain}`: the chain's consensus keeps a block processing; its health check fails once that exceeds 30 s. */
export const stallChain = defineNodeMethod(objectParams({ chain: str }), async (args, ctx: SimContext) => {
  ctx.network.faults.stallChain(chainAlias(ctx, args.chain))
  return {}
})
