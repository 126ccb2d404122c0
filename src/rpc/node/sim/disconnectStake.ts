import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str } from '../params.js'
import { float64, type SimContext } from './context.js'

/** `sim.disconnectStake {fraction, subnetID?}`: disconnects validators, heaviest first, until at least `fraction` (0–1] of the subnet's stake (primary network by default) is cut off; returns their NodeIDs. */
export const disconnectStake = defineNodeMethod(objectParams({ fraction: float64, subnetID: optional(str) }), async (args, ctx: SimContext) => {
  const nodes = ctx.network.disconnectStake(args.fraction, args.subnetID || undefined)
  return { disconnected: nodes.map((n) => n.nodeId) }
})
