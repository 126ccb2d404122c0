import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.openDatabase {node?}`: lifts closeDatabase faults. */
export const openDatabase = defineNodeMethod(objectParams({ node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.openDatabase(selectNode(ctx, args, false))
  return {}
})
