import { Block, createBlockHeaderFromBytesArray, type BlockOptions } from '@ethereumjs/block'
import { createTx, createTxFromRLP, TransactionType, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { deserialize } from 'node:v8'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import type { MinedTx, Receipt, StoredBlock } from '../evm/types.js'
import { createUnsignedTx } from '../evm/unsignedTx.js'
import type { PayloadWriter } from './format.js'
import { BIGINT_FIELDS, ByteReader, ByteWriter, decodeBlock, encodeBlock } from './blockCodec.js'

/**
 * Blocks and trie nodes, encoded for speed: a network with 10,000 blocks and 100,000 accounts
 * holds a million trie nodes and a hundred thousand transactions, and ethereumjs' own RLP
 * encoding and decoding of them would take many seconds. Blocks are written in binary straight
 * from the chain's objects (blockCodec.ts; format version 2 wrote `v8.serialize`d records) and
 * come back as {@link BlockRecord}s, lazily: a loaded block builds its ethereumjs objects the
 * first time something reads `block`, a transaction's `tx` or its `receipt`. Blocks and trie
 * nodes are written as they are read, into the file writer's buffer (see format.ts).
 */

/** A transaction's fields: `[type, …BIGINT_FIELDS, to, data, accessList, authorizationList]` (hex without 0x), or its RLP for other types. */
export type TxRecord = [number, ...unknown[]] | Uint8Array

/**
 * A mined transaction and its receipt as one array (no repeated keys; a log's positions are
 * recomputed): `[tx, hash, from, unsigned, innerCalls (-1: not counted), status, gasUsed,
 * cumulativeGasUsed, effectiveGasPrice, logs as [address, topics, data], bloom hex ('' when
 * empty), contractAddress, error, returnValue hex]`.
 */
export type MinedTxRecord = [
  TxRecord, Hex, Hex, boolean, number, 0 | 1, bigint, bigint, bigint, [Hex, Hex[], Hex][], string, Hex | null, string | undefined, string,
]

/** A block as saved: header values as bytes, transactions as {@link TxRecord}s, receipts with hex bytes. */
export type BlockRecord = {
  /** The header's RLP values, concatenated, and their lengths. */
  header: Uint8Array
  headerLengths: number[]
  /** The state root after the block, hex without 0x (which states a file keeps is decided by it). */
  stateRoot: string
  withdrawals: boolean
  hash: Hex
  txs: MinedTxRecord[]
  preStateRoot?: string
  extras?: Record<string, bigint>
}


const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
const bytes = (text: string): Uint8Array => {
  const b = Buffer.from(text, 'hex')
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
}

/** The records loaded blocks came from (their state roots are read without building the block). */
const records = new WeakMap<StoredBlock, BlockRecord>()

/** The bytes loaded blocks were read from (format version 3): saving a loaded block copies them. */
const encodings = new WeakMap<StoredBlock, Uint8Array>()

/** Remembers the bytes `stored` was decoded from. */
export function rememberEncoding(stored: StoredBlock, bytes: Uint8Array): void {
  encodings.set(stored, bytes)
}

/** A field record's transaction data, as the transaction constructors take it. */
function txDataFromRecord([type, ...rest]: [number, ...unknown[]]): TypedTxData {
  const data: Record<string, unknown> = { type }
  BIGINT_FIELDS.forEach((f, i) => {
    if (rest[i] !== undefined) data[f] = rest[i]
  })
  const [to, input, accessList, authorizationList] = rest.slice(BIGINT_FIELDS.length) as [string | undefined, string, unknown, unknown]
  if (to !== undefined) data.to = `0x${to}`
  data.data = `0x${input}`
  if (accessList !== undefined) data.accessList = accessList
  else if (type === TransactionType.AccessListEIP2930 || type === TransactionType.FeeMarketEIP1559 || type === TransactionType.EOACodeEIP7702) data.accessList = []
  if (authorizationList !== undefined) data.authorizationList = authorizationList
  return data as TypedTxData
}

/** A saved transaction; an impersonated sender's is made unsigned straight from its fields (one construction, not two). */
function txFromRecord(chain: EvmChain, record: TxRecord, from: Hex, unsigned: boolean, opts: { common: BlockOptions['common'] }): TypedTransaction {
  if (record instanceof Uint8Array) {
    const tx = createTxFromRLP(record, opts)
    return unsigned ? unsignedCopy(chain, tx, from) : tx
  }
  const data = txDataFromRecord(record)
  return unsigned ? createUnsignedTx(chain.common, data, from) : createTx(data, opts)
}

/**
 * A stored block from its record, whose ethereumjs block (and transactions) are built on first
 * read. `eager` builds it now and checks its hash (the head, which the chain reads at once).
 */
export function blockFromRecord(chain: EvmChain, record: BlockRecord, number: bigint, eager: boolean): StoredBlock {
  let block: Block | undefined
  const materialize = (): Block => (block ??= buildBlock(chain, record))
  const blockHash = record.hash
  let logIndex = 0
  const txs: MinedTx[] = record.txs.map((t, index) => {
    const [, hash, from, , innerCalls, status, gasUsed, cumulativeGasUsed, effectiveGasPrice, logs, bloom, contractAddress, error, returnValue] = t
    const firstLog = logIndex
    logIndex += logs.length
    // Built on first read too: a hundred thousand receipts with their blooms, made at once, would
    // be most of a load's garbage collection.
    let receipt: Receipt | undefined
    const readReceipt = (): Receipt =>
      (receipt ??= {
        status,
        gasUsed,
        cumulativeGasUsed,
        effectiveGasPrice,
        logs: logs.map(([address, topics, data], i) => ({ address, topics, data, logIndex: firstLog + i, transactionIndex: index, transactionHash: hash, blockHash, blockNumber: number })),
        logsBloom: bloom === '' ? new Uint8Array(256) : bytes(bloom),
        contractAddress,
        error,
        returnValue: bytes(returnValue),
      })
    // Getters in the literal: `Object.defineProperty` on each of a hundred thousand objects would
    // turn every one into a slow dictionary-mode object.
    return innerCalls >= 0
      ? { hash, from, index, blockNumber: number, blockHash, get receipt() { return readReceipt() }, innerCalls, get tx() { return materialize().transactions[index]! } }
      : { hash, from, index, blockNumber: number, blockHash, get receipt() { return readReceipt() }, get tx() { return materialize().transactions[index]! } }
  })
  const stored = {
    hash: record.hash,
    number,
    txs,
    ...(record.preStateRoot !== undefined ? { preStateRoot: bytes(record.preStateRoot) } : {}),
    ...(record.extras ? { extras: record.extras } : {}),
    get block() {
      return materialize()
    },
  } as StoredBlock
  records.set(stored, record)
  if (eager) {
    const built = materialize()
    const hash = `0x${hex(built.hash())}`
    if (hash !== record.hash || built.header.number !== number) throw new Error(`chain ${chain.alias}: block ${number} decodes to ${hash}, saved as ${record.hash}`)
  }
  return stored
}

function buildBlock(chain: EvmChain, record: BlockRecord): Block {
  const opts: BlockOptions = { common: chain.common, setHardfork: true, skipConsensusFormatValidation: true }
  const values: Uint8Array[] = []
  let at = 0
  for (const n of record.headerLengths) {
    values.push(record.header.subarray(at, at + n))
    at += n
  }
  const header = createBlockHeaderFromBytesArray(values, opts)
  const txs = record.txs.map(([txRecord, , from, unsigned]) => txFromRecord(chain, txRecord, from, unsigned, { common: header.common }))
  return new Block(header, txs, [], record.withdrawals ? [] : undefined, opts)
}

/** An impersonated sender's transaction as the chain made it: the stand-in signature, `from` as its sender. */
export function unsignedCopy(chain: EvmChain, tx: TypedTransaction, from: Hex): TypedTransaction {
  const { v: _v, r: _r, s: _s, yParity: _y, hash: _h, ...data } = tx.toJSON() as Record<string, unknown>
  return createUnsignedTx(chain.common, { ...data, type: tx.type } as TypedTxData, from)
}

/** The state root after a stored block, hex without 0x, without building a loaded block. */
export function blockStateRoot(stored: StoredBlock): string {
  return records.get(stored)?.stateRoot ?? hex(stored.block.header.stateRoot)
}

/** Blocks per `v8.serialize` call: small enough that each batch dies young, large enough to be cheap. */
export const BLOCK_BATCH = 64

/**
 * A chain's block index, a section of format version 3, written before its blocks: what a loaded
 * chain answers lookups by hash from without building its blocks (see `FrozenBlocks`):
 *
 *   u32 count                      blocks 1…count
 *   count × 32 bytes               their hashes
 *   (count + 1) × u32              the ordinal of each block's first transaction, then the total
 *   total × 32 bytes               the transactions' hashes, in chain order
 */
export async function writeBlockIndex(out: PayloadWriter, blocks: readonly StoredBlock[]): Promise<void> {
  await out.room(4)
  out.buffer.writeUInt32BE(blocks.length, out.at)
  out.at += 4
  for (const block of blocks) await writeHash(out, block.hash)
  let ordinal = 0
  for (const block of [...blocks, undefined]) {
    if (!out.fits(4)) await out.room(4)
    out.buffer.writeUInt32BE(ordinal, out.at)
    out.at += 4
    ordinal += block?.txs.length ?? 0
  }
  for (const block of blocks) for (const tx of block.txs) await writeHash(out, tx.hash)
}

async function writeHash(out: PayloadWriter, hash: Hex): Promise<void> {
  if (!out.fits(32)) await out.room(32)
  if (out.buffer.write(hash.slice(2), out.at, 32, 'hex') !== 32) throw new Error(`${hash} is not a 32-byte hash`)
  out.at += 32
}

/**
 * A chain's blocks as a section of format version 3: batches of {@link BLOCK_BATCH} blocks, each
 * `u32 length` + the blocks in binary (see blockCodec.ts), encoded into one reused buffer. A
 * loaded block nobody changed is copied from the bytes it came from.
 */
export async function writeBlocks(out: PayloadWriter, blocks: readonly StoredBlock[]): Promise<void> {
  const batch = new ByteWriter()
  for (let from = 0; from < blocks.length; from += BLOCK_BATCH) {
    batch.reset()
    for (const block of blocks.slice(from, from + BLOCK_BATCH)) {
      const known = encodings.get(block)
      if (known) batch.raw(known)
      else encodeBlock(batch, block)
    }
    await out.room(4)
    out.buffer.writeUInt32BE(batch.at, out.at)
    out.at += 4
    await out.bytes(batch.buffer.subarray(0, batch.at))
  }
}

/** The records of one batch of a {@link writeBlocks} section, and where each block's bytes are. */
export function readBlockBatch(batch: Buffer): { records: BlockRecord[]; bytes: Uint8Array[] } {
  const input = new ByteReader(batch)
  const records: BlockRecord[] = []
  const bytes: Uint8Array[] = []
  while (input.at < batch.length) {
    const start = input.at
    records.push(decodeBlock(input))
    bytes.push(new Uint8Array(batch.buffer, batch.byteOffset + start, input.at - start))
  }
  return { records, bytes }
}

/** The batches of a blocks section (`u32 length` + bytes each, in format versions 2 and 3), checked to fit it. */
export function blockBatches(section: Buffer): Buffer[] {
  const batches: Buffer[] = []
  for (let at = 0; at < section.length; ) {
    if (at + 4 > section.length) throw new RangeError('a block batch length is cut short')
    const length = section.readUInt32BE(at)
    if (at + 4 + length > section.length) throw new RangeError(`a block batch of ${length} bytes runs past its section`)
    batches.push(section.subarray(at + 4, at + 4 + length))
    at += 4 + length
  }
  return batches
}

/** Every record of a {@link writeBlocks} section. */
export function readBlockSection(section: Buffer): BlockRecord[] {
  return blockBatches(section).flatMap((batch) => readBlockBatch(batch).records)
}

/** The records of a blocks section of format version 2: each batch is `v8.serialize` of an array of records. */
export function readBlocks(section: Buffer): BlockRecord[] {
  return blockBatches(section).flatMap((bytes) => {
    const batch = deserialize(bytes) as unknown
    if (!Array.isArray(batch)) throw new TypeError('a block batch is not a list of blocks')
    return batch as BlockRecord[]
  })
}

/** A value's flag in a trie section: the database held it as a hex string (written as its bytes). */
const HEX_STRING = 0x80000000
/** A value's flag in a trie section: the database held it as another string (written as UTF-8). */
export const TEXT_STRING_FLAG = 0x40000000
const TEXT_STRING = TEXT_STRING_FLAG
export const TRIE_LENGTH_MASK = 0x3fffffff

/** A trie node's key: the database's hex string, or its bytes. */
export type TrieKey = string | Uint8Array

function writeKey(buffer: Buffer, key: TrieKey, at: number): void {
  if (typeof key === 'string') buffer.write(key, at, 'hex')
  else buffer.set(key, at)
}

/**
 * Trie nodes as a section of format versions 2 and 3: per node `u16 key length, u32 value length` (with
 * the {@link HEX_STRING} or {@link TEXT_STRING} flag) and the key's and value's bytes, then
 * `u32 count` of the nodes. Keys are written as bytes (the database's hex strings, or bytes); so are hex
 * string values (half the bytes of the text). Written straight into the writer's buffer as the
 * nodes come: no copy of a node is made, and none is kept.
 */
export async function writeTrie(out: PayloadWriter, nodes: Iterable<[TrieKey, string | Uint8Array]>): Promise<void> {
  let count = 0
  for (const [key, value] of nodes) {
    const keyLength = typeof key === 'string' ? key.length >>> 1 : key.length
    if (typeof value === 'string') {
      // Room for the worst case (UTF-8 text); a hex string takes half its length.
      if (!out.fits(6 + keyLength + value.length * 3)) await out.room(6 + keyLength + value.length * 3)
      const { buffer, at } = out
      writeKey(buffer, key, at + 6)
      const hexLength = value.length >>> 1
      let n = value.length % 2 === 0 ? buffer.write(value, at + 6 + keyLength, 'hex') : -1
      let flag = HEX_STRING
      if (n !== hexLength) {
        n = buffer.write(value, at + 6 + keyLength, 'utf8')
        flag = TEXT_STRING
      }
      buffer.writeUInt16BE(keyLength, at)
      buffer.writeUInt32BE((n | flag) >>> 0, at + 2)
      out.at = at + 6 + keyLength + n
    } else {
      if (!out.fits(6 + keyLength + value.length)) await out.room(6 + keyLength + value.length)
      const { buffer, at } = out
      buffer.writeUInt16BE(keyLength, at)
      buffer.writeUInt32BE(value.length, at + 2)
      writeKey(buffer, key, at + 6)
      buffer.set(value, at + 6 + keyLength)
      out.at = at + 6 + keyLength + value.length
    }
    count++
  }
  await out.room(4)
  out.buffer.writeUInt32BE(count, out.at)
  out.at += 4
}

/** The nodes of a trie section of format version 1 (`u32 count`, then per node `u16 key length, u32 value length` (the top bit set for a string value) and the bytes); values are views of it (no copy). */
export function unpackTrie(packed: Buffer): Map<string, string | Uint8Array> {
  const db = new Map<string, string | Uint8Array>()
  const count = packed.readUInt32BE(0)
  let at = 4
  for (let i = 0; i < count; i++) {
    const keyLength = packed.readUInt16BE(at)
    const word = packed.readUInt32BE(at + 2)
    const length = word & 0x7fffffff
    const start = at + 6 + keyLength
    if (start + length > packed.length) throw new RangeError('a trie node runs past its section')
    const key = packed.toString('hex', at + 6, start)
    db.set(key, word & 0x80000000 ? packed.toString('utf8', start, start + length) : new Uint8Array(packed.buffer, packed.byteOffset + start, length))
    at = start + length
  }
  if (at !== packed.length) throw new RangeError(`the trie section has ${packed.length - at} bytes after its ${count} nodes`)
  return db
}
