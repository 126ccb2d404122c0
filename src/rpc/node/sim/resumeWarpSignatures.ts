import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.resumeWarpSignatures {node | nodeID}`: lifts a withholdWarpSignatures fault. */
export const resumeWarpSignatures = defineNodeMethod(objectParams({ node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.resumeWarpSignatures(selectNode(ctx, args, true)!)
  return {}
})
