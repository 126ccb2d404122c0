import { bech32, bech32m } from '@scure/base'
import { ripemd160, sha256 } from './sha256.js'
import { DecodeError, InvalidArgumentError } from './errors.js'

/**
 * X- and P-chain addresses: `<chainAlias>-<bech32(hrp, 20 bytes)>`, as in avalanchego's
 * `utils/formatting/address/address.go`. Classic bech32 (BIP-173), not bech32m.
 */

const ADDRESS_SEPARATOR = '-'
const SHORT_ID_LENGTH = 20
/** BIP-173's limit, which btcutil's `bech32.Decode` enforces. */
const BECH32_MAX_LENGTH = 90
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'

export type ParsedAddress = {
  /** Whatever stood before the first `-`: a chain alias (`X`, `P`) or a chain id; not checked here. */
  chainAlias: string
  /** Lower-case, as btcutil returns it. */
  hrp: string
  bytes: Uint8Array
}

/** `constants.GetHRP`: the bech32 prefix of a network; unknown networks share `custom`. */
export function hrpForNetworkId(networkId: number): string {
  switch (networkId) {
    case 1: return 'avax'
    case 2: return 'cascade'
    case 3: return 'denali'
    case 4: return 'everest'
    case 5: return 'fuji'
    case 10: return 'testing'
    case 12345: return 'local'
    default: return 'custom'
  }
}

/**
 * The 20-byte short id behind an X/P address: `ripemd160(sha256(compressed secp256k1 public key))`
 * (`hashing.PubkeyBytesToAddress`). Only the 33-byte compressed form is accepted, because hashing the
 * uncompressed key gives a different, valid-looking address that no wallet would recognise.
 */
export function shortIdFromPublicKey(compressedPublicKey: Uint8Array): Uint8Array {
  const prefix = compressedPublicKey[0]
  if (compressedPublicKey.length !== 33 || (prefix !== 0x02 && prefix !== 0x03))
    throw new InvalidArgumentError(
      `expected a 33-byte compressed secp256k1 public key but got ${compressedPublicKey.length} bytes`,
    )
  return ripemd160(sha256(compressedPublicKey))
}

/**
 * `address.Format`. Takes the 20 bytes of a short id, which is all avalanchego ever formats.
 * @example formatAddress('X', 'local', shortId) // 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'
 */
export function formatAddress(chainAlias: string, hrp: string, bytes: Uint8Array): string {
  if (bytes.length !== SHORT_ID_LENGTH)
    throw new InvalidArgumentError(`expected ${SHORT_ID_LENGTH} address bytes but got ${bytes.length}`)
  return `${chainAlias}${ADDRESS_SEPARATOR}${bech32.encode(hrp, bech32.toWords(bytes))}`
}

/**
 * `address.Parse`: splits at the first `-`, then decodes the bech32 part with btcutil's checks
 * in btcutil's order, so each bad input gets the message a node would give
 * (`no separator found in address`, `invalid separator index -1`, `invalid checksum (…)`).
 *
 * Like Go it returns the payload whatever its length; callers resolve the chain alias and compare
 * the hrp first, then require 20 bytes (`invalid hash length: expected 20 bytes but got N`), which
 * is the order avalanchego's `addressManager.ParseAddress` reports errors in.
 */
export function parseAddress(str: string): ParsedAddress {
  const separator = str.indexOf(ADDRESS_SEPARATOR)
  if (separator < 0) throw new DecodeError('no separator found in address')
  const { hrp, bytes } = parseBech32(str.slice(separator + 1))
  return { chainAlias: str.slice(0, separator), hrp, bytes }
}

/** btcutil v1.1.3 `bech32.Decode` followed by `ConvertBits(data, 5, 8, true)`. */
function parseBech32(input: string): { hrp: string; bytes: Uint8Array } {
  // Go measures and indexes bytes, not UTF-16 units.
  const raw = new TextEncoder().encode(input)
  if (raw.length > BECH32_MAX_LENGTH || raw.length < 8)
    throw new DecodeError(`invalid bech32 string length ${raw.length}`)
  let hasLower = false
  let hasUpper = false
  for (const byte of raw) {
    if (byte < 33 || byte > 126)
      throw new DecodeError(`invalid character in string: '${String.fromCharCode(byte)}'`)
    hasLower ||= byte >= 97 && byte <= 122
    hasUpper ||= byte >= 65 && byte <= 90
    if (hasLower && hasUpper) throw new DecodeError('string not all lowercase or all uppercase')
  }
  // All bytes are printable ASCII from here on, so string indices equal byte indices.
  const bech = input.toLowerCase()
  const one = bech.lastIndexOf('1')
  if (one < 1 || one + 7 > bech.length) throw new DecodeError(`invalid separator index ${one}`)
  const hrp = bech.slice(0, one)
  const data = bech.slice(one + 1)
  for (const char of data) {
    if (!CHARSET.includes(char))
      throw new DecodeError(`invalid character not part of charset: ${char.charCodeAt(0)}`)
  }
  const decoded = bech32.decodeUnsafe(bech, false)
  if (!decoded) {
    const payload = [...data.slice(0, -6)].map((char) => CHARSET.indexOf(char))
    const expected = bech32.encode(hrp, payload, false).slice(-6)
    const expectedM = bech32m.encode(hrp, payload, false).slice(-6)
    // btcutil v1.1.3 writes the bech32m checksum into the same builder as the bech32 one,
    // so its message shows both concatenated after "bech32m=". Reproduced as nodes print it.
    throw new DecodeError(
      `invalid checksum (expected (bech32=${expected}, bech32m=${expected}${expectedM}), got ${data.slice(-6)})`,
    )
  }
  return { hrp, bytes: convert5To8Padded(decoded.words) }
}

/**
 * btcutil's `ConvertBits(words, 5, 8, true)`: a trailing partial byte is zero-padded and kept,
 * where @scure's `fromWords` would reject it. With padding this conversion cannot fail.
 */
function convert5To8Padded(words: readonly number[]): Uint8Array {
  const out: number[] = []
  let acc = 0
  let bits = 0
  for (const word of words) {
    acc = ((acc << 5) | word) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out.push((acc >> bits) & 0xff)
    }
  }
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff)
  return Uint8Array.from(out)
}
