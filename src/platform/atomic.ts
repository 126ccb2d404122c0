import { sha256 } from '../core/sha256.js'
import { BaseError, InvalidArgumentError } from '../core/errors.js'
import { bytesToHex, hexToBytes, type Hex } from '../core/hex.js'
import { idFromString, idToString } from '../core/ids.js'

/**
 * Shared memory between the chains of one subnet, as avalanchego's `chains/atomic` keeps it: for
 * every ordered pair (source → destination) a set of elements, each a key (the UTXO's input id,
 * `txID.Prefix(outputIndex)`), a value (the UTXO's codec bytes) and traits (the 20-byte addresses
 * that own it, which index it for `getUTXOs` with a `sourceChain`).
 *
 * An export on chain A to chain B *puts* elements into A → B; an import on B from A *gets* and then
 * *removes* them. A chain only ever reads the direction that ends at itself.
 *
 * Differences from the real store, on purpose:
 * - A remove of a key that was never put is refused (`not found`) instead of leaving a tombstone:
 *   tombstones exist so that a bootstrapping node can accept an import before the export that
 *   feeds it, which cannot happen in one emulated process.
 * - `apply` is all-or-nothing: nothing changes when any request fails.
 *
 * Iteration order per trait is newest first, as linkeddb (which the real index uses) iterates.
 */

/** An element as a chain hands it to shared memory (`atomic.Element`). */
export type AtomicElement = {
  /** 32 bytes: the UTXO's input id. */
  key: Uint8Array
  /** The UTXO in the codec's byte layout. */
  value: Uint8Array
  /** 20-byte addresses owning the UTXO. */
  traits: Uint8Array[]
}

/** `atomic.Requests` for one peer chain. */
export type AtomicRequests = {
  removeRequests?: Uint8Array[]
  putRequests?: AtomicElement[]
}

/** The real messages: `database.ErrNotFound`, `errDuplicatePut`, `errDuplicateRemove`. */
export class SharedMemoryError extends BaseError {
  override name = 'SharedMemoryError'
}

export const ERR_NOT_FOUND = 'not found'

type StoredElement = { value: Hex; traits: Hex[]; seq: number }

type Direction = {
  /** key hex → element. */
  elements: Map<Hex, StoredElement>
  /** trait hex → key hex → insertion sequence. */
  index: Map<Hex, Map<Hex, number>>
}

export type SharedMemorySnapshot = {
  /** Monotonic counter for insertion order. */
  seq: number
  /** `${source}>${destination}` (cb58 chain ids), sorted. */
  directions: Array<{
    source: string
    destination: string
    elements: Array<{ key: Hex; value: Hex; traits: Hex[]; seq: number }>
  }>
}

export type IndexedResult = {
  values: Uint8Array[]
  keys: Uint8Array[]
  /** The trait (address) of the last key scanned; the start trait when nothing was scanned. */
  lastTrait: Uint8Array
  /** The last key scanned; the start key when nothing was scanned. */
  lastKey: Uint8Array
}

const dirKey = (source: string, destination: string) => `${source}>${destination}`

