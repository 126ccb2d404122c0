import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, uint64, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.delayBootstrap {seconds, node?}`: the node (or every node) is still bootstrapping for `seconds` of network time: `bootstrapped` fails, chain APIs answer 503, info.isBootstrapped is false. */
export const delayBootstrap = defineNodeMethod(objectParams({ seconds: uint64, node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.delayBootstrap(Number(args.seconds), selectNode(ctx, args, false))
  return {}
})
