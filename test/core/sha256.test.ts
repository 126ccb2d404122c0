import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js'
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { ripemd160, sha256 } from '../../src/core/sha256.js'

describe('hashes on node\'s crypto', () => {
  const inputs = [new Uint8Array(), Uint8Array.of(0), Uint8Array.from({ length: 33 }, (_, i) => (i * 37 + 2) & 255), Uint8Array.from({ length: 200 }, (_, i) => i & 255)]

  it('sha256 and ripemd160 give noble\'s bytes, as plain Uint8Arrays', () => {
    for (const bytes of inputs) {
      expect(sha256(bytes)).toEqual(nobleSha256(bytes))
      expect(ripemd160(bytes)).toEqual(nobleRipemd160(bytes))
      expect(Buffer.isBuffer(ripemd160(bytes))).toBe(false)
    }
    // ripemd160('') from the RIPEMD-160 paper's test vectors
    expect(Buffer.from(ripemd160(new Uint8Array())).toString('hex')).toBe('9c1185a5c5e9fc54612808977ee8f548b2258d31')
  })
})
