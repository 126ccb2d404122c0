import { bigIntToBytes, concatBytes, setLengthLeft } from '@ethereumjs/util'
import { InvalidArgumentError } from '../../core/errors.js'

/**
 * The little Solidity ABI the warp precompile needs, decoding with the rules and error texts of
 * libevm's `accounts/abi` in non-strict mode (extra trailing calldata is ignored, as after Durango).
 */

const WORD = 32

/** A 32-byte big-endian word. */
export function abiWord(value: bigint): Uint8Array {
  if (value < 0n || value >= 1n << 256n) throw new InvalidArgumentError(`ABI word out of range: ${value}`)
  return setLengthLeft(bigIntToBytes(value), WORD)
}

/** Left-pads up to 32 bytes (address, bool, uintN) or checks a bytes32. */
export function abiLeftPad(bytes: Uint8Array): Uint8Array {
  if (bytes.length > WORD) throw new InvalidArgumentError(`ABI static value longer than 32 bytes: ${bytes.length}`)
  const out = new Uint8Array(WORD)
  out.set(bytes, WORD - bytes.length)
  return out
}

export function abiBool(value: boolean): Uint8Array {
  return abiWord(value ? 1n : 0n)
}

/** The tail of a dynamic `bytes`: length word then the data right-padded to a multiple of 32. */
export function abiBytesTail(bytes: Uint8Array): Uint8Array {
  const padded = Math.ceil(bytes.length / WORD) * WORD
  const out = new Uint8Array(WORD + padded)
  out.set(abiWord(BigInt(bytes.length)), 0)
  out.set(bytes, WORD)
  return out
}

export const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(...parts)

/** `abi.encode(bytes)`: offset 0x20, then the tail. */
export function abiEncodeBytes(bytes: Uint8Array): Uint8Array {
  return concat(abiWord(32n), abiBytesTail(bytes))
}

/** Thrown with libevm's message, e.g. `abi: cannot marshal in to go type: length insufficient 4 require 32`. */
export class AbiDecodeError extends Error {
  override name = 'AbiDecodeError'
}

const readWord = (data: Uint8Array, offset: number): bigint => {
  let value = 0n
  for (let i = offset; i < offset + WORD; i++) value = (value << 8n) | BigInt(data[i]!)
  return value
}

/** `Arguments.Unpack` + `toGoType` bounds check for the argument at `index` (a byte offset). */
function checkHead(data: Uint8Array, index: number): void {
  if (data.length === 0) throw new AbiDecodeError('abi: attempting to unmarshal an empty string while arguments are expected')
  if (index + WORD > data.length)
    throw new AbiDecodeError(`abi: cannot marshal in to go type: length insufficient ${data.length} require ${index + WORD}`)
}

/** Decodes a single `bytes` argument (`lengthPrefixPointsTo`). */
export function abiDecodeBytes(data: Uint8Array): Uint8Array {
  checkHead(data, 0)
  const length = BigInt(data.length)
  const offsetEnd = readWord(data, 0) + 32n
  if (offsetEnd > length)
    throw new AbiDecodeError(
      `abi: cannot marshal in to go slice: offset ${offsetEnd} would go over slice boundary (len=${length})`,
    )
  const size = readWord(data, Number(offsetEnd) - WORD)
  const total = offsetEnd + size
  if (total >= 1n << 63n) throw new AbiDecodeError(`abi: length larger than int64: ${total}`)
  if (total > length) throw new AbiDecodeError(`abi: cannot marshal in to go type: length insufficient ${length} require ${total}`)
  return data.slice(Number(offsetEnd), Number(total))
}

/** Decodes a single `uint32` argument (`ReadInteger`). */
export function abiDecodeUint32(data: Uint8Array): number {
  checkHead(data, 0)
  const value = readWord(data, 0)
  if (value > 0xffffffffn) throw new AbiDecodeError('abi: improperly encoded uint32 value')
  return Number(value)
}
