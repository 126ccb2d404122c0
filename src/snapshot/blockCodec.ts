import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import type { Hex } from '../core/hex.js'
import type { StoredBlock } from '../evm/types.js'
import { isUnsignedTx } from '../evm/unsignedTx.js'
import type { BlockRecord, MinedTxRecord, TxRecord } from './codec.js'

/**
 * Blocks in binary, as format version 3 writes them: straight from the chain's objects into one
 * reused buffer, with no record objects in between (a save of 100,000 transactions made half a
 * million short-lived objects and `v8.serialize`d them, most of its time). Read back into a
 * {@link BlockRecord}, which a loaded block is built from on first read.
 *
 * A block:
 *   u8 flags (1: withdrawals, 2: pre-state root, 4: extras), hash (32)
 *   u8 count, then per header value: u16 length + bytes
 *   [pre-state root (32)] [u8 count, then per extra: u8 length + name (UTF-8) + bigint]
 *   u32 transactions, each:
 *     u8 kind: 0 fields: u8 type, the {@link BIGINT_FIELDS} as bigints, `to` (u8 0, or 1 + 20
 *       bytes), data (u32 length + bytes), access and authorization lists (u32 length + JSON, 0:
 *       none); 1 RLP: u32 length + the transaction's serialization
 *     hash (32), from (20), u8 flags (1: unsigned, 2: inner calls counted) [u32 inner calls]
 *     u8 status, gasUsed, cumulativeGasUsed, effectiveGasPrice (bigints)
 *     u16 logs, each: address (20), u8 topics + 32 bytes each, u32 length + data
 *     u8 0 (empty bloom) or 1 + 256 bytes; u8 0 or 1 + contract address (20)
 *     u16 error length (0xffff: none) + UTF-8; u32 length + return value
 * A bigint: u8 length + big-endian bytes, or 0xff for an absent value.
 */

export const BIGINT_FIELDS = ['chainId', 'nonce', 'gasPrice', 'maxPriorityFeePerGas', 'maxFeePerGas', 'gasLimit', 'value', 'v', 'r', 's'] as const
const FIELD_TYPES: readonly number[] = [TransactionType.Legacy, TransactionType.AccessListEIP2930, TransactionType.FeeMarketEIP1559, TransactionType.EOACodeEIP7702]
const AUTHORIZATION_FIELDS = ['chainId', 'address', 'nonce', 'yParity', 'r', 's'] as const
const ABSENT = 0xff
/** The largest value written without hex text (six bytes, what `writeUIntBE` takes). */
const SMALL = 0xffffffffffffn
const NO_ERROR = 0xffff

const prefixed = (value: Uint8Array): string => `0x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`

/** A growable buffer written synchronously; the caller copies out `buffer[0, at)`. */
export class ByteWriter {
  buffer = Buffer.allocUnsafe(1 << 16)
  at = 0

  reset(): void {
    this.at = 0
  }

  #room(n: number): void {
    if (this.at + n <= this.buffer.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + n))
    this.buffer.copy(grown, 0, 0, this.at)
    this.buffer = grown
  }

  u8(value: number): void {
    this.#room(1)
    this.buffer[this.at++] = value
  }

  u16(value: number): void {
    this.#room(2)
    this.at = this.buffer.writeUInt16BE(value, this.at)
  }

  u32(value: number): void {
    this.#room(4)
    this.at = this.buffer.writeUInt32BE(value, this.at)
  }

  raw(bytes: Uint8Array): void {
    this.#room(bytes.length)
    this.buffer.set(bytes, this.at)
    this.at += bytes.length
  }

  /** `0x`-prefixed hex of exactly `length` bytes. */
  hex(text: string, length: number): void {
    this.#room(length)
    if (this.buffer.write(text.slice(2), this.at, length, 'hex') !== length || text.length !== 2 + length * 2) throw new RangeError(`${text} is not ${length} bytes of hex`)
    this.at += length
  }

  lengthPrefixed(bytes: Uint8Array): void {
    this.u32(bytes.length)
    this.raw(bytes)
  }

  text(value: string): void {
    if (value === '') return this.u32(0)
    this.lengthPrefixed(Buffer.from(value, 'utf8'))
  }

  bigint(value: bigint | undefined): void {
    if (value === undefined) return this.u8(ABSENT)
    if (value < 0n) throw new RangeError(`a negative value (${value}) in a block`)
    if (value === 0n) return this.u8(0)
    if (value <= SMALL) {
      // Nonces, gas, fees and values of a test network: no hex text on the way.
      const number = Number(value)
      const length = number < 0x100 ? 1 : number < 0x10000 ? 2 : number < 0x1000000 ? 3 : number < 0x100000000 ? 4 : number < 0x10000000000 ? 5 : 6
      this.#room(1 + length)
      this.buffer[this.at++] = length
      this.at = this.buffer.writeUIntBE(number, this.at, length)
      return
    }
    let digits = value.toString(16)
    if (digits.length % 2 === 1) digits = `0${digits}`
    const length = digits.length >>> 1
    if (length >= ABSENT) throw new RangeError(`a value of ${length} bytes in a block`)
    this.#room(1 + length)
    this.buffer[this.at++] = length
    this.at += this.buffer.write(digits, this.at, length, 'hex')
  }
}

