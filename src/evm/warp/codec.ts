import { sha256 } from '../../core/sha256.js'
import { BaseError, InvalidArgumentError } from '../../core/errors.js'

/**
 * Warp messages in avalanchego's linear codec (`codec/linearcodec` + `reflectcodec`), byte for byte:
 *
 * - payloads (`vms/platformvm/warp/payload`): codec `0x0000` ‖ type id u32 ‖ fields, where
 *   `Hash` is type 0 (a 32-byte id) and `AddressedCall` is type 1 (`sourceAddress` bytes, `payload` bytes);
 *   the payload codec refuses anything over 24 KiB either way;
 * - `UnsignedMessage`: codec `0x0000` ‖ networkID u32 ‖ sourceChainID (32) ‖ payload bytes;
 * - `Message`: codec `0x0000` ‖ the unsigned fields ‖ signature type id u32 (0 = `BitSetSignature`) ‖
 *   signers bytes ‖ 96-byte signature. The embedded unsigned message has no second version, so a
 *   signed message is exactly `unsignedBytes ‖ typeID ‖ signers ‖ signature`.
 *
 * Byte strings are a u32 big-endian length then the bytes. Parse errors carry the Go error text
 * (`unknown codec version`, `trailing buffer space: read 10 provided 12`, …) because the precompile
 * and predicate checks wrap and surface them.
 */

/** A warp decoding or encoding failure, with the text avalanchego's error has. */
export class WarpError extends BaseError {
  override name = 'WarpError'
}

export const CODEC_VERSION = 0
/** `payload.MaxMessageSize`: the payload codec's limit on marshalled and parsed payloads. */
export const MAX_PAYLOAD_SIZE = 24 * 1024
/** `bls.SignatureLen`: a compressed G2 point. */
export const BLS_SIGNATURE_LENGTH = 96
export const PAYLOAD_TYPE_HASH = 0
export const PAYLOAD_TYPE_ADDRESSED_CALL = 1
export const SIGNATURE_TYPE_BITSET = 0

const MAX_INT32 = 0x7fffffff
const ERR_INSUFFICIENT = 'packer has insufficient length for input'

export type AddressedCall = {
  type: 'addressedCall'
  /** For subnet-EVM, the 20-byte address that called `sendWarpMessage`. Any length in the codec. */
  sourceAddress: Uint8Array
  payload: Uint8Array
}

export type HashPayload = {
  type: 'hash'
  /** 32 bytes, e.g. a block hash. */
  hash: Uint8Array
}

export type WarpPayload = AddressedCall | HashPayload

export type UnsignedMessage = {
  networkId: number
  /** 32-byte blockchain id of the sending chain. */
  sourceChainId: Uint8Array
  /** Usually an encoded {@link WarpPayload}; the message itself does not look inside. */
  payload: Uint8Array
}

export type BitSetSignature = {
  /** Big-endian bit set: bit i set means canonical validator i signed. Minimal (no leading zero byte). */
  signers: Uint8Array
  /** 96-byte compressed aggregate BLS signature. */
  signature: Uint8Array
}

export type SignedMessage = {
  unsigned: UnsignedMessage
  /** The unsigned message as encoded (what the validators signed, and what {@link messageId} hashes). */
  unsignedBytes: Uint8Array
  signature: BitSetSignature
  /** The whole signed message as encoded. */
  bytes: Uint8Array
}

// --- writing ---

class Writer {
  private chunks: Uint8Array[] = []
  private size = 0
  u16(value: number): this {
    return this.raw(new Uint8Array([(value >>> 8) & 0xff, value & 0xff]))
  }
  u32(value: number): this {
    const out = new Uint8Array(4)
    new DataView(out.buffer).setUint32(0, value)
    return this.raw(out)
  }
  raw(bytes: Uint8Array): this {
    this.chunks.push(bytes)
    this.size += bytes.length
    return this
  }
  bytes(bytes: Uint8Array): this {
    if (bytes.length > MAX_INT32)
      throw new WarpError(`max slice length exceeded; slice length, ${bytes.length}, exceeds maximum length, ${MAX_INT32}`)
    return this.u32(bytes.length).raw(bytes)
  }
  get length(): number {
    return this.size
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.size)
    let offset = 0
    for (const chunk of this.chunks) {
      out.set(chunk, offset)
      offset += chunk.length
    }
    return out
  }
}

function checkFixed(bytes: Uint8Array, length: number, what: string): void {
  if (bytes.length !== length) throw new InvalidArgumentError(`${what} must be ${length} bytes but got ${bytes.length}`)
}

