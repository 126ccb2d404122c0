/**
 * Pieces the `platform` methods share: param decoders for avalanchego types the generic ones do
 * not cover (`formatting.Encoding`, `platformapi.Height`, `[]ids.ID`), address parsing and
 * formatting through the node's aliases, `formatting.Encode`, `platformapi.Owner` and Go's
 * `time.Time` JSON.
 */
import { sha256 } from '../../../core/sha256.js'
import { formatAddress, hrpForNetworkId, parseAddress } from '../../../core/address.js'
import { cb58Decode } from '../../../core/cb58.js'
import { bytesToHex } from '../../../core/hex.js'
import { idFromString } from '../../../core/ids.js'
import type { OutputOwners, PChainOwner } from '../../../platform/txs.js'
import { goQuote } from '../goJson.js'
import { array, cb58Id, type FieldDecoder } from '../params.js'
import { NodeArgumentError, NodeRpcError } from '../types.js'
import type { PlatformContext } from './context.js'

// --- params --------------------------------------------------------------------------------

/** `formatting.Encoding` as JSON names it. */
export type Encoding = 'hex' | 'hexnc' | 'hexc' | 'json'

/**
 * `formatting.Encoding.UnmarshalJSON`: the raw JSON text lower-cased must be `"hex"`, `"hexnc"`,
 * `"hexc"` or `"json"` (so `"HEX"` is fine, an escape is not); `null` keeps the current value; the
 * zero value is `hex`. Anything else fails the params (`invalid encoding`).
 */
export const encodingField: FieldDecoder<Encoding> = {
  zero: () => 'hex',
  decode: (value, current, raw) => {
    const text = (raw ?? JSON.stringify(value) ?? 'null').toLowerCase()
    if (text === 'null') return current
    switch (text) {
      case '"hex"':
        return 'hex'
      case '"hexnc"':
        return 'hexnc'
      case '"hexc"':
        return 'hexc'
      case '"json"':
        return 'json'
    }
    throw new NodeArgumentError('invalid encoding')
  },
}

/** `[]ids.ID`. */
export const idArray: FieldDecoder<string[]> = array(cb58Id)

/** `platformapi.ProposedHeight`: `"proposed"` on the wire, MaxUint64 inside. */
export const PROPOSED_HEIGHT = (1n << 64n) - 1n

/**
 * `platformapi.Height`: `null` keeps the value (zero: height 0), exactly `"proposed"` is
 * {@link PROPOSED_HEIGHT}, else a `json.Uint64` (bare or quoted) below MaxUint64; anything else
 * fails the params (`invalid height`).
 */
export const heightField: FieldDecoder<bigint> = {
  zero: () => 0n,
  decode: (value, current, raw) => {
    const text = raw ?? (typeof value === 'bigint' ? value.toString() : JSON.stringify(value) ?? 'null')
    if (text === 'null') return current
    if (text === '"proposed"') return PROPOSED_HEIGHT
    let digits = text
    if (digits.length >= 2 && digits.startsWith('"') && digits.endsWith('"')) digits = digits.slice(1, -1)
    if (!/^[0-9]+$/.test(digits) || BigInt(digits) >= PROPOSED_HEIGHT) throw new NodeArgumentError('invalid height')
    return BigInt(digits)
  },
}

// --- encoding ------------------------------------------------------------------------------

/** `formatting.Encode`: `hex`/`hexc` append the last 4 bytes of sha256 (checksum), `hexnc` does not; `json` is refused. */
export function encodeBytes(encoding: Encoding, bytes: Uint8Array): string {
  if (encoding === 'json') throw new NodeRpcError('unsupported encoding in method')
  if (encoding === 'hexnc') return bytesToHex(bytes)
  const checked = new Uint8Array(bytes.length + 4)
  checked.set(bytes)
  checked.set(sha256(bytes).subarray(28), bytes.length)
  return bytesToHex(checked)
}

