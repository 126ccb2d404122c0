import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { DecodeError } from './errors.js'

export type Hex = `0x${string}`

export { bytesToHex, hexToBytes }

/** Encodes a non-negative integer as a JSON-RPC quantity: `0x0`, `0x1a`, never leading zeros. */
export function toQuantity(value: bigint | number): Hex {
  const n = typeof value === 'number' ? BigInt(value) : value
  if (n < 0n) throw new DecodeError(`negative quantity ${n}`)
  return `0x${n.toString(16)}`
}

/**
 * `bytes` as `0x…` in one flat string. ethereumjs' `bytesToHex` concatenates a piece per byte, a
 * rope of ~30 string objects for a 32-byte hash, which a string kept for the chain's life (a
 * block's hash, a key of the store's maps) keeps whole: ~0.9 KB per block instead of ~90 B.
 */
export function flatHex(bytes: Uint8Array): Hex {
  const out = Buffer.allocUnsafe(2 + bytes.length * 2)
  out.write('0x', 0, 'latin1')
  out.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex'), 2, 'latin1')
  return out.toString('latin1') as Hex
}

const HEX_DIGITS = /^[0-9a-f]*$/i

/**
 * Decodes a JSON-RPC quantity as geth's `hexutil.DecodeBig` does: 0x prefix, no leading zeros,
 * at most 256 bits. The checks run in geth's order and throw geth's hexutil messages, so they can
 * be shown to clients as they are.
 */
export function parseQuantity(value: unknown): bigint {
  if (typeof value !== 'string') throw new DecodeError('json: cannot unmarshal non-string into Go value of type *hexutil.Big')
  if (value.length === 0) throw new DecodeError('empty hex string')
  if (value[0] !== '0' || (value[1] !== 'x' && value[1] !== 'X')) throw new DecodeError('hex string without 0x prefix')
  const digits = value.slice(2)
  if (digits.length === 0) throw new DecodeError('hex string "0x"')
  // geth tests the leading zero and the length before it looks at the digits: "0x0z" is a leading zero.
  if (digits.length > 1 && digits[0] === '0') throw new DecodeError('hex number with leading zero digits')
  if (digits.length > 64) throw new DecodeError('hex number > 256 bits')
  if (!HEX_DIGITS.test(digits)) throw new DecodeError('invalid hex string')
  return BigInt(`0x${digits}`)
}

const PREFIXED_HEX = /^0[xX][0-9a-fA-F]*$/

/**
 * Decodes JSON-RPC data (bytes): 0x prefix and an even number of hex digits, checked in the order
 * of geth's `hexutil.Bytes` (prefix, then length, then digits). An empty string is refused with
 * `hexutil.Decode`'s message; the JSON-RPC parameter parser accepts it as no bytes, as geth does.
 */
export function parseData(value: unknown): Uint8Array {
  if (typeof value !== 'string') throw new DecodeError('json: cannot unmarshal non-string into Go value of type hexutil.Bytes')
  if (value.length === 0) throw new DecodeError('empty hex string')
  if (!value.startsWith('0x') && !value.startsWith('0X')) throw new DecodeError('hex string without 0x prefix')
  if (value.length % 2 !== 0) throw new DecodeError('hex string of odd length')
  if (!PREFIXED_HEX.test(value)) throw new DecodeError('invalid hex string')
  // Node's hex decoder: a raw transaction is decoded on every eth_sendRawTransaction.
  const bytes = Buffer.from(value.slice(2), 'hex')
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/** True for a 0x-prefixed string of hex digits of the given byte length (any length when omitted). */
export function isHex(value: unknown, byteLength?: number): value is Hex {
  if (typeof value !== 'string' || value.length % 2 !== 0 || !PREFIXED_HEX.test(value)) return false
  return byteLength === undefined || value.length === 2 + byteLength * 2
}