function checkUint32(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new InvalidArgumentError(`${what} must be a uint32 but got ${value}`)
}

/**
 * `payload.NewAddressedCall(...).Bytes()`. Throws `couldn't marshal *payload.AddressedCall payload:
 * packer has insufficient length for input` past 24 KiB, as `sendWarpMessage` does.
 */
export function encodeAddressedCall(sourceAddress: Uint8Array, payload: Uint8Array): Uint8Array {
  return encodePayload({ type: 'addressedCall', sourceAddress, payload })
}

/** `payload.NewHash(hash).Bytes()`. */
export function encodeHashPayload(hash: Uint8Array): Uint8Array {
  return encodePayload({ type: 'hash', hash })
}

export function encodePayload(payload: WarpPayload): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION)
  if (payload.type === 'hash') {
    checkFixed(payload.hash, 32, 'hash')
    w.u32(PAYLOAD_TYPE_HASH).raw(payload.hash)
  } else {
    w.u32(PAYLOAD_TYPE_ADDRESSED_CALL).bytes(payload.sourceAddress).bytes(payload.payload)
  }
  if (w.length > MAX_PAYLOAD_SIZE) {
    const goType = payload.type === 'hash' ? '*payload.Hash' : '*payload.AddressedCall'
    throw new WarpError(`couldn't marshal ${goType} payload: ${ERR_INSUFFICIENT}`)
  }
  return w.finish()
}

/** `warp.NewUnsignedMessage(...).Bytes()`. */
export function encodeUnsignedMessage(message: UnsignedMessage): Uint8Array {
  checkUint32(message.networkId, 'networkId')
  checkFixed(message.sourceChainId, 32, 'sourceChainId')
  return new Writer()
    .u16(CODEC_VERSION)
    .u32(message.networkId)
    .raw(message.sourceChainId)
    .bytes(message.payload)
    .finish()
}

/** `UnsignedMessage.ID()`: SHA-256 of the encoded unsigned message. */
export function messageId(unsignedBytes: Uint8Array): Uint8Array {
  return sha256(unsignedBytes)
}

/** `warp.NewMessage(unsigned, &BitSetSignature{…}).Bytes()`. */
export function encodeMessage(unsigned: UnsignedMessage | Uint8Array, signature: BitSetSignature): Uint8Array {
  const unsignedBytes = unsigned instanceof Uint8Array ? unsigned : encodeUnsignedMessage(unsigned)
  checkFixed(signature.signature, BLS_SIGNATURE_LENGTH, 'signature')
  return new Writer()
    .raw(unsignedBytes)
    .u32(SIGNATURE_TYPE_BITSET)
    .bytes(signature.signers)
    .raw(signature.signature)
    .finish()
}

// --- reading ---

class Reader {
  offset = 0
  constructor(private readonly data: Uint8Array) {}

  version(): void {
    if (this.data.length - this.offset < 2) throw new WarpError("couldn't unpack codec version")
    const version = (this.data[this.offset]! << 8) | this.data[this.offset + 1]!
    this.offset += 2
    if (version !== CODEC_VERSION) throw new WarpError('unknown codec version')
  }
  private rawU32(): number | undefined {
    if (this.data.length - this.offset < 4) return undefined
    const view = new DataView(this.data.buffer, this.data.byteOffset + this.offset, 4)
    this.offset += 4
    return view.getUint32(0)
  }
  u32(): number {
    const value = this.rawU32()
    if (value === undefined) throw new WarpError(`couldn't unmarshal uint32: ${ERR_INSUFFICIENT}`)
    return value
  }
  typeId(): number {
    const value = this.rawU32()
    if (value === undefined) throw new WarpError(`couldn't unmarshal interface: ${ERR_INSUFFICIENT}`)
    return value
  }
  fixed(length: number): Uint8Array {
    if (this.data.length - this.offset < length) throw new WarpError(ERR_INSUFFICIENT)
    const out = this.data.slice(this.offset, this.offset + length)
    this.offset += length
    return out
  }
  bytes(): Uint8Array {
    const length = this.rawU32()
    if (length === undefined) throw new WarpError(`couldn't unmarshal slice: ${ERR_INSUFFICIENT}`)
    if (length > MAX_INT32)
      throw new WarpError(`max slice length exceeded; array length, ${length}, exceeds maximum length, ${MAX_INT32}`)
    return this.fixed(length)
  }
  end(): void {
    if (this.offset !== this.data.length)
      throw new WarpError(`trailing buffer space: read ${this.offset} provided ${this.data.length}`)
  }
}

