import type { HealthReply } from '../../../network/health.js'
import { defineNodeMethod } from '../types.js'
import { decodeHealthArgs, type HealthRPCContext } from './args.js'

/**
 * Serves `health.liveness`. avalanchego registers no liveness check, so this is
 * `{"checks":{},"healthy":true}` whatever the tags.
 * @example {"method":"health.liveness"} → {"checks":{},"healthy":true}
 */
export const liveness = defineNodeMethod<ReturnType<typeof decodeHealthArgs>, HealthReply, HealthRPCContext>(
  decodeHealthArgs,
  ({ tags }, ctx) => ctx.health.liveness.results(tags),
)
