/**
 * A read-only base of trie nodes under a {@link TrieNodeMap}: a loaded snapshot file's nodes,
 * looked up in place rather than copied into the map (`FrozenTrie` in `src/snapshot/frozen.ts`).
 */
export interface TrieNodeSource {
  /** How many nodes it holds. */
  readonly size: number
  /** The node under `key` (the database's hex key), always the same object for the same key. */
  get(key: string): Uint8Array | string | undefined
  entries(): IterableIterator<[string, Uint8Array | string]>
}

/** Bytes per slab that node values are copied into. */
const SLAB = 1 << 18
/** Values from this size up keep their own buffer. */
const SLAB_VALUE_LIMIT = 4096

/**
 * Nodes under 32-byte keys (every trie node: its key is its hash) without an object per node:
 * the keys' words, the values' places and an open-addressing table are typed arrays, and the
 * values are bytes in shared slabs. A read hands out a new view of the value's bytes.
 */
class HashKeyedNodes {
  /** Entry `i`: key words `8i…8i+7`, value in slab `slab[i]` at `offset[i]`, `length[i]` bytes (-1: deleted). */
  #keys = new Int32Array(8 * 1024)
  #slab = new Int32Array(1024)
  #offset = new Int32Array(1024)
  #length = new Int32Array(1024)
  #table = new Int32Array(2048)
  #count = 0
  #deleted = 0
  readonly #slabs: Uint8Array[] = []
  /** The slab small values go into now, and how much of it is used. */
  #small = -1
  #smallAt = 0
  readonly #scratch = Buffer.allocUnsafe(32)

  get size(): number {
    return this.#count - this.#deleted
  }

  get(key: string): Uint8Array | undefined {
    const scratch = this.#scratch
    return scratch.write(key, 0, 32, 'hex') === 32 ? this.#value(this.#find(scratch, 0)) : undefined
  }

  /** The node under the 32 bytes at `bytes[at]`. */
  getHashed(bytes: Buffer, at: number): Uint8Array | undefined {
    return this.#value(this.#find(bytes, at))
  }