/**
 * `formatting.Decode`: an empty string is no bytes; `hex`/`hexc`/`hexnc` need the `0x` prefix and
 * Go's hex digits, and `hex`/`hexc` end in the 4-byte sha256 checksum, which is checked and cut.
 * Throws with Go's texts (`missing 0x prefix to hex encoding`, `encoding/hex: invalid byte: U+0067
 * 'g'`, `encoding/hex: odd length hex string`, `input string is smaller than the checksum size`,
 * `invalid input checksum`, `unsupported encoding in method`).
 */
export function decodeBytes(encoding: Encoding, text: string): Uint8Array {
  if (text.length === 0) return new Uint8Array()
  if (encoding === 'json') throw new NodeRpcError('unsupported encoding in method')
  if (!text.startsWith('0x')) throw new NodeRpcError('missing 0x prefix to hex encoding')
  const bytes = goHexDecode(text.slice(2))
  if (encoding === 'hexnc') return bytes
  if (bytes.length < 4) throw new NodeRpcError('input string is smaller than the checksum size')
  const raw = bytes.subarray(0, bytes.length - 4)
  const sum = sha256(raw).subarray(28)
  if (!sum.every((b, i) => b === bytes[raw.length + i])) throw new NodeRpcError('invalid input checksum')
  return raw
}

/** Go's `hex.DecodeString` over the UTF-8 bytes of `digits`: a bad byte is reported before an odd length. */
function goHexDecode(digits: string): Uint8Array {
  const src = new TextEncoder().encode(digits)
  const value = (b: number) => (b >= 48 && b <= 57 ? b - 48 : b >= 97 && b <= 102 ? b - 87 : b >= 65 && b <= 70 ? b - 55 : -1)
  const out = new Uint8Array(src.length >> 1)
  let j = 1
  for (; j < src.length; j += 2) {
    const a = value(src[j - 1]!), b = value(src[j]!)
    if (a < 0) throw invalidHexByte(src[j - 1]!)
    if (b < 0) throw invalidHexByte(src[j]!)
    out[(j - 1) >> 1] = (a << 4) | b
  }
  if (src.length % 2 === 1) {
    if (value(src[j - 1]!) < 0) throw invalidHexByte(src[j - 1]!)
    throw new NodeRpcError('encoding/hex: odd length hex string')
  }
  return out
}

/** `hex.InvalidByteError`: `%#U` of the byte as a rune (`U+0067 'g'`; the quoted glyph only when printable). */
function invalidHexByte(byte: number): NodeRpcError {
  const code = `U+${byte.toString(16).toUpperCase().padStart(4, '0')}`
  const glyph = String.fromCodePoint(byte)
  const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(glyph)
  return new NodeRpcError(`encoding/hex: invalid byte: ${printable ? `${code} '${glyph}'` : code}`)
}

/** `formatting.Encode(HexNC, b)`, as `types.JSONByteSlice` and BLS keys are written. */
export const hexnc = (bytes: Uint8Array): string => bytesToHex(bytes)

// --- chains and addresses ------------------------------------------------------------------

/** `BCLookup.Lookup`, with the P-chain-only default. */
export function lookupChain(ctx: PlatformContext, alias: string): string | undefined {
  if (ctx.lookupChain) return ctx.lookupChain(alias)
  const p = ctx.pchain.chainId
  return alias === 'P' || alias === 'platform' || alias === p ? p : undefined
}

export const hrpOf = (ctx: PlatformContext): string => hrpForNetworkId(ctx.pchain.config.networkId)

/** `FormatLocalAddress`: `P-<hrp>1…`. */
export function formatLocal(ctx: PlatformContext, addr: Uint8Array): string {
  return formatAddress('P', hrpOf(ctx), addr)
}

/** What a chain's `ParseServiceAddress` checks a localized address against. */
export type LocalAddressRules = {
  /** `BCLookup.Lookup`: alias or chain id → chain id. */
  lookup(alias: string): string | undefined
  hrp: string
  /** This chain's id: the alias must name it. */
  chainId: string
  /** The VM's words when the alias names another chain. */
  wrongChain(got: string): string
}

/**
 * A chain's `ParseServiceAddress`: a cb58 short id, else a local address checked as its address
 * manager does (alias, hrp, length, chain); failures read `couldn't parse address "<addr>": <reason>`.
 */
