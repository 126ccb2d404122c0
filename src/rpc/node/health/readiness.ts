import type { HealthReply } from '../../../network/health.js'
import { defineNodeMethod } from '../types.js'
import { decodeHealthArgs, type HealthRPCContext } from './args.js'

/**
 * Serves `health.readiness`: the readiness checks (`bootstrapped`, monotonic: once it passed it
 * stays passed), from cached results.
 * @example {"method":"health.readiness"} → {"checks":{"bootstrapped":{"message":[],…}},"healthy":true}
 */
export const readiness = defineNodeMethod<ReturnType<typeof decodeHealthArgs>, HealthReply, HealthRPCContext>(
  decodeHealthArgs,
  ({ tags }, ctx) => ctx.health.readiness.results(tags),
)
