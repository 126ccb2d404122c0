import type { NodeHealth } from '../../../network/health.js'
import { objectParams, strArray } from '../params.js'

/** What the health service reads from the node it runs on. */
export type HealthRPCContext = { health: Pick<NodeHealth, 'readiness' | 'health' | 'liveness'> }

/**
 * `health.APIArgs` (`{"tags": [string]}`, optional) decoded as gorilla json2 decodes it:
 * absent/null params or tags mean no tags; `[args]` is accepted; a `null` element is `""`.
 */
export const decodeHealthArgs = objectParams({ tags: strArray })

export type HealthArgs = ReturnType<typeof decodeHealthArgs>
