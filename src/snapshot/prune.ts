/** keccak256 of the empty RLP string: the root of an empty trie (an account without storage). */
const EMPTY_ROOT = Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex')
/** keccak256 of nothing: the code hash of an account without code. */
const EMPTY_CODE = Buffer.from('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470', 'hex')
/** ethereumjs keeps code under `c` + its hash in the trie's database. */
const CODE_PREFIX = '63'

/** A trie database; one that can look a node up by its key's bytes is asked that way. */
type Db = ReadonlyMap<string, string | Uint8Array> & {
  getHashed?(bytes: Buffer, at: number): string | Uint8Array | undefined
  /** See `TrieNodeMap.walker`. */
  walker?(): (bytes: Buffer, at: number) => Uint8Array | null | undefined
}

/**
 * A set of 32-byte hashes in two typed arrays (an open-addressing table of positions into an
 * array of the hashes' words): asking it about a node reference costs no string and no object, where
 * the database's own lookup costs a hex key and a probe of a map of every node ever written.
 */
export class HashSet32 {
  /** Entry `i` (from 1) is words `8(i-1)…8i-1`: its bytes read as little-endian 32-bit words. */
  #words = new Int32Array(8 * 1024)
  #table = new Int32Array(2048)
  #count = 0

  get size(): number {
    return this.#count
  }

