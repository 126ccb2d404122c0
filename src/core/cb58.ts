import { sha256 } from './sha256.js'
import { concatBytes } from '@noble/hashes/utils.js'
import { DecodeError } from './errors.js'

/**
 * cb58 is how avalanchego writes every id (`ids.ID`, `ids.ShortID`, `NodeID-…`, `PrivateKey-…`):
 * base58 (Bitcoin alphabet) of `bytes ‖ checksum`. The checksum is the LAST 4 bytes of a single
 * sha256, not the first 4 of a double sha256 as in Bitcoin's base58check, so no base58check
 * library can be used. Mirrors `utils/cb58/cb58.go`.
 */
const CHECKSUM_LENGTH = 4

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

function checksum(bytes: Uint8Array): Uint8Array {
  return sha256(bytes).subarray(32 - CHECKSUM_LENGTH)
}

/** Nine base58 digits: the most that fit a double exactly (58^9 < 2^53). */
const CHUNK_DIGITS = 9
const CHUNK = 58n ** BigInt(CHUNK_DIGITS)

/**
 * Base58 with the Bitcoin alphabet, leading zero bytes as `1`s (mr-tron's and the `bs58`
 * package's text), through one BigInt and nine digits per division, where bs58's byte-by-byte
 * carry loop runs thousands of interpreted iterations per id in a cold process (~5 ms of a start's
 * ids). `test/core/cb58.test.ts` compares the two.
 */
function base58Encode(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  let n = zeros === bytes.length ? 0n : BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`)
  let digits = ''
  while (n > 0n) {
    let chunk = Number(n % CHUNK)
    n /= CHUNK
    // A lower chunk keeps its zero digits; the top one stops at its last non-zero digit.
    for (let k = 0; k < CHUNK_DIGITS && (n > 0n || chunk > 0); k++) {
      digits = ALPHABET[chunk % 58]! + digits
      chunk = Math.floor(chunk / 58)
    }
  }
  return '1'.repeat(zeros) + digits
}

/** The inverse of {@link base58Encode}, for a string of base58 digits only (see {@link assertBase58}). */
function base58Decode(str: string): Uint8Array {
  let zeros = 0
  while (zeros < str.length && str[zeros] === '1') zeros++
  let n = 0n
  for (let i = zeros; i < str.length; i += CHUNK_DIGITS) {
    const end = Math.min(i + CHUNK_DIGITS, str.length)
    let chunk = 0
    for (let j = i; j < end; j++) chunk = chunk * 58 + ALPHABET.indexOf(str[j]!)
    n = n * (end - i === CHUNK_DIGITS ? CHUNK : 58n ** BigInt(end - i)) + BigInt(chunk)
  }
  const hex = n === 0n ? '' : n.toString(16)
  const out = new Uint8Array(zeros + Math.ceil(hex.length / 2))
  out.set(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'), zeros)
  return out
}

/** Encodes bytes (any length, empty included) as cb58: `cb58Encode(new Uint8Array())` is `45PJLL`. */
export function cb58Encode(bytes: Uint8Array): string {
  return base58Encode(concatBytes(bytes, checksum(bytes)))
}

/**
 * Go's `%q` of an ASCII rune, so a bad digit reads as avalanchego reports it: `'0'`, `'\n'`, `'\x00'`.
 * Only ASCII reaches it: mr-tron rejects code points above 127 with a message of its own.
 */
function goQuoteAsciiRune(char: string): string {
  const code = char.charCodeAt(0)
  const escapes: Record<string, string> = {
    '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
    "'": "\\'", '\\': '\\\\',
  }
  const escaped = escapes[char]
  if (escaped !== undefined) return `'${escaped}'`
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`
  return `'${char}'`
}

/**
 * Checks the digits the way mr-tron/base58 v1.2.0 (`base58/base58.go`, the package avalanchego
 * imports) does, in the same order, so the first bad character gives the same message. bs58 would
 * only say "Non-base58 character".
 */
function assertBase58(str: string): void {
  if (str.length === 0) throw new DecodeError('base58 decoding error: zero length string')
  for (const char of str) {
    if (char.codePointAt(0)! > 127) throw new DecodeError('base58 decoding error: High-bit set on invalid digit')
    if (!ALPHABET.includes(char))
      throw new DecodeError(`base58 decoding error: Invalid base58 digit (${goQuoteAsciiRune(char)})`)
  }
}

/**
 * Decodes a cb58 string and verifies its checksum. With `expectedLength` (32 for an id, 20 for a
 * short id or node id) the payload length is checked too, after the checksum, as `ids.ToID` does.
 *
 * Messages are avalanchego's, because API handlers pass them through to clients:
 * `base58 decoding error: Invalid base58 digit ('0')`, `input string is smaller than the checksum size`,
 * `invalid input checksum`, `invalid hash length: expected 32 bytes but got 20`.
 *
 * @example cb58Decode('11111111111111111111111111111111LpoYY', 32) // 32 zero bytes
 */
export function cb58Decode(str: string, expectedLength?: number): Uint8Array {
  assertBase58(str)
  const decoded = base58Decode(str)
  if (decoded.length < CHECKSUM_LENGTH) throw new DecodeError('input string is smaller than the checksum size')
  const payload = decoded.subarray(0, decoded.length - CHECKSUM_LENGTH)
  const actual = decoded.subarray(decoded.length - CHECKSUM_LENGTH)
  const expected = checksum(payload)
  if (!actual.every((byte, i) => byte === expected[i])) throw new DecodeError('invalid input checksum')
  if (expectedLength !== undefined && payload.length !== expectedLength)
    throw new DecodeError(`invalid hash length: expected ${expectedLength} bytes but got ${payload.length}`)
  return Uint8Array.from(payload)
}
