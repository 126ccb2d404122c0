// keccak256 in WebAssembly (src/core/keccakWasm.ts): the digests of noble for every length, long
// inputs handed to the fallback.
import { describe, expect, it } from 'vitest'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createWasmKeccak256 } from '../../src/core/keccakWasm.js'
import { seededRandom } from '../helpers/seededRandom.js'

describe('keccak256 in WebAssembly', () => {
  const lengths: number[] = []
  const keccak = createWasmKeccak256((data) => {
    lengths.push(data.length)
    return keccak_256(data)
  })!

  it('gives noble\'s digest for every length up to several sponge blocks, and on subarrays', () => {
    const rng = seededRandom(7)
    for (let length = 0; length <= 700; length++) {
      const data = rng.bytes(length)
      expect(keccak(data)).toEqual(keccak_256(data))
    }
    const big = rng.bytes(600)
    expect(keccak(big.subarray(33, 517))).toEqual(keccak_256(big.subarray(33, 517)))
    expect(lengths).toEqual([])
  })

  it('hashes what fits its memory itself and hands longer inputs to the fallback', () => {
    const rng = seededRandom(8)
    for (const length of [65_536, 130_000, 130_680, 130_681, 200_000]) {
      const data = rng.bytes(length)
      expect(keccak(data)).toEqual(keccak_256(data))
    }
    expect(lengths).toEqual([130_681, 200_000])
  })

  it('returns a digest of its own: a later call does not change it', () => {
    const first = keccak(new Uint8Array([1]))
    const copy = Uint8Array.from(first)
    keccak(new Uint8Array([2]))
    expect(first).toEqual(copy)
  })
})