/** Reads what a {@link ByteWriter} wrote; every read checks the bounds. */
export class ByteReader {
  constructor(
    readonly buffer: Buffer,
    public at = 0,
    readonly end = buffer.length,
  ) {}

  #take(n: number): number {
    const at = this.at
    if (at + n > this.end) throw new RangeError('a block record is cut short')
    this.at = at + n
    return at
  }

  u8(): number {
    return this.buffer[this.#take(1)]!
  }

  u16(): number {
    return this.buffer.readUInt16BE(this.#take(2))
  }

  u32(): number {
    return this.buffer.readUInt32BE(this.#take(4))
  }

  /** A view of the next `n` bytes (no copy). */
  raw(n: number): Uint8Array {
    const at = this.#take(n)
    return new Uint8Array(this.buffer.buffer, this.buffer.byteOffset + at, n)
  }

  hex(n: number): string {
    const at = this.#take(n)
    return this.buffer.toString('hex', at, at + n)
  }

  lengthPrefixed(): Uint8Array {
    return this.raw(this.u32())
  }

  text(): string {
    const length = this.u32()
    const at = this.#take(length)
    return this.buffer.toString('utf8', at, at + length)
  }

  bigint(): bigint | undefined {
    const length = this.u8()
    if (length === ABSENT) return undefined
    if (length === 0) return 0n
    return BigInt(`0x${this.hex(length)}`)
  }
}

/** Appends `stored` to `out` (see the layout above). */
export function encodeBlock(out: ByteWriter, stored: StoredBlock): void {
  const { block } = stored
  const extras = stored.extras ? Object.entries(stored.extras) : []
  out.u8((block.withdrawals !== undefined ? 1 : 0) | (stored.preStateRoot ? 2 : 0) | (extras.length > 0 ? 4 : 0))
  out.hex(stored.hash, 32)
  const values = block.header.raw()
  out.u8(values.length)
  for (const value of values) {
    out.u16(value.length)
    out.raw(value)
  }
  if (stored.preStateRoot) out.raw(stored.preStateRoot)
  if (extras.length > 0) {
    out.u8(extras.length)
    for (const [name, value] of extras) {
      const bytes = Buffer.from(name, 'utf8')
      out.u8(bytes.length)
      out.raw(bytes)
      out.bigint(value)
    }
  }
  out.u32(stored.txs.length)
  for (const t of stored.txs) {
    encodeTx(out, t.tx)
    const r = t.receipt
    out.hex(t.hash, 32)
    out.hex(t.from, 20)
    const unsigned = isUnsignedTx(t.tx)
    out.u8((unsigned ? 1 : 0) | (t.innerCalls !== undefined ? 2 : 0))
    if (t.innerCalls !== undefined) out.u32(t.innerCalls)
    out.u8(r.status)
    out.bigint(r.gasUsed)
    out.bigint(r.cumulativeGasUsed)
    out.bigint(r.effectiveGasPrice)
    out.u16(r.logs.length)
    for (const log of r.logs) {
      out.hex(log.address, 20)
      out.u8(log.topics.length)
      for (const topic of log.topics) out.hex(topic, 32)
      const length = (log.data.length - 2) >>> 1
      out.u32(length)
      out.hex(log.data, length)
    }
    // A receipt without logs has an empty bloom.
    if (r.logs.length === 0 || r.logsBloom.every((b) => b === 0)) out.u8(0)
    else {
      out.u8(1)
      out.raw(r.logsBloom)
    }
    if (r.contractAddress === null) out.u8(0)
    else {
      out.u8(1)
      out.hex(r.contractAddress, 20)
    }
    if (r.error === undefined) out.u16(NO_ERROR)
    else {
      const error = Buffer.from(r.error, 'utf8')
      out.u16(error.length)
      out.raw(error)
    }
    out.lengthPrefixed(r.returnValue)
  }
}

function encodeTx(out: ByteWriter, tx: TypedTransaction): void {
  if (!FIELD_TYPES.includes(tx.type)) {
    out.u8(1)
    out.lengthPrefixed(tx.serialize())
    return
  }
  const fields = tx as unknown as Record<string, unknown>
  out.u8(0)
  out.u8(tx.type)
  for (const f of BIGINT_FIELDS) out.bigint(fields[f] as bigint | undefined)
  if (tx.to === undefined) out.u8(0)
  else {
    out.u8(1)
    out.raw(tx.to.bytes)
  }
  out.lengthPrefixed(tx.data)
  // Access and authorization lists in the JSON form the transaction constructors take.
  const accessList = fields.accessList as [Uint8Array, Uint8Array[]][] | undefined
  const authorizationList = fields.authorizationList as Uint8Array[][] | undefined
  out.text(accessList?.length ? JSON.stringify(accessList.map(([address, keys]) => ({ address: prefixed(address), storageKeys: keys.map(prefixed) }))) : '')
  out.text(authorizationList?.length ? JSON.stringify(authorizationList.map((item) => Object.fromEntries(AUTHORIZATION_FIELDS.map((f, i) => [f, prefixed(item[i]!)])))) : '')
}

/** The record of the block at the reader's position (see {@link encodeBlock}). */
export function decodeBlock(input: ByteReader): BlockRecord {
  const flags = input.u8()
  const hash = `0x${input.hex(32)}` as Hex
  const count = input.u8()
  const headerLengths: number[] = []
  const parts: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const length = input.u16()
    headerLengths.push(length)
    parts.push(input.raw(length))
  }
  const header = Buffer.concat(parts)
  // The header's fourth value is the state root.
  if (count < 4 || headerLengths[3] !== 32) throw new RangeError(`block ${hash} has no state root`)
  const stateRoot = Buffer.from(parts[3]!).toString('hex')
  const preStateRoot = flags & 2 ? input.hex(32) : undefined
  let extras: Record<string, bigint> | undefined
  if (flags & 4) {
    extras = {}
    for (let n = input.u8(); n > 0; n--) {
      const name = Buffer.from(input.raw(input.u8())).toString('utf8')
      extras[name] = input.bigint() ?? 0n
    }
  }
  const txs: MinedTxRecord[] = []
  for (let n = input.u32(); n > 0; n--) {
    const tx = decodeTx(input)
    const txHash = `0x${input.hex(32)}` as Hex
    const from = `0x${input.hex(20)}` as Hex
    const txFlags = input.u8()
    const innerCalls = txFlags & 2 ? input.u32() : -1
    const status = input.u8()
    if (status !== 0 && status !== 1) throw new RangeError(`transaction ${txHash} has status ${status}`)
    const gasUsed = input.bigint() ?? 0n
    const cumulativeGasUsed = input.bigint() ?? 0n
    const effectiveGasPrice = input.bigint() ?? 0n
    const logs: [Hex, Hex[], Hex][] = []
    for (let l = input.u16(); l > 0; l--) {
      const address = `0x${input.hex(20)}` as Hex
      const topics: Hex[] = []
      for (let t = input.u8(); t > 0; t--) topics.push(`0x${input.hex(32)}` as Hex)
      logs.push([address, topics, `0x${input.hex(input.u32())}` as Hex])
    }
    const bloom = input.u8() === 1 ? input.hex(256) : ''
    const contractAddress = input.u8() === 1 ? (`0x${input.hex(20)}` as Hex) : null
    const errorLength = input.u16()
    const error = errorLength === NO_ERROR ? undefined : Buffer.from(input.raw(errorLength)).toString('utf8')
    const returnValue = input.hex(input.u32())
    txs.push([tx, txHash, from, (txFlags & 1) === 1, innerCalls, status, gasUsed, cumulativeGasUsed, effectiveGasPrice, logs, bloom, contractAddress, error, returnValue])
  }
  return {
    header,
    headerLengths,
    stateRoot,
    withdrawals: (flags & 1) === 1,
    hash,
    txs,
    ...(preStateRoot !== undefined ? { preStateRoot } : {}),
    ...(extras ? { extras } : {}),
  }
}

function decodeTx(input: ByteReader): TxRecord {
  const kind = input.u8()
  if (kind === 1) return input.lengthPrefixed()
  if (kind !== 0) throw new RangeError(`unknown transaction encoding ${kind}`)
  const type = input.u8()
  const values: unknown[] = BIGINT_FIELDS.map(() => input.bigint())
  const to = input.u8() === 1 ? input.hex(20) : undefined
  const data = input.hex(input.u32())
  const accessList = input.text()
  const authorizationList = input.text()
  return [type, ...values, to, data, accessList === '' ? undefined : JSON.parse(accessList), authorizationList === '' ? undefined : JSON.parse(authorizationList)]
}
