import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.connectNode {node | nodeID}`: lifts a disconnectNode fault. */
export const connectNode = defineNodeMethod(objectParams({ node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.connectNode(selectNode(ctx, args, true)!)
  return {}
})
