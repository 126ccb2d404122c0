import { toChecksumAddress } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import { ConfigError } from './errors.js'

/**
 * Readers for JSON values as Go's encoding/json decodes them into subnet-EVM's config structs.
 * Inputs are what `JSON.parse` gives (plus bigints, for callers that build configs in code).
 * `path` names the value in error messages (`config.feeConfig.gasLimit`).
 */

export const MAX_UINT64 = (1n << 64n) - 1n
const MAX_UINT256 = (1n << 256n) - 1n

export type JsonObject = Record<string, unknown>

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The JSON kind Go names in `cannot unmarshal <kind> into …`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'bigint') return 'number'
  return typeof value === 'object' ? 'object' : typeof value
}

export function typeError(value: unknown, goType: string, path: string): ConfigError {
  return new ConfigError(`json: cannot unmarshal ${kindOf(value)} into Go value of type ${goType} (${path})`)
}

export function expectObject(value: unknown, goType: string, path: string): JsonObject {
  if (!isObject(value)) throw typeError(value, goType, path)
  return value
}

/**
 * A struct field as Go finds it: the exact key, else a case-insensitive match (encoding/json
 * accepts `BlockTimestamp` for `blockTimestamp`). Unknown keys are ignored, as Go ignores them.
 */
export function field(obj: JsonObject, name: string): unknown {
  if (Object.hasOwn(obj, name)) return obj[name]
  const lower = name.toLowerCase()
  for (const key of Object.keys(obj)) if (key.toLowerCase() === lower) return obj[key]
  return undefined
}

/** A JSON number as a bigint, or undefined when it is not an integer JSON number. */
function integerOf(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isInteger(value) && !/e/i.test(String(value))) return BigInt(value)
  return undefined
}

/** Go `uint64` / `*uint64` from a JSON number; null gives undefined (a nil pointer). */
export function readUint64(value: unknown, path: string): bigint | undefined {
  if (value === null || value === undefined) return undefined
  const n = integerOf(value)
  if (n === undefined) {
    if (typeof value === 'number') throw new ConfigError(`json: cannot unmarshal number ${value} into Go value of type uint64 (${path})`)
    throw typeError(value, 'uint64', path)
  }
  if (n < 0n || n > MAX_UINT64) throw new ConfigError(`json: cannot unmarshal number ${n} into Go value of type uint64 (${path})`)
  return n
}

/** Go `*big.Int` from JSON: a number literal only (a quoted string is refused, as math/big does). */
export function readBigInt(value: unknown, path: string): bigint | undefined {
  if (value === null || value === undefined) return undefined
  const n = integerOf(value)
  if (n === undefined) {
    const text = typeof value === 'string' ? JSON.stringify(value) : String(value)
    throw new ConfigError(`math/big: cannot unmarshal ${JSON.stringify(text)} into a *big.Int (${path})`)
  }
  return n
}

export function readBool(value: unknown, path: string): boolean {
  if (value === null || value === undefined) return false
  if (typeof value !== 'boolean') throw typeError(value, 'bool', path)
  return value
}

/** The text Go's `HexOrDecimal*` types parse: a JSON string's content or a number literal. */
function hexOrDecimalText(value: unknown, goType: string, path: string): string {
  if (typeof value === 'string') return value
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return String(value)
  throw typeError(value, goType, path)
}

/** `math.HexOrDecimal64`: `"0x1f"`, `"31"`, `31`; `""` is 0. */
export function readHexOrDecimal64(value: unknown, path: string): bigint {
  const text = hexOrDecimalText(value, 'math.HexOrDecimal64', path)
  let n: bigint | undefined
  if (text === '') n = 0n
  else if (/^0[xX][0-9a-fA-F]+$/.test(text)) n = BigInt(`0x${text.slice(2)}`)
  else if (/^[0-9]+$/.test(text)) n = BigInt(text)
  if (n === undefined || n > MAX_UINT64) throw new ConfigError(`invalid hex or decimal integer ${JSON.stringify(text)} (${path})`)
  return n
}

