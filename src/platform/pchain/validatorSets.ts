import { hexToBytes } from '../../core/hex.js'
import { PRIMARY_NETWORK_ID } from '../../core/ids.js'
import { managerSet, type ValidatorEntry } from '../../core/validatorEntry.js'
import { canonicalValidatorSet, createPublicKeyCache, type WarpValidatorSet } from '../../evm/warp/signature.js'
import type { ValidatorSetListener } from './chain.js'
import type { PChainSnapshot, PChainState } from './state.js'

/**
 * The validator sets a P-chain state implies, kept up to date incrementally (only the (subnet,
 * node) entries and L1s the state reports changed are recomputed) and pushed to the listener (the
 * network's ValidatorRegistry) when they change: the primary network (validators plus their
 * delegations), permissioned subnets, and L1s (their L1 validators, the inactive ones marked
 * `isActive: false`); each sorted by node id.
 */
export class PChainValidatorSets {
  readonly #state: () => PChainState
  #listener: ValidatorSetListener | undefined
  /** What was last pushed per subnet (a fingerprint), so an unchanged set is not pushed again. */
  #pushed = new Map<string, string>()
  #sets = new Map<string, ValidatorEntry[]>()
  /** Canonical warp sets of the sets above, built on first use, dropped when their subnet's set changes. */
  #canonical = new Map<string, WarpValidatorSet>()
  readonly #decode = createPublicKeyCache()
  /** Subnets whose set changed since it was last pushed. */
  #unpushed = new Set<string>()
  /** The sets each snapshot was taken with, their warp forms and what had been pushed then (by the snapshot object). */
  readonly #snapshots = new WeakMap<object, { sets: Map<string, ValidatorEntry[]>; pushed: Map<string, string>; canonical: Map<string, WarpValidatorSet> }>()

  constructor(state: () => PChainState, listener: ValidatorSetListener | undefined) {
    this.#state = state
    this.#listener = listener
  }

