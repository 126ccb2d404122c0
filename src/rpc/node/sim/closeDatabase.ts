import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.closeDatabase {node?}`: the database check reports `closed` (one node, or all). */
export const closeDatabase = defineNodeMethod(objectParams({ node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.closeDatabase(selectNode(ctx, args, false))
  return {}
})
