/**
 * `params` decoders for node methods, made the way gorilla/rpc v2 (json2 `ReadRequest`) and Go's
 * encoding/json decode a request's params into the method's args struct:
 *
 * - an object is decoded into the struct: field names match exactly or else case-insensitively
 *   (Go's folding), unknown fields are ignored, members are applied in order so a repeated key's
 *   last value wins, and a `null` member leaves a field as it is (a pointer field becomes unset);
 * - if that fails, `[object]` is tried (gorilla's by-position fallback): `[]`, `[null]` and extra
 *   elements are all accepted;
 * - absent or `null` params leave every field at its zero value;
 * - anything else, or any field that does not decode, throws {@link NodeArgumentError}, which the
 *   dispatcher reports with avalanchego's generic "couldn't unmarshal an argument…" message.
 *
 * Field decoders get the value's raw JSON text when the dispatcher parsed it (see
 * `goJson.ts`), so numbers and ids are checked as Go checks the bytes; given plain JS values (a
 * test calling a decoder directly) they check the value instead.
 */
import { EMPTY_ID, EMPTY_NODE_ID, idFromString, idToString, nodeIdToString, parseNodeIdJson } from '../../core/ids.js'
import { foldName, jsonElementRaws, jsonMembers } from './goJson.js'
import { NodeArgumentError } from './types.js'

/** How one Go type is decoded from JSON. */
export type FieldDecoder<T> = {
  /** The Go zero value (the field when no member sets it). */
  readonly zero: () => T
  /**
   * Decodes `value` into a field that holds `current` (Go decodes into the existing value, which
   * is why `null` usually changes nothing). `raw` is the value's JSON text when known. Throws
   * {@link NodeArgumentError}.
   */
  readonly decode: (value: unknown, current: T, raw: string | undefined) => T
}

export type FieldDecoders = Record<string, FieldDecoder<any>>

/** The decoded args of a field table. */
export type ParamsOf<F extends FieldDecoders> = { [K in keyof F]: F[K] extends FieldDecoder<infer T> ? T : never }

function fail(reason: string): never {
  throw new NodeArgumentError(reason)
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'bigint') return 'number'
  return typeof value
}

/** The JSON text of a value: as sent when the dispatcher parsed it, else re-encoded. */
function rawText(value: unknown, raw: string | undefined): string {
  if (raw !== undefined) return raw
  if (typeof value === 'bigint') return value.toString()
  return JSON.stringify(value) ?? 'null'
}

/** A Go `string`: only a JSON string; `null` keeps the current value. */
export const str: FieldDecoder<string> = {
  zero: () => '',
  decode: (value, current) => {
    if (value === null) return current
    if (typeof value !== 'string') fail(`cannot unmarshal ${kindOf(value)} into a string`)
    return value
  },
}

/** A Go `bool`: only `true`/`false`; `null` keeps the current value. */
export const bool: FieldDecoder<boolean> = {
  zero: () => false,
  decode: (value, current) => {
    if (value === null) return current
    if (typeof value !== 'boolean') fail(`cannot unmarshal ${kindOf(value)} into a bool`)
    return value
  },
}

const UINT64_MAX = (1n << 64n) - 1n

/** avalanchego `json.Uint64`/`json.Uint32`: the raw text, quotes stripped, through `strconv.ParseUint(s, 10, bits)`. */
function uintDecoder(bits: 32 | 64): (value: unknown, current: bigint, raw: string | undefined) => bigint {
  const max = bits === 64 ? UINT64_MAX : 0xffffffffn
  return (value, current, raw) => {
    let text = rawText(value, raw)
    if (text === 'null') return current
    if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1)
    if (!/^[0-9]+$/.test(text)) fail(`strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`)
    const n = BigInt(text)
    if (n > max) fail(`strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`)
    return n
  }
}

/**
 * avalanchego `json.Uint64`: a bare or a quoted decimal number (`5`, `"5"`), no sign, fraction or
 * exponent, at most 2^64-1; `null` keeps the current value.
 */
export const uint64: FieldDecoder<bigint> = { zero: () => 0n, decode: uintDecoder(64) }

/** avalanchego `json.Uint32`: as {@link uint64}, at most 2^32-1. */
export const uint32: FieldDecoder<number> = {
  zero: () => 0,
  decode: (value, current, raw) => Number(uintDecoder(32)(value, BigInt(current), raw)),
}

/**
 * `ids.NodeID`: `"NodeID-<cb58>"` read from the raw text between the quotes (so an escape
 * fails as in Go); `null` keeps the current value. Decodes to the canonical `NodeID-…` string.
 */
