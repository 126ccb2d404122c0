import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str } from '../params.js'
import { float64, type SimContext } from './context.js'

/** `sim.withholdWarpStake {fraction, subnetID?}`: validators, heaviest first, withhold their warp signatures (staying connected) until at least `fraction` (0–1] of the subnet's stake (primary network by default) signs nothing; returns their NodeIDs. */
export const withholdWarpStake = defineNodeMethod(objectParams({ fraction: float64, subnetID: optional(str) }), async (args, ctx: SimContext) => {
  const nodes = ctx.network.withholdWarpStake(args.fraction, args.subnetID || undefined)
  return { withholding: nodes.map((n) => n.nodeId) }
})
