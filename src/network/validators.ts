import { InvalidArgumentError } from '../core/errors.js'
import { TypedEmitter } from '../core/events.js'
import type { Hex } from '../core/hex.js'

export type { ValidatorEntry } from '../core/validatorEntry.js'
import type { ValidatorEntry } from '../core/validatorEntry.js'

export type ValidatorSetChange = { subnetId: string; validators: readonly ValidatorEntry[] }

type Events = { change: ValidatorSetChange }

/**
 * Every subnet's validator set, in one place: warp verification, the validators API and health
 * read it; the network options fill it today and P-chain transactions will change it (issue 5),
 * so every change goes through {@link ValidatorRegistry.set} / `update` and is announced.
 * Sets are kept per subnet id; a snapshot copies the map (entries are immutable).
 */
export class ValidatorRegistry {
  readonly events = new TypedEmitter<Events>()
  #sets = new Map<string, readonly ValidatorEntry[]>()

  /** Replaces a subnet's validator set. Weights must be positive, node ids unique. */
  set(subnetId: string, validators: readonly ValidatorEntry[]): void {
    const seen = new Set<string>()
    for (const v of validators) {
      if (v.weight <= 0n) throw new InvalidArgumentError(`validator ${v.nodeId} of subnet ${subnetId} must have a positive weight, got ${v.weight}`)
      if (seen.has(v.nodeId)) throw new InvalidArgumentError(`validator ${v.nodeId} appears twice in subnet ${subnetId}`)
      seen.add(v.nodeId)
    }
    // Entries are frozen as given (not copied), so a lazily computed `blsPublicKey` getter stays lazy.
    const frozen = Object.freeze(validators.map((v) => (Object.isFrozen(v) ? v : Object.freeze(v))))
    this.#sets.set(subnetId, frozen)
    this.events.emit('change', { subnetId, validators: frozen })
  }

  /** The current set of a subnet (empty when it has none). */
  get(subnetId: string): readonly ValidatorEntry[] {
    return this.#sets.get(subnetId) ?? []
  }

  has(subnetId: string): boolean {
    return this.#sets.has(subnetId)
  }

  subnetIds(): string[] {
    return [...this.#sets.keys()]
  }

  totalWeight(subnetId: string): bigint {
    return this.get(subnetId).reduce((sum, v) => sum + v.weight, 0n)
  }

  snapshot(): Map<string, readonly ValidatorEntry[]> {
    return new Map(this.#sets)
  }

  restore(snapshot: Map<string, readonly ValidatorEntry[]>): void {
    this.#sets = new Map(snapshot)
  }
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
