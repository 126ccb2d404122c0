/** The `health` service (`/ext/health`, POST): one method per file, registered here under its wire name. */
import type { NodeService } from '../types.js'
import type { HealthRPCContext } from './args.js'
import { health } from './health.js'
import { liveness } from './liveness.js'
import { readiness } from './readiness.js'

export type { HealthArgs, HealthRPCContext } from './args.js'
export { decodeHealthArgs } from './args.js'

export const healthService = {
  health,
  readiness,
  liveness,
} satisfies NodeService<HealthRPCContext>
