import { EMPTY_NODE_ID } from './ids.js'

/** One validator of a subnet or L1, as warp verification and the validators API read it. */
export type ValidatorEntry = {
  nodeId: string
  weight: bigint
  /** Compressed G1 BLS public key (48 bytes); undefined for a validator registered without one. */
  blsPublicKey: Uint8Array | undefined
  /** Unix seconds at which it started validating. */
  startTime: bigint
  /** `validationID` of an L1 validator (cb58); undefined for a subnet / primary validator. */
  validationId?: string
  /**
   * `false` for an L1 validator whose balance ran out (ACP-77 "inactive"): still a current
   * validator with its weight, which the P-chain's and subnet-EVM's APIs list (`isActive: false`),
   * but outside the set that signs and is counted for connected stake. Absent means active.
   */
  isActive?: false
}

/**
 * A subnet's set as a node's validator manager holds it (avalanchego `vms/platformvm/state`: an
 * inactive L1 validator's effective node id is the empty one): the active validators, plus the
 * inactive L1 validators' weight summed under the empty node id without a BLS key, so it counts
 * in the total weight (warp quorums, `getValidatorsAt`, `getTotalStake`) but never signs. Sorted
 * by node id as the sets are; the same array when nothing is inactive.
 */
export function managerSet(current: readonly ValidatorEntry[]): readonly ValidatorEntry[] {
  let inactive = 0n
  for (const v of current) if (v.isActive === false) inactive += v.weight
  if (inactive === 0n) return current
  const active = current.filter((v) => v.isActive !== false)
  const empty: ValidatorEntry = { nodeId: EMPTY_NODE_ID, weight: inactive, blsPublicKey: undefined, startTime: 0n }
  return [...active, empty].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0))
}
