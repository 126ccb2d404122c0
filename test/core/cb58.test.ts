import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes } from '@noble/hashes/utils.js'
import bs58 from 'bs58'
import { describe, expect, it } from 'vitest'
import { cb58Decode, cb58Encode } from '../../src/core/cb58.js'
import { DecodeError } from '../../src/core/errors.js'
import { expectThrows } from '../helpers/expectThrows.js'

const expectDecodeError = (fn: () => unknown, message: string) => expectThrows(fn, DecodeError, message)

// Vectors from avalanchego utils/cb58/cb58_test.go.
const id32 = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
const vectors: [Uint8Array, string][] = [
  [new Uint8Array(), '45PJLL'],
  [Uint8Array.of(0), '1c7hwa'],
  [Uint8Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255), '1NVSVezva3bAtJesnUj'],
  [id32, 'SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQU'],
]

describe('cb58', () => {
  it.each(vectors)('encodes and decodes %#', (bytes, str) => {
    expect(cb58Encode(bytes)).toBe(str)
    expect(cb58Decode(str)).toEqual(bytes)
  })

  it('writes and reads base58 as the bs58 package does, leading zeros and long inputs included', () => {
    // A fixed pseudo-random sequence (xorshift), so a failure is reproducible.
    let x = 0x2545f491
    const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0)
    for (let i = 0; i < 500; i++) {
      const bytes = Uint8Array.from({ length: i % 70 }, (_, j) => (j < i % 4 ? 0 : next() % (i % 3 === 0 ? 3 : 256)))
      const text = cb58Encode(bytes)
      expect(text).toBe(bs58.encode(concatBytes(bytes, sha256(bytes).subarray(28))))
      expect(cb58Decode(text)).toEqual(bytes)
    }
  })

  it('keeps leading zero bytes as 1s', () => {
    expect(cb58Decode('11111111111111111111111111111111LpoYY', 32)).toEqual(new Uint8Array(32))
  })

  it('uses the last 4 bytes of a single sha256 as checksum', () => {
    const hash = sha256(id32)
    expect(cb58Encode(id32)).toBe(bs58.encode(concatBytes(id32, hash.subarray(28))))
    expect(cb58Encode(id32)).not.toBe(bs58.encode(concatBytes(id32, hash.subarray(0, 4))))
  })

  it.each([
    ['', 'base58 decoding error: zero length string'],
    ['SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQ0', "base58 decoding error: Invalid base58 digit ('0')"],
    ['abcOdef', "base58 decoding error: Invalid base58 digit ('O')"],
    ['ab\ncd', "base58 decoding error: Invalid base58 digit ('\\n')"],
    ["ab'c", "base58 decoding error: Invalid base58 digit ('\\'')"],
    ['abcé', 'base58 decoding error: High-bit set on invalid digit'],
    ['1', 'input string is smaller than the checksum size'],
    ['zzz', 'input string is smaller than the checksum size'],
    ['SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQV', 'invalid input checksum'],
  ])('rejects %j', (input, message) => {
    expectDecodeError(() => cb58Decode(input), message)
  })

  it('checks the length only when asked, after the checksum', () => {
    expect(cb58Decode('1NVSVezva3bAtJesnUj')).toHaveLength(11)
    expectDecodeError(() => cb58Decode('1NVSVezva3bAtJesnUj', 32), 'invalid hash length: expected 32 bytes but got 11')
    expectDecodeError(
      () => cb58Decode('SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQU', 20),
      'invalid hash length: expected 20 bytes but got 32',
    )
  })

  it('round-trips random lengths', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff)
      expect(cb58Decode(cb58Encode(bytes))).toEqual(bytes)
    }
  })
})
