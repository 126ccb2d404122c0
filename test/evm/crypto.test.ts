// Native bindings and the interpreter cache: the pieces that make execution fast without changing results.
import { describe, expect, it } from 'vitest'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createCustomCrypto, nativeCrypto } from '../../src/evm/crypto.js'

describe('native crypto', () => {
  const crypto = createCustomCrypto()
  it('loads the native bindings on this platform', () => {
    expect(nativeCrypto).toEqual({ secp256k1: true, keccak: true })
  })
  it('keccak256 equals noble for every length around the sponge rate, and on subarrays', () => {
    for (const length of [0, 1, 31, 32, 135, 136, 137, 272, 532, 4096]) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 7 + length) & 0xff)
      expect(crypto.keccak256!(data)).toEqual(keccak_256(data))
    }
    const big = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff)
    expect(crypto.keccak256!(big.subarray(17, 250))).toEqual(keccak_256(big.subarray(17, 250)))
  })
  it('keccak256 results are independent: a later call does not change an earlier digest', () => {
    const a = crypto.keccak256!(new Uint8Array([1]))
    const copy = Uint8Array.from(a)
    crypto.keccak256!(new Uint8Array([2]))
    expect(a).toEqual(copy)
  })
})

describe('jump analysis cache', () => {
  it('is installed on the pinned @ethereumjs/evm (an upgrade must re-check the interpreter internals)', async () => {
    const { jumpAnalysisCache } = await import('../../src/evm/jumpAnalysisCache.js')
    expect(await jumpAnalysisCache).toBe(true)
  })
})
