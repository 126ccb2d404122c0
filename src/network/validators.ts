import { InvalidArgumentError } from '../core/errors.js'
import { TypedEmitter } from '../core/events.js'
import type { Hex } from '../core/hex.js'

export type { ValidatorEntry } from '../core/validatorEntry.js'
import { managerSet, type ValidatorEntry } from '../core/validatorEntry.js'
import { canonicalValidatorSet, createPublicKeyCache, type WarpValidatorSet } from '../evm/warp/signature.js'

/** A subnet's new set: every current validator, inactive L1 validators included; `at`: when it took effect (unix seconds), if not now. */
export type ValidatorSetChange = { subnetId: string; validators: readonly ValidatorEntry[]; at?: number }

type Events = { change: ValidatorSetChange }

/**
 * Every subnet's validator set, in one place: the network options and the P-chain fill it, so
 * every change goes through {@link ValidatorRegistry.set} and is announced. A set holds every
 * current validator, as the P-chain's `GetCurrentValidatorSet` gives them (the validators API and
 * the uptime trackers read that, {@link ValidatorRegistry.current}); {@link ValidatorRegistry.get}
 * leaves out inactive L1 validators, as the node's validator manager does (warp signing and
 * verification, health, stake faults). Sets are kept per subnet id; a snapshot copies the map
 * (entries are immutable).
 */
export class ValidatorRegistry {
  readonly events = new TypedEmitter<Events>()
  #sets = new Map<string, { current: readonly ValidatorEntry[]; active: readonly ValidatorEntry[]; canonical?: WarpValidatorSet }>()
  readonly #decode = createPublicKeyCache()

  /**
   * Replaces a subnet's validator set (every current validator), in effect since `at` (unix
   * seconds; now when absent). Weights must be positive, node ids unique.
   */
  set(subnetId: string, validators: readonly ValidatorEntry[], at?: number): void {
    const seen = new Set<string>()
    for (const v of validators) {
      if (v.weight <= 0n) throw new InvalidArgumentError(`validator ${v.nodeId} of subnet ${subnetId} must have a positive weight, got ${v.weight}`)
      if (seen.has(v.nodeId)) throw new InvalidArgumentError(`validator ${v.nodeId} appears twice in subnet ${subnetId}`)
      seen.add(v.nodeId)
    }
    // Entries are frozen as given (not copied), so a lazily computed `blsPublicKey` getter stays lazy.
    const frozen = Object.freeze(validators.map((v) => (Object.isFrozen(v) ? v : Object.freeze(v))))
    this.#sets.set(subnetId, withActive(frozen))
    this.events.emit('change', { subnetId, validators: frozen, ...(at !== undefined ? { at } : {}) })
  }

  /** The active validators of a subnet (empty when it has none): those that sign and count as stake. */
  get(subnetId: string): readonly ValidatorEntry[] {
    return this.#sets.get(subnetId)?.active ?? []
  }

  /**
   * The active set's canonical warp form (`canonicalValidatorSet`: keys decoded and checked, merged
   * and sorted), built once per set: every signature and verification against the subnet reads it,
   * as a node caches its validator sets, instead of decoding each key again.
   */
  canonical(subnetId: string): WarpValidatorSet {
    const sets = this.#sets.get(subnetId)
    if (!sets) return canonicalValidatorSet([])
    return (sets.canonical ??= canonicalValidatorSet(sets.active, this.#decode))
  }

  /** Every current validator of a subnet, inactive L1 validators included (`GetCurrentValidatorSet`). */
  current(subnetId: string): readonly ValidatorEntry[] {
    return this.#sets.get(subnetId)?.current ?? []
  }

  has(subnetId: string): boolean {
    return this.#sets.has(subnetId)
  }

  subnetIds(): string[] {
    return [...this.#sets.keys()]
  }

  /** The active validators' weight. */
  totalWeight(subnetId: string): bigint {
    return this.get(subnetId).reduce((sum, v) => sum + v.weight, 0n)
  }

  /** Every subnet's current set. */
  snapshot(): Map<string, readonly ValidatorEntry[]> {
    return new Map([...this.#sets].map(([id, sets]) => [id, sets.current]))
  }

  restore(snapshot: Map<string, readonly ValidatorEntry[]>): void {
    this.#sets = new Map([...snapshot].map(([id, current]) => [id, withActive(current)]))
  }
}

function withActive(current: readonly ValidatorEntry[]): { current: readonly ValidatorEntry[]; active: readonly ValidatorEntry[] } {
  const active = managerSet(current)
  return { current, active: active === current ? current : Object.freeze(active) }
}

export const hexToBlsKey = (key: Hex): Uint8Array => Uint8Array.from(Buffer.from(key.slice(2), 'hex'))

/**
 * A validator entry of a simulated node whose BLS key is derived on first read: a node's BLS key
 * costs a curve multiplication (~10 ms), and most runs never need one (warp and the validators
 * API do), so a network starts without paying for them.
 */
export function nodeValidatorEntry(node: { nodeId: string; blsPublicKey: Hex }, weight: bigint, startTime: bigint): ValidatorEntry {
  let key: Uint8Array | undefined
  return {
    nodeId: node.nodeId,
    weight,
    get blsPublicKey() {
      return (key ??= hexToBlsKey(node.blsPublicKey))
    },
    startTime,
  }
}
