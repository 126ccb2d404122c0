import type { HealthReply } from '../../../network/health.js'
import { defineNodeMethod } from '../types.js'
import { decodeHealthArgs, type HealthRPCContext } from './args.js'

/**
 * Serves `health.health`: the last results of the node's health checks, filtered by tags
 * (application checks always included). Answered from cached results; always a JSON-RPC result,
 * even when unhealthy.
 * @example {"method":"health.health","params":{"tags":["11111111111111111111111111111111LpoYY"]}} → {"checks":{…},"healthy":true}
 */
export const health = defineNodeMethod<ReturnType<typeof decodeHealthArgs>, HealthReply, HealthRPCContext>(
  decodeHealthArgs,
  ({ tags }, ctx) => ctx.health.health.results(tags),
)