/** `payload.Parse`. */
export function parsePayload(bytes: Uint8Array): WarpPayload {
  if (bytes.length > MAX_PAYLOAD_SIZE)
    throw new WarpError(`byte array exceeds maximum length: ${bytes.length} > ${MAX_PAYLOAD_SIZE}`)
  const r = new Reader(bytes)
  r.version()
  const typeId = r.typeId()
  let payload: WarpPayload
  if (typeId === PAYLOAD_TYPE_HASH) payload = { type: 'hash', hash: r.fixed(32) }
  else if (typeId === PAYLOAD_TYPE_ADDRESSED_CALL)
    payload = { type: 'addressedCall', sourceAddress: r.bytes(), payload: r.bytes() }
  else throw new WarpError(`couldn't unmarshal interface: unknown type ID ${typeId}`)
  r.end()
  return payload
}

/** `payload.ParseAddressedCall`: `wrong payload type: *payload.Hash` for a hash payload. */
export function parseAddressedCall(bytes: Uint8Array): AddressedCall {
  const payload = parsePayload(bytes)
  if (payload.type !== 'addressedCall') throw new WarpError('wrong payload type: *payload.Hash')
  return payload
}

/** `payload.ParseHash`: `wrong payload type: *payload.AddressedCall` for an addressed call. */
export function parseHashPayload(bytes: Uint8Array): HashPayload {
  const payload = parsePayload(bytes)
  if (payload.type !== 'hash') throw new WarpError('wrong payload type: *payload.AddressedCall')
  return payload
}

function readUnsigned(r: Reader): UnsignedMessage {
  r.version()
  const networkId = r.u32()
  const sourceChainId = r.fixed(32)
  const payload = r.bytes()
  return { networkId, sourceChainId, payload }
}

/** `warp.ParseUnsignedMessage`. */
export function parseUnsignedMessage(bytes: Uint8Array): UnsignedMessage {
  const r = new Reader(bytes)
  const message = readUnsigned(r)
  r.end()
  return message
}

/** `warp.ParseMessage`: a signed message, keeping the unsigned part's bytes for hashing and verifying. */
export function parseMessage(bytes: Uint8Array): SignedMessage {
  const r = new Reader(bytes)
  const unsigned = readUnsigned(r)
  const unsignedEnd = r.offset
  const typeId = r.typeId()
  if (typeId !== SIGNATURE_TYPE_BITSET) throw new WarpError(`couldn't unmarshal interface: unknown type ID ${typeId}`)
  const signers = r.bytes()
  const signature = r.fixed(BLS_SIGNATURE_LENGTH)
  r.end()
  return {
    unsigned,
    unsignedBytes: bytes.slice(0, unsignedEnd),
    signature: { signers, signature },
    bytes: bytes.slice(),
  }
}

// --- signer bit sets (`utils/set.Bits`, a big.Int) ---

/** `set.BitsFromBytes(b).Bytes()` has the same length as `b`: no leading zero byte. */
export function isMinimalBitSet(bits: Uint8Array): boolean {
  return bits.length === 0 || bits[0] !== 0
}

/** Index of the highest set bit plus one (`big.Int.BitLen`), 0 for an empty set. */
export function bitSetLength(bits: Uint8Array): number {
  for (let i = 0; i < bits.length; i++) {
    const byte = bits[i]!
    if (byte !== 0) return (bits.length - i - 1) * 8 + (32 - Math.clz32(byte))
  }
  return 0
}

/** Whether bit `index` is set, counting from the least significant bit of the last byte. */
export function bitSetContains(bits: Uint8Array, index: number): boolean {
  const byteIndex = bits.length - 1 - Math.floor(index / 8)
  if (index < 0 || byteIndex < 0) return false
  return ((bits[byteIndex]! >> index % 8) & 1) === 1
}

/** Number of set bits (`set.Bits.Len`). */
export function bitSetCount(bits: Uint8Array): number {
  let count = 0
  for (const byte of bits) for (let b = byte; b !== 0; b &= b - 1) count++
  return count
}

/** The minimal big-endian bytes with the given bits set (`set.NewBits(indexes...).Bytes()`); empty when none. */
export function bitSetFromIndexes(indexes: Iterable<number>): Uint8Array {
  let max = -1
  const list = [...indexes]
  for (const i of list) {
    if (!Number.isSafeInteger(i) || i < 0) throw new InvalidArgumentError(`bit index must be a non-negative integer but got ${i}`)
    if (i > max) max = i
  }
  if (max < 0) return new Uint8Array(0)
  const out = new Uint8Array(Math.floor(max / 8) + 1)
  for (const i of list) out[out.length - 1 - Math.floor(i / 8)]! |= 1 << i % 8
  return out
}