function checkChainId(chainId: string): void {
  idFromString(chainId) // throws the cb58 message for a malformed id
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

function compareHex(a: Hex, b: Hex): number {
  // Lower-case hex of bytes compares like the bytes when lengths agree; fall back otherwise.
  if (a.length === b.length) return a < b ? -1 : a > b ? 1 : 0
  return compareBytes(hexToBytes(a), hexToBytes(b))
}

/** `sharedID(id1, id2)`: sha256 of the two ids, smaller first, in the codec's layout. */
export function sharedMemoryId(chainA: string, chainB: string): string {
  let a = idFromString(chainA)
  let b = idFromString(chainB)
  if (compareBytes(a, b) > 0) [a, b] = [b, a]
  // Codec.Marshal(0, [2]ids.ID): version (2 bytes) then the fixed-size array, no length prefix.
  const bytes = new Uint8Array(2 + 64)
  bytes.set(a, 2)
  bytes.set(b, 34)
  return idToString(sha256(bytes))
}

export class SharedMemory {
  #directions = new Map<string, Direction>()
  #seq = 0

  #direction(source: string, destination: string, create: boolean): Direction | undefined {
    const k = dirKey(source, destination)
    let d = this.#directions.get(k)
    if (!d && create) {
      d = { elements: new Map(), index: new Map() }
      this.#directions.set(k, d)
    }
    return d
  }

  /**
   * Applies the requests of a chain's accepted block atomically: for each peer, removes from
   * peer → thisChain and puts into thisChain → peer (`sharedMemory.Apply`). Throws and changes
   * nothing if any request fails.
   */
  apply(thisChainId: string, requests: ReadonlyMap<string, AtomicRequests> | Record<string, AtomicRequests>): void {
    checkChainId(thisChainId)
    const entries = requests instanceof Map ? [...requests.entries()] : Object.entries(requests)
    for (const [peer] of entries) {
      checkChainId(peer)
      if (peer === thisChainId) throw new InvalidArgumentError('same chainID')
    }
    // Every request checked before any is applied, so a refusal changes nothing without copying
    // the whole store (a block's apply stays O(its requests) however much waits in shared memory).
    for (const [peer, req] of entries) {
      const removing = new Set<Hex>()
      for (const key of req.removeRequests ?? []) {
        const k = bytesToHex(key)
        if (removing.has(k) || !this.#direction(peer, thisChainId, false)?.elements.has(k)) throw new SharedMemoryError(ERR_NOT_FOUND)
        removing.add(k)
      }
      const putting = new Set<Hex>()
      for (const elem of req.putRequests ?? []) {
        if (elem.key.length !== 32) throw new InvalidArgumentError(`expected a 32-byte atomic key but got ${elem.key.length} bytes`)
        const k = bytesToHex(elem.key)
        if (putting.has(k) || this.#direction(thisChainId, peer, false)?.elements.has(k))
          throw new SharedMemoryError(`duplicate put: Key=${k} Value=${bytesToHex(elem.value)}`)
        putting.add(k)
      }
    }
    for (const [peer, req] of entries) {
      for (const key of req.removeRequests ?? []) this.#remove(peer, thisChainId, key)
      for (const elem of req.putRequests ?? []) this.#put(thisChainId, peer, elem)
    }
  }

  /** Export: makes `elements` available to `destination`, coming from `source`. */
  put(source: string, destination: string, elements: readonly AtomicElement[]): void {
    this.apply(source, new Map([[destination, { putRequests: [...elements] }]]))
  }

  /** Import: `destination` consumes elements that `source` exported to it. */
  remove(source: string, destination: string, keys: readonly Uint8Array[]): void {
    this.apply(destination, new Map([[source, { removeRequests: [...keys] }]]))
  }

  /**
   * `SharedMemory.Get` as `destination` calls it with `peerChainID = source`: the values of
   * `keys`, in order. A key that is absent (never exported, or already imported) throws `not found`.
   */
  get(source: string, destination: string, keys: readonly Uint8Array[]): Uint8Array[] {
    const d = this.#direction(source, destination, false)
    return keys.map((key) => {
      const elem = d?.elements.get(bytesToHex(key))
      if (!elem) throw new SharedMemoryError(ERR_NOT_FOUND)
      return hexToBytes(elem.value)
    })
  }

  /** Whether `key` is currently exported from `source` to `destination` and not yet imported. */
  has(source: string, destination: string, key: Uint8Array): boolean {
    return this.#direction(source, destination, false)?.elements.has(bytesToHex(key)) ?? false
  }

  /**
   * `SharedMemory.Indexed`: up to `limit` values owned by any of `traits`, traits visited in
   * byte order, keys of a trait newest first, starting at (`startTrait`, `startKey`) inclusive (the
   * real linkeddb iterator includes its start key), de-duplicated within the call.
   */
  indexed(
    source: string,
    destination: string,
    traits: readonly Uint8Array[],
    startTrait: Uint8Array,
    startKey: Uint8Array,
    limit: number,
  ): IndexedResult {
    const d = this.#direction(source, destination, false)
    const sorted = [...traits].sort(compareBytes)
    const seen = new Set<Hex>()
    const keys: Hex[] = []
    let lastTrait = startTrait
    let lastKey = startKey
    let remaining = limit
    let start: Uint8Array | undefined = startKey
    for (const trait of sorted) {
      const cmp = compareBytes(trait, startTrait)
      if (cmp < 0) continue
      if (cmp > 0) start = undefined
      lastTrait = trait
      const list = d?.index.get(bytesToHex(trait))
      const ordered = list ? [...list.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k) : []
      const startHex = start && start.length > 0 ? bytesToHex(start) : undefined
      let i = startHex !== undefined ? ordered.indexOf(startHex) : 0
      if (i < 0) i = 0
      for (; i < ordered.length && remaining > 0; i++) {
        const key = ordered[i]!
        lastKey = hexToBytes(key)
        if (seen.has(key)) continue
        seen.add(key)
        keys.push(key)
        remaining--
      }
      if (remaining === 0) break
    }
    return {
      keys: keys.map((k) => hexToBytes(k)),
      values: keys.map((k) => hexToBytes(d!.elements.get(k)!.value)),
      lastTrait,
      lastKey,
    }
  }

  /** Every element waiting in source → destination, oldest first (for tests and debugging). */
  list(source: string, destination: string): AtomicElement[] {
    const d = this.#direction(source, destination, false)
    if (!d) return []
    return [...d.elements.entries()]
      .sort((a, b) => a[1].seq - b[1].seq)
      .map(([key, e]) => ({ key: hexToBytes(key), value: hexToBytes(e.value), traits: e.traits.map((t) => hexToBytes(t)) }))
  }

  #put(source: string, destination: string, elem: AtomicElement): void {
    if (elem.key.length !== 32)
      throw new InvalidArgumentError(`expected a 32-byte atomic key but got ${elem.key.length} bytes`)
    const d = this.#direction(source, destination, true)!
    const key = bytesToHex(elem.key)
    if (d.elements.has(key))
      throw new SharedMemoryError(`duplicate put: Key=${key} Value=${bytesToHex(elem.value)}`)
    const seq = ++this.#seq
    const traits = elem.traits.map((t) => bytesToHex(t))
    d.elements.set(key, { value: bytesToHex(elem.value), traits, seq })
    for (const trait of traits) {
      let list = d.index.get(trait)
      if (!list) d.index.set(trait, (list = new Map()))
      list.set(key, seq)
    }
  }

  #remove(source: string, destination: string, keyBytes: Uint8Array): void {
    const d = this.#direction(source, destination, false)
    const key = bytesToHex(keyBytes)
    const elem = d?.elements.get(key)
    if (!d || !elem) throw new SharedMemoryError(ERR_NOT_FOUND)
    d.elements.delete(key)
    for (const trait of elem.traits) {
      const list = d.index.get(trait)
      list?.delete(key)
      if (list && list.size === 0) d.index.delete(trait)
    }
  }

  snapshot(): SharedMemorySnapshot {
    const directions = [...this.#directions.entries()]
      .filter(([, d]) => d.elements.size > 0)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([k, d]) => {
        const [source, destination] = k.split('>') as [string, string]
        return {
          source,
          destination,
          elements: [...d.elements.entries()]
            .sort((a, b) => compareHex(a[0], b[0]))
            .map(([key, e]) => ({ key, value: e.value, traits: [...e.traits], seq: e.seq })),
        }
      })
    return { seq: this.#seq, directions }
  }

  restore(snapshot: SharedMemorySnapshot): void {
    this.#directions = new Map()
    this.#seq = snapshot.seq
    for (const dir of snapshot.directions) {
      const d = this.#direction(dir.source, dir.destination, true)!
      for (const e of dir.elements) {
        d.elements.set(e.key, { value: e.value, traits: [...e.traits], seq: e.seq })
        for (const trait of e.traits) {
          let list = d.index.get(trait)
          if (!list) d.index.set(trait, (list = new Map()))
          list.set(e.key, e.seq)
        }
      }
    }
  }

  /** Deterministic JSON of the whole store: equal stores give equal strings. */
  serialize(): string {
    return JSON.stringify(this.snapshot())
  }
}