export function parseLocalServiceAddress(addr: string, rules: LocalAddressRules): Uint8Array {
  try {
    return cb58Decode(addr, 20)
  } catch {
    // not a bare short id: a localized address
  }
  try {
    const parsed = parseAddress(addr)
    const chainId = rules.lookup(parsed.chainAlias)
    if (chainId === undefined) throw new Error(`there is no ID with alias: ${parsed.chainAlias}`)
    if (parsed.hrp !== rules.hrp) throw new Error(`expected hrp ${goQuote(rules.hrp)} but got ${goQuote(parsed.hrp)}`)
    if (parsed.bytes.length !== 20) throw new Error(`invalid hash length: expected 20 bytes but got ${parsed.bytes.length}`)
    if (chainId !== rules.chainId) throw new Error(rules.wrongChain(chainId))
    return parsed.bytes
  } catch (error) {
    throw new NodeRpcError(`couldn't parse address ${goQuote(addr)}: ${(error as Error).message}`)
  }
}

/** `avax.ParseServiceAddress` on the P-chain: `P-…` or a cb58 short id. */
export function parseServiceAddress(ctx: PlatformContext, addr: string): Uint8Array {
  const p = ctx.pchain.chainId
  return parseLocalServiceAddress(addr, {
    lookup: (alias) => lookupChain(ctx, alias),
    hrp: hrpOf(ctx),
    chainId: p,
    wrongChain: (got) => `mismatched chainIDs: expected ${goQuote(p)} but got ${goQuote(got)}`,
  })
}

/** `avax.ParseServiceAddresses`: deduplicated, in first-seen order. */
export function parseServiceAddresses(ctx: PlatformContext, addrs: readonly string[]): Uint8Array[] {
  const out: Uint8Array[] = []
  const seen = new Set<string>()
  for (const a of addrs) {
    const bytes = parseServiceAddress(ctx, a)
    const key = bytesToHex(bytes)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(bytes)
  }
  return out
}

/**
 * `api.Index` as `GetUTXOs` reads it: both fields empty → the zero address and id; otherwise the
 * address through the chain's `ParseServiceAddress` and the UTXO id, with the node's messages.
 */
export function parseStartIndex(si: { address: string; utxo: string }, parseAddress: (addr: string) => Uint8Array): { startAddr: Uint8Array; startUtxo: Uint8Array } {
  if (si.address === '' && si.utxo === '') return { startAddr: new Uint8Array(20), startUtxo: new Uint8Array(32) }
  let startAddr: Uint8Array
  try {
    startAddr = parseAddress(si.address)
  } catch (error) {
    throw new NodeRpcError(`couldn't parse start index address ${goQuote(si.address)}: ${(error as Error).message}`)
  }
  try {
    return { startAddr, startUtxo: idFromString(si.utxo) }
  } catch (error) {
    throw new NodeRpcError(`couldn't parse start index utxo: ${(error as Error).message}`)
  }
}

// --- API shapes ----------------------------------------------------------------------------

/** `platformapi.Owner`: locktime (json.Uint64), threshold (json.Uint32), addresses (`P-…`). */
export type ApiOwner = { locktime: string; threshold: string; addresses: string[] }

export function apiOwner(ctx: PlatformContext, owner: OutputOwners | PChainOwner): ApiOwner {
  return {
    locktime: String('locktime' in owner ? owner.locktime : 0n),
    threshold: String(owner.threshold),
    addresses: owner.addrs.map((a) => formatLocal(ctx, a)),
  }
}

/** Go's `time.Time` JSON (RFC 3339 with nanoseconds trimmed) of a unix time, in UTC. */
export function goTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z')
}

/** Orders cb58 ids as Go orders `ids.ID` (by bytes), as database iteration does. */
export function compareIds(a: string, b: string): number {
  const x = bytesToHex(idFromString(a))
  const y = bytesToHex(idFromString(b))
  return x < y ? -1 : x > y ? 1 : 0
}

/** `%q` of an `ids.ID` (a Stringer): its cb58 in quotes. */
export const quoteId = (id: string): string => goQuote(id)
