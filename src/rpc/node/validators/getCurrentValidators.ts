import type { Clock } from '../../../core/clock.js'
import type { ValidatorRegistry } from '../../../network/validators.js'
import { validationIdOf, type UptimeTracker } from '../../../network/uptime.js'
import { nodeIdArray, objectParams } from '../params.js'
import { float32Json } from '../info/format.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'

/** The context slice of the `validators` service of one L1 chain, on one node. */
export interface ValidatorsContext {
  /** The subnet whose chain serves `/ext/bc/<chain>/validators`. */
  subnetId: string
  validators: Pick<ValidatorRegistry, 'current'>
  clock: Pick<Clock, 'now'>
  /** The answering node's uptime tracker for this chain (synced with the subnet's validator set). */
  uptime: UptimeTracker
  /** Whether the answering node is connected to a node (itself included), as `P2PValidators().Has`. */
  isConnected(nodeId: string): boolean
}

/** subnet-evm `client.CurrentValidator`, in Go's field order. */
export type CurrentValidator = {
  validationID: string
  nodeID: string
  /** uint64: a bigint, which the node encoder writes as a bare number. */
  weight: bigint
  startTimestamp: number
  isActive: boolean
  isL1Validator: boolean
  isConnected: boolean
  uptimePercentage: number
  uptimeSeconds: number
}

/**
 * `validators.getCurrentValidators({nodeIDs?})` (subnet-evm `ValidatorsAPI`): the L1's current
 * validators (the P-chain's `GetCurrentValidatorSet`: an L1 validator whose balance ran out stays,
 * `isActive: false`) with this node's view of their uptime and connection. An empty or absent
 * `nodeIDs` returns all. Uptime percentage is `float32(up / (lastUpdated − start) · 100)` (100 when
 * no time has passed); an inactive validator gains no uptime.
 *
 * Differences: a node returns the validators in Go map order (random on every call); l1sim keeps
 * the validator set's order. Entries without a `validationId` (subnet validators registered
 * before P-chain transactions exist) get a stand-in id, {@link validationIdOf}. `weight` is a
 * bigint (exact uint64; `encodeGoJson` writes it bare, `JSON.stringify` cannot).
 */
export const getCurrentValidators = defineNodeMethod(
  objectParams({ nodeIDs: nodeIdArray }),
  ({ nodeIDs }, ctx: ValidatorsContext): { validators: CurrentValidator[] } => {
    const wanted = new Set(nodeIDs)
    const now = ctx.clock.now()
    const validators: CurrentValidator[] = []
    for (const entry of ctx.validators.current(ctx.subnetId)) {
      if (wanted.size > 0 && !wanted.has(entry.nodeId)) continue
      const id = validationIdOf(ctx.subnetId, entry)
      let up: { upDurationSeconds: number; lastUpdated: number }
      try {
        up = ctx.uptime.getUptime(id, now)
      } catch (error) {
        throw new NodeRpcError(`failed to get uptime for validation ID ${id}: ${(error as Error).message}`, { cause: error })
      }
      const best = up.lastUpdated - Number(entry.startTime)
      const fraction = best === 0 ? 1 : up.upDurationSeconds / best
      validators.push({
        validationID: id,
        nodeID: entry.nodeId,
        weight: entry.weight,
        startTimestamp: Number(entry.startTime),
        isActive: entry.isActive !== false,
        isL1Validator: entry.validationId !== undefined,
        isConnected: ctx.isConnected(entry.nodeId),
        uptimePercentage: float32Json(fraction * 100),
        uptimeSeconds: Math.trunc(up.upDurationSeconds),
      })
    }
    return { validators }
  },
)