  /** See {@link TrieNodeMap.walker}. */
  walker(): (bytes: Buffer, at: number) => Uint8Array | null | undefined {
    // Nodes added during the walk are past its end: new content, which the walk's roots cannot reach.
    const met = new Uint8Array(this.#count)
    return (bytes, at) => {
      const entry = this.#find(bytes, at)
      if (entry < 0 || this.#length[entry]! < 0) return undefined
      if (met[entry] === 1) return null
      met[entry] = 1
      return this.#value(entry)
    }
  }

  #value(entry: number): Uint8Array | undefined {
    if (entry < 0) return undefined
    const length = this.#length[entry]!
    if (length < 0) return undefined
    const slab = this.#slabs[this.#slab[entry]!]!
    return new Uint8Array(slab.buffer, slab.byteOffset + this.#offset[entry]!, length)
  }

  /** Sets `key` (64 hex characters, checked by the caller) to a copy of `value`. */
  set(key: string, value: Uint8Array): void {
    this.#scratch.write(key, 0, 32, 'hex')
    this.#setScratch(value)
  }

  /** Sets the 32-byte key `hash` to a copy of `value`: {@link set} without a hex key. */
  setHashed(hash: Uint8Array, value: Uint8Array): void {
    this.#scratch.set(hash)
    this.#setScratch(value)
  }

  /** Sets the key in the scratch buffer to a copy of `value`. */
  #setScratch(value: Uint8Array): void {
    let entry = this.#find(this.#scratch, 0)
    if (entry >= 0) {
      // The same node again (its key is its hash): nothing to store unless it was deleted.
      if (this.#length[entry]! >= 0) return
      this.#deleted--
    } else {
      if ((this.#count + 1) * 2 > this.#table.length) this.#grow()
      entry = this.#count++
      const words = this.#keys
      for (let k = 0; k < 8; k++) words[entry * 8 + k] = this.#scratch.readInt32LE(4 * k)
      let slot = words[entry * 8]! & (this.#table.length - 1)
      while (this.#table[slot] !== 0) slot = (slot + 1) & (this.#table.length - 1)
      this.#table[slot] = entry + 1
    }
    this.#store(entry, value)
  }

  delete(key: string): boolean {
    if (this.#scratch.write(key, 0, 32, 'hex') !== 32) return false
    const entry = this.#find(this.#scratch, 0)
    if (entry < 0 || this.#length[entry]! < 0) return false
    this.#length[entry] = -1
    this.#deleted++
    return true
  }

  *entries(): Generator<[string, Uint8Array]> {
    const key = Buffer.allocUnsafe(32)
    for (let entry = 0; entry < this.#count; entry++) {
      const length = this.#length[entry]!
      if (length < 0) continue
      for (let k = 0; k < 8; k++) key.writeInt32LE(this.#keys[entry * 8 + k]!, 4 * k)
      const slab = this.#slabs[this.#slab[entry]!]!
      yield [key.toString('hex'), new Uint8Array(slab.buffer, slab.byteOffset + this.#offset[entry]!, length)]
    }
  }

  /** The entry under the 32 bytes at `bytes[at]`, or -1. */
  #find(bytes: Buffer, at: number): number {
    const w0 = bytes.readInt32LE(at)
    const words = this.#keys
    const mask = this.#table.length - 1
    for (let slot = w0 & mask; ; slot = (slot + 1) & mask) {
      const stored = this.#table[slot]!
      if (stored === 0) return -1
      const base = (stored - 1) * 8
      if (words[base] !== w0) continue
      let same = true
      for (let k = 1; k < 8 && same; k++) same = words[base + k] === bytes.readInt32LE(at + 4 * k)
      if (same) return stored - 1
    }
  }

  #store(entry: number, value: Uint8Array): void {
    if (value.length >= SLAB_VALUE_LIMIT) {
      this.#slabs.push(value.slice())
      this.#slab[entry] = this.#slabs.length - 1
      this.#offset[entry] = 0
    } else {
      if (this.#small < 0 || this.#smallAt + value.length > SLAB) {
        this.#slabs.push(new Uint8Array(SLAB))
        this.#small = this.#slabs.length - 1
        this.#smallAt = 0
      }
      this.#slabs[this.#small]!.set(value, this.#smallAt)
      this.#slab[entry] = this.#small
      this.#offset[entry] = this.#smallAt
      this.#smallAt += value.length
    }
    this.#length[entry] = value.length
  }

  #grow(): void {
    const capacity = this.#slab.length * 2
    const grow = (from: Int32Array, size: number) => {
      const to = new Int32Array(size)
      to.set(from)
      return to
    }
    this.#keys = grow(this.#keys, capacity * 8)
    this.#slab = grow(this.#slab, capacity)
    this.#offset = grow(this.#offset, capacity)
    this.#length = grow(this.#length, capacity)
    const table = new Int32Array(this.#table.length * 2)
    const mask = table.length - 1
    for (let entry = 0; entry < this.#count; entry++) {
      let slot = this.#keys[entry * 8]! & mask
      while (table[slot] !== 0) slot = (slot + 1) & mask
      table[slot] = entry + 1
    }
    this.#table = table
  }
}

const HASH_KEY = /^[0-9a-f]{64}$/

/**
 * The map behind a chain's trie database (ethereumjs' `MapDB`): every account, storage and code
 * node of every version of the state, keyed by hex hash. It holds a long-running network's
 * history, most of its heap, so it stores nodes without an object per node: nodes under 32-byte
 * keys (all but code) in {@link HashKeyedNodes}, typed arrays and slabs of bytes. A Map of a
 * million nodes, with ethereumjs' keys (ropes, ~900 bytes each) and values (a buffer object each;
 * hex strings, twice the bytes, for storage tries), was most of a 10,000-block network's 1.3 GB
 * heap and of the time of every full garbage collection. Every reader (`CheckpointDB.get`) takes
 * the byte values this returns for either form; nodes are content-addressed, never changed in
 * place. Other keys (code, under `c` + hash) stay in the Map itself.
 *
 * It can also stand on a read-only {@link TrieNodeSource} (a loaded snapshot file), which answers
 * what the map itself does not hold; then `size` and iteration cover both.
 */
export class TrieNodeMap extends Map<string, string | Uint8Array> {
  #nodes = new HashKeyedNodes()
  #base: TrieNodeSource | undefined
  /** Base nodes deleted through the map (ethereumjs deletes only with pruning, which is off). */
  #deleted: Set<string> | undefined

  /** Puts `base` under the map; the map's own entries still answer first. */
  attachBase(base: TrieNodeSource): void {
    if (this.#base !== undefined) throw new Error('the trie database already has a base')
    this.#base = base
  }

  get base(): TrieNodeSource | undefined {
    return this.#base
  }

  override get(key: string): string | Uint8Array | undefined {
    const own = this.#ownGet(key)
    if (own !== undefined || this.#base === undefined) return own
    return this.#deleted?.has(key) ? undefined : this.#base.get(key)
  }

  override has(key: string): boolean {
    return this.get(key) !== undefined
  }

  /**
   * For a walk over the trie (the snapshot's): a function that answers a 32-byte key with its node
   * the first time, with null every time after, and with undefined for a key the map's own
   * hash-keyed nodes do not hold (ask {@link getHashed}, which also reads the base). It marks
   * nodes in one byte per node rather than in a set of their keys.
   */
  walker(): (bytes: Buffer, at: number) => Uint8Array | null | undefined {
    return this.#nodes.walker()
  }

  /** The node under the 32-byte key at `bytes[at]`: {@link get} without a hex key. */
  getHashed(bytes: Buffer, at: number): string | Uint8Array | undefined {
    const own = this.#nodes.getHashed(bytes, at)
    if (own !== undefined || (this.#base === undefined && super.size === 0)) return own
    return this.get(bytes.toString('hex', at, at + 32))
  }

  /**
   * Puts a trie node under its 32-byte hash (the state trie's writes): {@link set} without the
   * hex key ethereumjs' database builds and this map parses back.
   */
  setHashed(hash: Uint8Array, value: Uint8Array): void {
    if (this.#deleted !== undefined && this.#deleted.size > 0) this.#deleted.delete(Buffer.from(hash.buffer, hash.byteOffset, 32).toString('hex'))
    this.#nodes.setHashed(hash, value)
  }

  override set(key: string, value: string | Uint8Array): this {
    // `toLowerCase` of a lowercase string returns it flattened: ethereumjs builds keys by
    // concatenation, and a rope kept as a Map key costs ~900 bytes.
    const flat = key.toLowerCase()
    this.#deleted?.delete(flat)
    const bytes = typeof value === 'string' ? hexBytes(value) : value
    if (bytes !== undefined && HASH_KEY.test(flat)) {
      this.#nodes.set(flat, bytes)
      return this
    }
    return super.set(flat, bytes ?? value)
  }

  override delete(key: string): boolean {
    const own = (key.length === 64 && this.#nodes.delete(key)) || super.delete(key)
    if (this.#base?.get(key) === undefined || this.#deleted?.has(key)) return own
    ;(this.#deleted ??= new Set()).add(key.toLowerCase())
    return true
  }

  override clear(): void {
    super.clear()
    this.#nodes = new HashKeyedNodes()
    this.#base = undefined
    this.#deleted = undefined
  }

  override get size(): number {
    const own = this.#nodes.size + super.size
    if (this.#base === undefined) return own
    let size = this.#base.size - (this.#deleted?.size ?? 0)
    for (const [key] of this.#ownEntries()) if (this.#base.get(key) === undefined) size++
    return size
  }

  override *entries(): MapIterator<[string, string | Uint8Array]> {
    const base = this.#base
    if (base !== undefined) {
      for (const entry of base.entries()) if (!this.#deleted?.has(entry[0]) && this.#ownGet(entry[0]) === undefined) yield entry
    }
    yield* this.#ownEntries()
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

  #ownGet(key: string): string | Uint8Array | undefined {
    return (key.length === 64 ? this.#nodes.get(key) : undefined) ?? super.get(key)
  }

  *#ownEntries(): Generator<[string, string | Uint8Array]> {
    yield* this.#nodes.entries()
    yield* super.entries()
  }
}

/** The bytes of an even-length hex string (a storage trie's node), or undefined for other text. */
function hexBytes(value: string): Uint8Array | undefined {
  const decoded = Buffer.from(value, 'hex')
  return decoded.length * 2 === value.length ? new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length) : undefined
}