/** `math.HexOrDecimal256`: hex (`0x`) or decimal, optionally signed as big.Int allows, at most 256 bits. */
export function readHexOrDecimal256(value: unknown, path: string): bigint {
  const text = hexOrDecimalText(value, 'math.HexOrDecimal256', path)
  let n: bigint | undefined
  if (text === '') n = 0n
  else {
    const hex = /^0[xX]([+-]?)([0-9a-fA-F]+)$/.exec(text)
    const dec = /^([+-]?)([0-9]+)$/.exec(text)
    const m = hex ?? dec
    if (m) {
      const magnitude = BigInt(hex ? `0x${m[2]}` : (m[2] as string))
      n = m[1] === '-' ? -magnitude : magnitude
    }
  }
  if (n === undefined || (n < 0n ? -n : n) > MAX_UINT256) throw new ConfigError(`invalid hex or decimal integer ${JSON.stringify(text)} (${path})`)
  return n
}

/** `common.Address` from JSON: a 0x-prefixed 20-byte hex string, any case; lower-cased. */
export function readAddress(value: unknown, path: string): Hex {
  if (typeof value !== 'string') throw typeError(value, 'common.Address', path)
  if (!/^0[xX]/.test(value)) throw new ConfigError(`json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address (${path})`)
  if (!/^0[xX][0-9a-fA-F]*$/.test(value)) throw new ConfigError(`json: cannot unmarshal invalid hex string into Go value of type common.Address (${path}: ${JSON.stringify(value)})`)
  if (value.length !== 42) throw new ConfigError(`hex string has length ${value.length - 2}, want 40 for common.Address (${path})`)
  return value.toLowerCase() as Hex
}

/** `common.UnprefixedAddress` (genesis alloc keys): 40 hex digits with or without 0x; lower-cased. */
export function readUnprefixedAddress(text: string, path: string): Hex {
  const digits = /^0[xX]/.test(text) ? text.slice(2) : text
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new ConfigError(`json: cannot unmarshal invalid hex string into Go value of type common.UnprefixedAddress (${path}: ${JSON.stringify(text)})`)
  if (digits.length !== 40) throw new ConfigError(`hex string has length ${digits.length}, want 40 for common.UnprefixedAddress (${path})`)
  return `0x${digits.toLowerCase()}`
}

/** `hexutil.Bytes`: 0x prefix, even number of hex digits; lower-cased. */
export function readBytes(value: unknown, path: string): Hex {
  if (typeof value !== 'string') throw typeError(value, 'hexutil.Bytes', path)
  if (!/^0[xX]/.test(value)) throw new ConfigError(`json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes (${path})`)
  if (value.length % 2 !== 0) throw new ConfigError(`json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes (${path})`)
  if (!/^0[xX][0-9a-fA-F]*$/.test(value)) throw new ConfigError(`json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes (${path})`)
  return `0x${value.slice(2).toLowerCase()}`
}

/** A 32-byte word as geth's genesis `storageJSON` reads it: optional 0x, at most 64 digits, left-padded. */
export function readStorageWord(text: string, path: string): Hex {
  const digits = text.startsWith('0x') ? text.slice(2) : text
  if (digits.length > 64) throw new ConfigError(`too many hex characters in storage key/value ${JSON.stringify(digits)} (${path})`)
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits)) throw new ConfigError(`invalid hex storage key/value ${JSON.stringify(digits)} (${path})`)
  return `0x${digits.toLowerCase().padStart(64, '0')}`
}

/** `common.Hash` from JSON: 0x and exactly 64 hex digits; lower-cased. */
export function readHash(value: unknown, path: string): Hex {
  if (typeof value !== 'string') throw typeError(value, 'common.Hash', path)
  if (!/^0[xX][0-9a-fA-F]{64}$/.test(value)) throw new ConfigError(`invalid 32-byte hash ${JSON.stringify(value)} (${path})`)
  return value.toLowerCase() as Hex
}

/** An address as Go's `%s` prints a `common.Address`: EIP-55 checksummed. */
export function checksum(address: Hex): string {
  return toChecksumAddress(address)
}
