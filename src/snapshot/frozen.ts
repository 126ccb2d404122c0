import type { Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import type { BlockSource } from '../evm/store.js'
import type { TrieNodeSource } from '../evm/trieNodes.js'
import type { StoredBlock } from '../evm/types.js'
import { BLOCK_BATCH, blockBatches, blockFromRecord, readBlockBatch, rememberEncoding, TEXT_STRING_FLAG, TRIE_LENGTH_MASK, type BlockRecord } from './codec.js'

/**
 * A loaded snapshot's chain history, left in the file's buffer: the trie nodes and the blocks are
 * found through open-addressing tables of their positions (typed arrays, no object per entry)
 * and built only when read. Loading a network with 10,000 blocks and 150,000 trie nodes this
 * way allocates a few arrays instead of a few million objects, which is most of a load's time
 * (their garbage collection).
 */

/** An open-addressing table of entry numbers, keyed by a 32-bit hash of each entry's key. */
class EntryTable {
  readonly #slots: Int32Array
  readonly #mask: number

  constructor(count: number, hashOf: (entry: number) => number) {
    let size = 8
    while (size < count * 2) size *= 2
    this.#slots = new Int32Array(size)
    this.#mask = size - 1
    for (let entry = 0; entry < count; entry++) {
      let slot = hashOf(entry) & this.#mask
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask
      this.#slots[slot] = entry + 1
    }
  }

  /** The first entry with `hash` that `matches`, or -1. */
  find(hash: number, matches: (entry: number) => boolean): number {
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const stored = this.#slots[slot]!
      if (stored === 0) return -1
      if (matches(stored - 1)) return stored - 1
    }
  }
}

/** The key's bytes for a lookup, or undefined when it is not even-length hex. */
function keyBytes(key: string): Buffer | undefined {
  const bytes = Buffer.from(key, 'hex')
  return bytes.length * 2 === key.length ? bytes : undefined
}

/** The last four bytes of a key (a hash: uniformly spread), or what it has. */
function hashKey(buffer: Buffer, start: number, length: number): number {
  if (length >= 4) return buffer.readUInt32BE(start + length - 4)
  let hash = length
  for (let i = 0; i < length; i++) hash = (hash << 8) | buffer[start + i]!
  return hash >>> 0
}

/**
 * A trie section (see `writeTrie`) as the base of a chain's trie database: node `i` is found by
 * its key's hash and handed out as one view of the file per node, made on its first read (the
 * snapshot walk dedupes nodes by identity).
 */
export class FrozenTrie implements TrieNodeSource {
  readonly size: number
  readonly #section: Buffer
  readonly #offsets: Uint32Array
  readonly #table: EntryTable
  readonly #values: (Uint8Array | string | undefined)[]

  constructor(section: Buffer) {
    if (section.length < 4) throw new RangeError('the trie section is cut short')
    const end = section.length - 4
    const count = section.readUInt32BE(end)
    if (count > end / 6) throw new RangeError(`the trie section cannot hold the ${count} nodes it counts`)
    const offsets = new Uint32Array(count)
    let at = 0
    let n = 0
    while (at < end) {
      if (at + 6 > end || n === count) throw new RangeError(n === count ? `the trie section has more than the ${count} nodes it counts` : 'a trie node runs past its section')
      const keyLength = section.readUInt16BE(at)
      const length = section.readUInt32BE(at + 2) & TRIE_LENGTH_MASK
      if (at + 6 + keyLength + length > end) throw new RangeError('a trie node runs past its section')
      offsets[n++] = at
      at += 6 + keyLength + length
    }
    if (n !== count) throw new RangeError(`the trie section has ${n} nodes, ${count} written`)
    this.size = count
    this.#section = section
    this.#offsets = offsets
    this.#table = new EntryTable(count, (i) => hashKey(section, offsets[i]! + 6, section.readUInt16BE(offsets[i]!)))
    this.#values = new Array(count)
  }

  get(key: string): Uint8Array | string | undefined {
    const bytes = keyBytes(key)
    if (bytes === undefined) return undefined
    const section = this.#section
    const i = this.#table.find(hashKey(bytes, 0, bytes.length), (i) => {
      const at = this.#offsets[i]!
      return section.readUInt16BE(at) === bytes.length && bytes.compare(section, at + 6, at + 6 + bytes.length) === 0
    })
    return i < 0 ? undefined : this.#value(i)
  }

  *entries(): IterableIterator<[string, Uint8Array | string]> {
    for (let i = 0; i < this.size; i++) {
      const at = this.#offsets[i]!
      yield [this.#section.toString('hex', at + 6, at + 6 + this.#section.readUInt16BE(at)), this.#value(i)]
    }
  }

  #value(i: number): Uint8Array | string {
    const known = this.#values[i]
    if (known !== undefined) return known
    const section = this.#section
    const at = this.#offsets[i]!
    const word = section.readUInt32BE(at + 2)
    const start = at + 6 + section.readUInt16BE(at)
    const length = word & TRIE_LENGTH_MASK
    // A hex string value comes back as its bytes, which every reader of the database takes.
    const value = word & TEXT_STRING_FLAG ? section.toString('utf8', start, start + length) : new Uint8Array(section.buffer, section.byteOffset + start, length)
    return (this.#values[i] = value)
  }
}

