import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.withholdWarpSignatures {node | nodeID}`: the node stays connected but signs no warp message (its stake counts toward the aggregator's connection threshold, not toward a signature); the answering node when none is named. */
export const withholdWarpSignatures = defineNodeMethod(objectParams({ node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.withholdWarpSignatures(selectNode(ctx, args, true)!)
  return {}
})