  setListener(l: ValidatorSetListener | undefined) {
    this.#listener = l
    this.#pushed.clear()
    this.#refresh()
    for (const id of this.#sets.keys()) this.#unpushed.add(id)
    this.publish()
  }

  /** The sets as the node's validator manager holds them (inactive L1 validators' weight under the empty node id, `managerSet`), primary network first. */
  active(): Map<string, ValidatorEntry[]> {
    this.#refresh()
    const out = new Map<string, ValidatorEntry[]>()
    for (const id of this.#order()) out.set(id, managerSet(this.#sets.get(id)!).slice())
    return out
  }

  /** One subnet's set in canonical warp form (`canonicalValidatorSet` of {@link activeOf}), built once per change of the set. */
  canonicalOf(subnetId: string): WarpValidatorSet {
    this.#refresh()
    let set = this.#canonical.get(subnetId)
    if (!set) this.#canonical.set(subnetId, (set = canonicalValidatorSet(managerSet(this.#sets.get(subnetId) ?? []), this.#decode)))
    return set
  }

  /** Pushes every set that changed since the last push, as of the state's time. */
  publish() {
    if (!this.#listener) return
    this.#refresh()
    if (this.#unpushed.size === 0) return
    const due = this.#unpushed
    this.#unpushed = new Set()
    for (const subnetId of this.#order()) {
      if (!due.has(subnetId)) continue
      const entries = this.#sets.get(subnetId)!
      const fp = entries.map((e) => `${e.nodeId}|${e.weight}|${e.validationId ?? ''}|${e.isActive ?? ''}`).join(',')
      if (this.#pushed.get(subnetId) === fp) continue
      this.#pushed.set(subnetId, fp)
      this.#listener.set(subnetId, entries.slice(), this.#state().timestamp)
    }
  }

  /** Keeps the sets of the state `snap` was just taken of, for {@link restore}. */
  remember(snap: PChainSnapshot) {
    this.#refresh()
    this.#snapshots.set(snap, { sets: copySets(this.#sets), pushed: new Map(this.#pushed), canonical: new Map(this.#canonical) })
  }

  /**
   * After the state was restored to `snap`: its sets (recomputed when `snap` came from elsewhere),
   * pushed again. When `listenerRestored` (the listener, the network's registry, was restored to
   * the moment `snap` was taken), only the sets that differ from what had been pushed then: pushing
   * an unchanged set again would only re-sync every uptime tracker with the same validators.
   */
  restore(snap: PChainSnapshot, listenerRestored = false) {
    const taken = this.#snapshots.get(snap)
    if (taken) {
      // the sets taken with the snapshot are those of the restored state: no recomputation
      this.#state().takeValidatorSetChanges()
      this.#sets = copySets(taken.sets)
      this.#canonical = new Map(taken.canonical)
    } else {
      this.#refresh()
    }
    this.#pushed = taken && listenerRestored ? new Map(taken.pushed) : new Map()
    this.#unpushed = new Set(this.#sets.keys())
    this.publish()
  }

  /** PRIMARY first, then subnets in creation order, then any other subnet with validators. */
  #order(): string[] {
    const st = this.#state()
    const order = [PRIMARY_NETWORK_ID]
    for (const id of st.d.subnets.keys()) if (id !== PRIMARY_NETWORK_ID) order.push(id)
    if (this.#sets.size > order.length) for (const id of this.#sets.keys()) if (!st.d.subnets.has(id) && id !== PRIMARY_NETWORK_ID) order.push(id)
    return order
  }

  #refresh() {
    const st = this.#state()
    const ch = st.takeValidatorSetChanges()
    const changed = this.#unpushed
    if (ch.all) {
      this.#sets.clear()
      this.#canonical.clear()
      const ids = new Set([PRIMARY_NETWORK_ID, ...st.d.subnets.keys()])
      for (const v of st.d.currentValidators.values()) ids.add(v.subnetId)
      for (const id of ids) this.#recomputeSubnet(id)
      for (const id of this.#sets.keys()) changed.add(id)
      return
    }
    for (const id of ch.subnets) { this.#recomputeSubnet(id); changed.add(id); this.#canonical.delete(id) }
    for (const [id, nodes] of ch.nodes) {
      if (ch.subnets.has(id)) continue
      if (id !== PRIMARY_NETWORK_ID && st.getSubnet(id)?.conversion) continue // an L1's set is its L1 validators
      let list = this.#sets.get(id)
      if (!list) this.#sets.set(id, (list = []))
      let any = false
      for (const node of nodes) {
        const entry = this.#stakerEntry(id, node)
        const i = lowerBoundNode(list, node)
        const found = i < list.length && list[i]!.nodeId === node
        if (found && entry) list[i] = entry
        else if (found) list.splice(i, 1)
        else if (entry) list.splice(i, 0, entry)
        else continue
        any = true
      }
      if (list.length === 0 && id !== PRIMARY_NETWORK_ID && !st.getSubnet(id)) this.#sets.delete(id)
      if (any) { changed.add(id); this.#canonical.delete(id) }
    }
  }

  /** Recomputes one subnet's set whole (an L1's from its L1 validators, inactive ones marked). */
  #recomputeSubnet(id: string) {
    const st = this.#state()
    const subnet = st.getSubnet(id)
    const list: ValidatorEntry[] = []
    if (id !== PRIMARY_NETWORK_ID && subnet?.conversion) {
      for (const v of st.l1ValidatorsOf(id)) {
        const entry: ValidatorEntry = { nodeId: v.nodeId, weight: v.weight, blsPublicKey: hexToBytes(v.publicKey as `0x${string}`), startTime: BigInt(v.startTime), validationId: v.validationId }
        // A balance that ran out leaves the validator current but inactive (`IsActive`: EndAccumulatedFee ≠ 0).
        list.push(v.endAccumulatedFee === 0n ? { ...entry, isActive: false } : entry)
      }
    } else {
      for (const v of st.currentValidatorsOf(id)) list.push(this.#stakerEntry(id, v.nodeId)!)
    }
    list.sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1))
    if (list.length === 0 && id !== PRIMARY_NETWORK_ID && !subnet) this.#sets.delete(id)
    else this.#sets.set(id, list)
  }

  /** The entry of a (non-L1) subnet validator: its weight plus its current delegations. */
  #stakerEntry(subnetId: string, nodeId: string): ValidatorEntry | undefined {
    const st = this.#state()
    const v = st.getCurrentValidator(subnetId, nodeId)
    if (!v) return undefined
    let weight = v.weight
    for (const d of st.delegatorsOf(subnetId, nodeId, 'current')) weight += d.weight
    const key = v.blsPublicKey ?? st.getCurrentValidator(PRIMARY_NETWORK_ID, nodeId)?.blsPublicKey
    return { nodeId, weight, blsPublicKey: key ? hexToBytes(key as `0x${string}`) : undefined, startTime: BigInt(v.startTime) }
  }
}

/** Index of the first entry of `list` (sorted by node id) whose node id is not less than `nodeId`. */
function lowerBoundNode(list: readonly ValidatorEntry[], nodeId: string): number {
  let lo = 0, hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid]!.nodeId < nodeId) lo = mid + 1
    else hi = mid
  }
  return lo
}

const copySets = (sets: Map<string, ValidatorEntry[]>) => new Map([...sets].map(([id, list]) => [id, list.slice()]))
