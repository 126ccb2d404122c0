import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.disconnectNode {node | nodeID}`: cuts a node off from every peer (its peers lose it, it loses them); the answering node when none is named. */
export const disconnectNode = defineNodeMethod(objectParams({ node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.disconnectNode(selectNode(ctx, args, true)!)
  return {}
})
