import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, nodeId } from '../params.js'
import { selectNode, type SimContext } from './context.js'

/** `sim.fillDisk {availablePercentage, node?}`: the data directory reports only this much free space (below 10%: warning failure; below 3%: required failure), on one node or all. */
export const fillDisk = defineNodeMethod(objectParams({ availablePercentage: uint32, node: optional(uint32), nodeID: optional(nodeId) }), async (args, ctx: SimContext) => {
  ctx.network.faults.fillDisk(args.availablePercentage, selectNode(ctx, args, false))
  return {}
})