export const nodeId: FieldDecoder<string> = {
  zero: () => EMPTY_NODE_ID,
  decode: (value, current, raw) => {
    const text = rawText(value, raw)
    if (text === 'null') return current
    if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) fail('missing quotes')
    let bytes: Uint8Array
    try {
      // ids.NodeID.UnmarshalJSON: the text between the quotes, escapes and all.
      bytes = parseNodeIdJson(text.slice(1, -1))
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error))
    }
    return nodeIdToString(bytes)
  },
}

/**
 * `ids.ID`: a quoted cb58 string of 32 bytes (raw text between the quotes); `null` keeps the
 * current value. Decodes to the canonical cb58 string.
 */
export const cb58Id: FieldDecoder<string> = {
  zero: () => EMPTY_ID,
  decode: (value, current, raw) => {
    const text = rawText(value, raw)
    if (text === 'null') return current
    if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) fail('missing quotes')
    try {
      return idToString(idFromString(text.slice(1, -1)))
    } catch (error) {
      return fail(`couldn't decode ID to bytes: ${error instanceof Error ? error.message : String(error)}`)
    }
  },
}

/**
 * A Go slice: a JSON array decoded element by element into the existing elements (zero values
 * past them), `null` makes it empty (nil).
 */
export function array<T>(element: FieldDecoder<T>): FieldDecoder<T[]> {
  return {
    zero: () => [],
    decode: (value, current) => {
      if (value === null) return []
      if (!Array.isArray(value)) fail(`cannot unmarshal ${kindOf(value)} into a slice`)
      const raws = jsonElementRaws(value)
      return value.map((item, i) => element.decode(item, i < current.length ? (current[i] as T) : element.zero(), raws?.[i]))
    },
  }
}

/** `[]string`. */
export const strArray: FieldDecoder<string[]> = array(str)

/** `[]ids.NodeID`. */
export const nodeIdArray: FieldDecoder<string[]> = array(nodeId)

/** A Go pointer field (`*T`): undefined when absent or `null`, else the decoded value. */
export function optional<T>(inner: FieldDecoder<T>): FieldDecoder<T | undefined> {
  return {
    zero: () => undefined,
    decode: (value, current, raw) => (value === null ? undefined : inner.decode(value, current ?? inner.zero(), raw)),
  }
}

/** A Go struct: object members decoded into its fields (see the module comment); `null` changes nothing. */
export function struct<F extends FieldDecoders>(fields: F): FieldDecoder<ParamsOf<F>> {
  const names = Object.keys(fields)
  const folded = new Map<string, string>()
  for (const name of names) if (!folded.has(foldName(name))) folded.set(foldName(name), name)

  const zero = (): ParamsOf<F> => {
    const out: Record<string, unknown> = {}
    for (const name of names) out[name] = fields[name]!.zero()
    return out as ParamsOf<F>
  }
  return {
    zero,
    decode: (value, current) => {
      if (value === null) return current
      if (typeof value !== 'object' || Array.isArray(value)) fail(`cannot unmarshal ${kindOf(value)} into a struct`)
      const members = jsonMembers(value) ?? Object.entries(value as object).map(([key, v]) => ({ key, value: v as unknown, raw: undefined }))
      const out: Record<string, unknown> = { ...current }
      for (const member of members) {
        const name = Object.hasOwn(fields, member.key) ? member.key : folded.get(foldName(member.key))
        if (name === undefined) continue
        out[name] = fields[name]!.decode(member.value, out[name], member.raw)
      }
      return out as ParamsOf<F>
    },
  }
}

/**
 * The `params` of a method whose args struct has these fields (keyed by their JSON names):
 * an object, `[object]` (or `[]`, `[null]`), or absent/`null` params (all zero values).
 * @example
 * const aliasParams = objectParams({ endpoint: str, alias: str })
 * aliasParams({ endpoint: 'bc/X', alias: 'x' }) // { endpoint: 'bc/X', alias: 'x' }
 * aliasParams([{ Endpoint: 'bc/X' }]) // { endpoint: 'bc/X', alias: '' }
 * aliasParams('x') // throws NodeArgumentError
 */
export function objectParams<F extends FieldDecoders>(fields: F): (raw: unknown) => ParamsOf<F> {
  const decoder = struct(fields)
  return (raw) => {
    const zero = decoder.zero()
    if (raw === undefined || raw === null) return zero
    if (Array.isArray(raw)) {
      // json.Unmarshal into [1]interface{}{args}: the first element (if any) into args, the rest skipped.
      return raw.length === 0 ? zero : decoder.decode(raw[0], zero, undefined)
    }
    return decoder.decode(raw, zero, undefined)
  }
}

/** The params of a method whose args are `struct{}`: still an object, `[…]`, or absent/`null`. */
export const noParams: (raw: unknown) => Record<string, never> = objectParams({})
