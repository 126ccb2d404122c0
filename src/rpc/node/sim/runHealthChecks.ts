import { defineNodeMethod } from '../types.js'
import { objectParams } from '../params.js'
import { type SimContext } from './context.js'

/** `sim.runHealthChecks {}`: runs every node's health checks now, without waiting for the next scheduled run. */
export const runHealthChecks = defineNodeMethod(objectParams({}), async (_args, ctx: SimContext) => {
  const now = ctx.network.clock.now()
  for (const node of ctx.network.nodes) await Promise.all([node.health.readiness.runAll(now), node.health.health.runAll(now), node.health.liveness.runAll(now)])
  return {}
})