/**
 * A chain's blocks from a snapshot of format version 3: its block index section (see
 * `writeBlockIndex`) answers lookups by block and transaction hash; a block's record is decoded
 * with its batch (see `writeBlocks`) when the block is first read.
 */
export class FrozenBlocks implements BlockSource {
  readonly count: number
  #chain: EvmChain | undefined
  readonly #index: Buffer
  /** Where block `n`'s hash is in the index: `(n - 1) * 32 + 4`. */
  readonly #firstTx: Uint32Array
  /** Where the transaction hashes start in the index. */
  readonly #txHashes: number
  readonly #blocksTable: EntryTable
  readonly #txTable: EntryTable
  /** The section's batches of records. */
  readonly #batches: Buffer[]
  #decoded: { batch: number; records: BlockRecord[]; bytes: Uint8Array[] } | undefined

  constructor(index: Buffer, records: Buffer) {
    if (index.length < 4) throw new RangeError('the block index is cut short')
    const count = index.readUInt32BE(0)
    const firstTxAt = 4 + count * 32
    if (firstTxAt + (count + 1) * 4 > index.length) throw new RangeError(`the block index cannot hold the ${count} blocks it counts`)
    const firstTx = new Uint32Array(count + 1)
    for (let i = 0; i <= count; i++) {
      firstTx[i] = index.readUInt32BE(firstTxAt + i * 4)
      if (i > 0 && firstTx[i]! < firstTx[i - 1]!) throw new RangeError('the block index is out of order')
    }
    const txHashes = firstTxAt + (count + 1) * 4
    const txCount = firstTx[count]!
    if (firstTx[0] !== 0 || txHashes + txCount * 32 !== index.length) throw new RangeError(`the block index does not hold the ${txCount} transactions it counts`)
    this.#batches = blockBatches(records)
    if (this.#batches.length !== Math.ceil(count / BLOCK_BATCH)) throw new RangeError(`${this.#batches.length} block batches for ${count} blocks`)
    this.count = count
    this.#index = index
    this.#firstTx = firstTx
    this.#txHashes = txHashes
    this.#blocksTable = new EntryTable(count, (i) => index.readUInt32BE(4 + i * 32))
    this.#txTable = new EntryTable(txCount, (i) => index.readUInt32BE(txHashes + i * 32))
  }

  /** The chain the blocks are built for (the recreated one, which the file could not name). */
  bind(chain: EvmChain): this {
    this.#chain = chain
    return this
  }

  block(number: number): StoredBlock {
    const chain = this.#chain
    if (chain === undefined) throw new Error('the saved blocks are not bound to a chain')
    const batch = Math.floor((number - 1) / BLOCK_BATCH)
    if (this.#decoded?.batch !== batch) {
      const decoded = readBlockBatch(this.#batches[batch]!)
      const expected = Math.min(BLOCK_BATCH, this.count - batch * BLOCK_BATCH)
      if (decoded.records.length !== expected) throw new Error(`chain ${chain.alias}: block batch ${batch} does not hold ${expected} blocks`)
      this.#decoded = { batch, ...decoded }
    }
    const record = this.#decoded.records[(number - 1) % BLOCK_BATCH]!
    const hash = `0x${this.#index.toString('hex', 4 + (number - 1) * 32, 4 + number * 32)}`
    if (record.hash !== hash) throw new Error(`chain ${chain.alias}: block ${number} is saved as ${record.hash}, indexed as ${hash}`)
    const stored = blockFromRecord(chain, record, BigInt(number), false)
    rememberEncoding(stored, this.#decoded.bytes[(number - 1) % BLOCK_BATCH]!)
    return stored
  }

  numberOf(hash: Hex): number | undefined {
    const bytes = keyBytes(hash.slice(2))
    if (bytes?.length !== 32) return undefined
    const index = this.#index
    const i = this.#blocksTable.find(bytes.readUInt32BE(0), (i) => bytes.compare(index, 4 + i * 32, 4 + (i + 1) * 32) === 0)
    return i < 0 ? undefined : i + 1
  }

  txLocation(hash: Hex): [number, number] | undefined {
    const bytes = keyBytes(hash.slice(2))
    if (bytes?.length !== 32) return undefined
    const index = this.#index
    const start = this.#txHashes
    const tx = this.#txTable.find(bytes.readUInt32BE(0), (i) => bytes.compare(index, start + i * 32, start + (i + 1) * 32) === 0)
    if (tx < 0) return undefined
    // The block whose transactions include ordinal `tx`: the last one starting at or before it.
    let low = 0
    let high = this.count - 1
    while (low < high) {
      const mid = (low + high + 1) >>> 1
      if (this.#firstTx[mid]! <= tx) low = mid
      else high = mid - 1
    }
    return [low + 1, tx - this.#firstTx[low]!]
  }
}
