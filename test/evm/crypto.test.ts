// Native bindings and the interpreter cache: the pieces that make execution fast without changing results.
import { describe, expect, it } from 'vitest'
import { secp256k1 } from '@noble/curves/secp256k1.js'
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
  it('ecsign gives the deterministic recovered signatures of noble byte for byte (low s, same recovery ids)', () => {
    const options = { extraEntropy: false, format: 'recovered', prehash: false } as const
    for (let i = 1; i <= 64; i++) {
      const key = keccak_256(new Uint8Array([i, 1]))
      const message = keccak_256(new Uint8Array([i, 2]))
      expect(crypto.ecsign!(message, key, options)).toEqual(secp256k1.sign(message, key, options))
    }
  })
  it('ecsign leaves signatures with extra entropy to noble', () => {
    const key = keccak_256(new Uint8Array([1]))
    const message = keccak_256(new Uint8Array([2]))
    const options = { extraEntropy: new Uint8Array(32).fill(7), format: 'recovered', prehash: false } as const
    expect(crypto.ecsign!(message, key, options)).toEqual(secp256k1.sign(message, key, options))
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
