/**
 * A read-only base of trie nodes under a {@link TrieNodeMap}: a loaded snapshot file's nodes,
 * looked up in place rather than copied into the map (see `src/snapshot/frozenTrie.ts`).
 */
export interface TrieNodeSource {
  /** How many nodes it holds. */
  readonly size: number
  /** The node under `key` (the database's hex key), always the same object for the same key. */
  get(key: string): Uint8Array | string | undefined
  entries(): IterableIterator<[string, Uint8Array | string]>
}

/** Bytes per slab that small node values are copied into (see {@link TrieNodeMap.set}). */
const SLAB = 1 << 16
/** Values from this size up keep their own buffer. */
const SLAB_VALUE_LIMIT = 1024

/**
 * The map behind a chain's trie database (ethereumjs' `MapDB`): every account, storage and code
 * node of every version of the state, keyed by hex hash. It holds a long-running network's
 * history, most of its heap, so it stores each node compactly:
 *   - Keys are flattened. ethereumjs builds them by concatenation, and a Map keeps the rope it is
 *     given: about 900 bytes per key instead of about 120.
 *   - Values are bytes, copied into shared slabs. A storage trie stores hex strings (twice the
 *     bytes, also ropes), and a node with its own `ArrayBuffer` costs a buffer object and a
 *     separate allocation per node. Every reader (`CheckpointDB.get`) takes either form; nodes are
 *     content-addressed and never written to in place.
 *
 * It can also stand on a read-only {@link TrieNodeSource} (a loaded snapshot file), which answers
 * what the map itself does not hold; then `size` and iteration cover both.
 */
export class TrieNodeMap extends Map<string, string | Uint8Array> {
  #base: TrieNodeSource | undefined
  /** Base nodes deleted through the map (ethereumjs deletes only with pruning, which is off). */
  #deleted: Set<string> | undefined
  #slab = new Uint8Array(0)
  #slabAt = 0

  /** Puts `base` under the map; the map's own entries still answer first. */
  attachBase(base: TrieNodeSource): void {
    if (this.#base !== undefined) throw new Error('the trie database already has a base')
    this.#base = base
  }

  get base(): TrieNodeSource | undefined {
    return this.#base
  }

  override get(key: string): string | Uint8Array | undefined {
    const own = super.get(key)
    if (own !== undefined || this.#base === undefined) return own
    return this.#deleted?.has(key) ? undefined : this.#base.get(key)
  }

  override has(key: string): boolean {
    return super.has(key) || this.get(key) !== undefined
  }

  override set(key: string, value: string | Uint8Array): this {
    // `toLowerCase` of a lowercase string returns it flattened (the key is lowercase hex).
    const flat = key.toLowerCase()
    this.#deleted?.delete(flat)
    return super.set(flat, this.#compact(value))
  }

  override delete(key: string): boolean {
    const own = super.delete(key)
    if (this.#base?.get(key) === undefined || this.#deleted?.has(key)) return own
    ;(this.#deleted ??= new Set()).add(key.toLowerCase())
    return true
  }

  override clear(): void {
    super.clear()
    this.#base = undefined
    this.#deleted = undefined
  }

  override get size(): number {
    if (this.#base === undefined) return super.size
    let size = this.#base.size - (this.#deleted?.size ?? 0)
    for (const key of super.keys()) if (this.#base.get(key) === undefined) size++
    return size
  }

  override *entries(): MapIterator<[string, string | Uint8Array]> {
    const base = this.#base
    if (base !== undefined) {
      for (const entry of base.entries()) if (!this.#deleted?.has(entry[0]) && !super.has(entry[0])) yield entry
    }
    yield* super.entries()
  }

  override [Symbol.iterator](): MapIterator<[string, string | Uint8Array]> {
    return this.entries()
  }

  override *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key
  }

  override *values(): MapIterator<string | Uint8Array> {
    for (const [, value] of this.entries()) yield value
  }

  override forEach(callback: (value: string | Uint8Array, key: string, map: Map<string, string | Uint8Array>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this)
  }

  #compact(value: string | Uint8Array): string | Uint8Array {
    let bytes: Uint8Array
    if (typeof value === 'string') {
      // Hex from a storage trie; anything else is kept as it is.
      const decoded = Buffer.from(value, 'hex')
      if (decoded.length * 2 !== value.length) return value
      bytes = decoded
    } else bytes = value
    if (bytes.length >= SLAB_VALUE_LIMIT) return typeof value === 'string' ? new Uint8Array(bytes) : value
    if (this.#slabAt + bytes.length > this.#slab.length) {
      this.#slab = new Uint8Array(SLAB)
      this.#slabAt = 0
    }
    const copy = this.#slab.subarray(this.#slabAt, this.#slabAt + bytes.length)
    copy.set(bytes)
    this.#slabAt += bytes.length
    return copy
  }
}