  /** Adds the 32 bytes at `bytes[at]`; false when they were already in. */
  add(bytes: Buffer, at: number): boolean {
    if ((this.#count + 1) * 2 > this.#table.length) this.#grow()
    const mask = this.#table.length - 1
    const words = this.#words
    const w0 = bytes.readInt32LE(at)
    for (let slot = w0 & mask; ; slot = (slot + 1) & mask) {
      const stored = this.#table[slot]!
      if (stored === 0) {
        const base = this.#count * 8
        words[base] = w0
        for (let k = 1; k < 8; k++) words[base + k] = bytes.readInt32LE(at + 4 * k)
        this.#table[slot] = ++this.#count
        return true
      }
      const base = (stored - 1) * 8
      if (words[base] !== w0) continue
      let same = true
      for (let k = 1; k < 8 && same; k++) same = words[base + k] === bytes.readInt32LE(at + 4 * k)
      if (same) return false
    }
  }

  #grow(): void {
    const words = new Int32Array(this.#words.length * 2)
    words.set(this.#words.subarray(0, this.#count * 8))
    this.#words = words
    const table = new Int32Array(this.#table.length * 2)
    const mask = table.length - 1
    for (let entry = 1; entry <= this.#count; entry++) {
      let slot = words[(entry - 1) * 8]! & mask
      while (table[slot] !== 0) slot = (slot + 1) & mask
      table[slot] = entry
    }
    this.#table = table
  }
}

/**
 * The part of a trie database that the given state roots reach: their account tries, the storage
 * tries and code of their accounts, each node yielded once with its key (a hash's bytes, or for
 * code the database's hex key).
 * Nodes are shared between versions of the state, so each is visited once however many roots
 * reach it. A root the database does not hold adds nothing.
 *
 * The walk runs in the network's own heap, where whatever outlives a young-generation collection
 * adds to the next full collection of all of it. So nodes are read in place (RLP items located by
 * offset in one reused buffer, never decoded into arrays), yielded as they are found (for the
 * caller to write out) rather than collected, and remembered by their hashes' bytes in a
 * {@link HashSet32} (no string or object per node), so a reference already followed costs no
 * database lookup.
 */
export function* reachableNodes(db: Db, roots: Iterable<string>): Generator<[string | Uint8Array, string | Uint8Array]> {
  // Node references already followed that the database's walker does not mark (not held, or held
  // by a loaded file under it), and code hashes.
  const seen = new HashSet32()
  const seenCode = new HashSet32()
  // Found but not yet read for children: their values, and whether they are in an account trie.
  const pending: (string | Uint8Array)[] = []
  const pendingAccounts: boolean[] = []
  const found: [string | Uint8Array, string | Uint8Array][] = []
  // The reference at `b[at]` (32 bytes): looked up in the database the first time it is seen.
  const walk = db.walker?.()
  const visit = (b: Buffer, at: number, accounts: boolean) => {
    let value: string | Uint8Array | null | undefined = walk?.(b, at)
    if (value === null) return
    if (value === undefined) {
      if (!seen.add(b, at)) return
      value = db.getHashed ? db.getHashed(b, at) : db.get(b.toString('hex', at, at + 32))
      if (value === undefined) return
    }
    pending.push(value)
    pendingAccounts.push(accounts)
    found.push([new Uint8Array(b.subarray(at, at + 32)), value])
  }
  let scratch = Buffer.allocUnsafe(4096)
  // The item at `at`: its payload's start and length, whether it is a list, and where it ends.
  let start = 0
  let length = 0
  let list = false
  let end = 0
  const item = (b: Buffer, at: number): number => {
    const p = b[at]!
    if (p < 0x80) {
      start = at
      length = 1
      list = false
    } else if (p <= 0xb7) {
      start = at + 1
      length = p - 0x80
      list = false
    } else if (p <= 0xbf) {
      start = at + 1 + (p - 0xb7)
      length = b.readUIntBE(at + 1, p - 0xb7)
      list = false
    } else if (p <= 0xf7) {
      start = at + 1
      length = p - 0xc0
      list = true
    } else {
      start = at + 1 + (p - 0xf7)
      length = b.readUIntBE(at + 1, p - 0xf7)
      list = true
    }
    if (at >= end || start + length > end) throw new RangeError('a trie node is cut short')
    return start + length
  }
  const account = (b: Buffer, at: number) => {
    item(b, at)
    let i = start
    const last = start + length
    for (let field = 0; field < 4 && i < last; field++) {
      i = item(b, i)
      if (length !== 32) continue
      if (field === 2) {
        if (EMPTY_ROOT.compare(b, start, start + 32) !== 0) visit(b, start, false)
      } else if (field === 3 && EMPTY_CODE.compare(b, start, start + 32) !== 0 && seenCode.add(b, start)) {
        const key = CODE_PREFIX + b.toString('hex', start, start + 32)
        const value = db.get(key)
        if (value !== undefined) found.push([key, value])
      }
    }
  }
  const child = (b: Buffer, accounts: boolean) => {
    if (list) node(b, start, start + length, accounts)
    else if (length === 32) visit(b, start, accounts)
  }
  const node = (b: Buffer, from: number, last: number, accounts: boolean) => {
    let count = 0
    for (let i = from; i < last; count++) i = item(b, i)
    let i = from
    if (count === 17) {
      for (let n = 0; n < 16; n++) {
        i = item(b, i)
        const next = i
        child(b, accounts)
        i = next
      }
      item(b, i)
      if (accounts && !list && length > 0) account(b, start)
    } else if (count === 2) {
      i = item(b, i)
      const isLeaf = length > 0 && b[start]! >> 4 >= 2
      item(b, i)
      if (!isLeaf) child(b, accounts)
      else if (accounts && !list) account(b, start)
    }
  }
  for (const root of roots) {
    const bytes = Buffer.from(root, 'hex')
    if (bytes.length === 32 && !bytes.equals(EMPTY_ROOT)) visit(bytes, 0, true)
  }
  while (pending.length > 0) {
    for (const entry of found) yield entry
    found.length = 0
    const value = pending.pop()!
    const accounts = pendingAccounts.pop()!
    let b: Buffer
    if (typeof value === 'string') {
      if (scratch.length < value.length >>> 1) scratch = Buffer.allocUnsafe(value.length)
      end = scratch.write(value, 0, 'hex')
      b = scratch
    } else {
      b = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
      end = b.length
    }
    item(b, 0)
    if (list) node(b, start, start + length, accounts)
  }
  for (const entry of found) yield entry
}
