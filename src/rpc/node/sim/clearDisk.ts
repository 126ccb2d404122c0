import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.clearDisk {node?}`: lifts fillDisk faults (of one node, or all). */
export const clearDisk = defineNodeMethod(objectParams({ node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.clearDisk(selectNode(ctx, args, false))
  return {}
})
