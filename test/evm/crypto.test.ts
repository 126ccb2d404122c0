// Native bindings and the interpreter cache: the pieces that make execution fast without changing results.
import { describe, expect, it } from 'vitest'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createCustomCrypto, nativeCrypto } from '../../src/evm/crypto.js'
import { rememberSecp256k1Results } from '../../src/evm/knownSignatures.js'

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

describe('known secp256k1 results (src/evm/knownSignatures.ts)', () => {
  const crypto = createCustomCrypto()
  const options = { extraEntropy: false, format: 'recovered', prehash: false } as const
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
  const key = keccak_256(new Uint8Array([9, 1]))
  const message = keccak_256(new Uint8Array([9, 2]))
  // A table whose entry is not the true signature: answering from it is visible.
  const planted = secp256k1.sign(keccak_256(new Uint8Array([9, 3])), key, options)
  const plantedKey = secp256k1.getPublicKey(keccak_256(new Uint8Array([9, 4])), false)
  const table = {
    signatures: [[hex(message), hex(key), hex(planted.subarray(1)), planted[0]!]] as [string, string, string, number][],
    recoveries: [[hex(planted.subarray(1)), planted[0]!, hex(message), hex(plantedKey)]] as [string, number, string, string][],
  }
  it('answers the signatures and recoveries it holds while installed, and computes everything else', () => {
    const forget = rememberSecp256k1Results(table)
    try {
      expect(crypto.ecsign!(message, key, options)).toEqual(planted)
      const other = keccak_256(new Uint8Array([9, 5]))
      expect(crypto.ecsign!(other, key, options)).toEqual(secp256k1.sign(other, key, options))
      // Not deterministic: never from the table.
      const entropy = { ...options, extraEntropy: new Uint8Array(32).fill(1) } as const
      expect(crypto.ecsign!(message, key, entropy)).toEqual(secp256k1.sign(message, key, entropy))
      const r = planted.subarray(1, 33)
      const s = planted.subarray(33)
      expect(crypto.ecrecover!(message, 27n + BigInt(planted[0]!), r, s)).toEqual(plantedKey.subarray(1))
      expect(crypto.ecrecover!(message, 35n + 2n * 5n + BigInt(planted[0]!), r, s, 5n)).toEqual(plantedKey.subarray(1))
      // Another v or message recovers as before; a v no recovery accepts fails as before.
      const flipped = secp256k1.Signature.fromBytes(planted, 'recovered').addRecoveryBit(planted[0]! ^ 1).recoverPublicKey(message).toBytes(false)
      expect(crypto.ecrecover!(message, 27n + BigInt(planted[0]! ^ 1), r, s)).toEqual(flipped.subarray(1))
      expect(() => crypto.ecrecover!(message, 29n, r, s)).toThrow('Invalid signature v value')
    } finally {
      forget()
    }
    expect(crypto.ecsign!(message, key, options)).toEqual(secp256k1.sign(message, key, options))
  })
  it('skips malformed entries', () => {
    const forget = rememberSecp256k1Results({ signatures: [[hex(message), hex(key), 'zz', 0], [hex(message)] as never], recoveries: 7 as never })
    try {
      expect(crypto.ecsign!(message, key, options)).toEqual(secp256k1.sign(message, key, options))
    } finally {
      forget()
    }
  })
})

describe('jump analysis cache', () => {
  it('is installed on the pinned @ethereumjs/evm (an upgrade must re-check the interpreter internals)', async () => {
    const { jumpAnalysisCache } = await import('../../src/evm/jumpAnalysisCache.js')
    expect(await jumpAnalysisCache).toBe(true)
  })
})
