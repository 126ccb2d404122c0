// The process's keccak256 (src/core/keccak.ts): noble's digests for every length, before and after
// the WebAssembly sponge is ready.
import { describe, expect, it } from 'vitest'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { keccak256, keccakReady } from '../../src/core/keccak.js'
import { seededRandom } from '../helpers/seededRandom.js'

describe('keccak256', () => {
  it('gives noble\'s digest for every length up to several sponge blocks, on subarrays and long inputs', async () => {
    await keccakReady
    const rng = seededRandom(7)
    for (let length = 0; length <= 700; length++) {
      const data = rng.bytes(length)
      expect(keccak256(data)).toEqual(keccak_256(data))
    }
    const big = rng.bytes(600)
    expect(keccak256(big.subarray(33, 517))).toEqual(keccak_256(big.subarray(33, 517)))
    for (const length of [65_536, 200_000]) {
      const data = rng.bytes(length)
      expect(keccak256(data)).toEqual(keccak_256(data))
    }
  })

  it('returns a digest of its own: a later call does not change it', async () => {
    await keccakReady
    const first = keccak256(new Uint8Array([1]))
    const copy = Uint8Array.from(first)
    keccak256(new Uint8Array([2]))
    expect(first).toEqual(copy)
  })
})
