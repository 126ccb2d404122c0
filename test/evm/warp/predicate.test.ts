// Predicates in access lists: packing, unpacking errors, intrinsic gas and per-tx verification results.
import { describe, expect, it } from 'vitest'
import { encodeAddressedCall, encodeHashPayload, encodeMessage, encodeUnsignedMessage } from '../../../src/evm/warp/codec.js'
import {
  accessListGas,
  encodeBlockPredicateResults,
  packPredicate,
  packPredicateHex,
  predicateGas,
  unpackPredicate,
  verifyPredicates,
  WARP_ADDRESS,
} from '../../../src/evm/warp/predicate.js'
import { bytes32 } from './helpers.js'

const chunk = (...bytes: number[]) => {
  const out = new Uint8Array(32)
  out.set(bytes)
  return out
}

describe('pack / unpack', () => {
  it('matches avalanchego TestNew', () => {
    expect(packPredicate(new Uint8Array(0))).toEqual([chunk(0xff)])
    expect(packPredicate(new Uint8Array([0x42]))).toEqual([chunk(0x42, 0xff)])
    const c31 = new Uint8Array(32)
    c31[31] = 0xff
    expect(packPredicate(new Uint8Array(31))).toEqual([c31])
    expect(packPredicate(new Uint8Array(32))).toEqual([new Uint8Array(32), chunk(0xff)])
    const forty = Uint8Array.from({ length: 40 }, (_, i) => i)
    expect(packPredicate(forty)).toEqual([forty.slice(0, 32), chunk(...forty.slice(32), 0xff)])
    expect(packPredicateHex(new Uint8Array([0x42]))).toEqual([`0x42ff${'00'.repeat(30)}`])
  })

  it('round-trips lengths around the chunk size', () => {
    for (const n of [0, 1, 31, 32, 33, 48, 63, 64, 65, 200]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 13 + 1) & 0xff)
      expect(unpackPredicate(packPredicate(bytes))).toEqual(bytes)
      expect(unpackPredicate(packPredicateHex(bytes))).toEqual(bytes)
    }
  })

  it('rejects malformed predicates with the Go texts', () => {
    expect(() => unpackPredicate([])).toThrow('no delimiter found: length (0)')
    expect(() => unpackPredicate([new Uint8Array(32), new Uint8Array(32)])).toThrow('no delimiter found: length (2)')
    expect(() => unpackPredicate([chunk(1, 0xff), new Uint8Array(32)])).toThrow(
      'predicate included excess padding: got length (2), expected length (1)',
    )
    expect(() => unpackPredicate([chunk(1, 2)])).toThrow(/^wrong delimiter$/)
    expect(() => unpackPredicate([new Uint8Array(31)])).toThrow('a storage key must be 32 bytes but got 31')
  })
})

function signedMessageBytes(signers: Uint8Array, payload = encodeAddressedCall(new Uint8Array(20), new Uint8Array(10))) {
  const unsigned = encodeUnsignedMessage({ networkId: 1, sourceChainId: bytes32('src'), payload })
  return encodeMessage(unsigned, { signers, signature: new Uint8Array(96) })
}

describe('predicateGas', () => {
  it('charges base + per chunk + per signer, pre-Granite and Granite', () => {
    const message = signedMessageBytes(new Uint8Array([0b1011]))
    const keys = packPredicate(message)
    const chunks = BigInt(keys.length)
    expect(chunks).toBe(BigInt(Math.floor(message.length / 32) + 1))
    expect(predicateGas(keys, false)).toBe(200_000n + 3_200n * chunks + 500n * 3n)
    expect(predicateGas(keys, true)).toBe(125_000n + 512n * chunks + 250n * 3n)
    // Concatenated keys count the same.
    expect(predicateGas(Buffer.concat(keys), true)).toBe(125_000n + 512n * chunks + 250n * 3n)
  })

  it('throws when any layer does not parse', () => {
    expect(() => predicateGas([chunk(1, 2)], false)).toThrow('cannot unpack predicate bytes: wrong delimiter')
    expect(() => predicateGas(packPredicate(new Uint8Array([1, 2, 3])), false)).toThrow(
      'cannot unpack warp message: unknown codec version',
    )
    const badPayload = signedMessageBytes(new Uint8Array([1]), new Uint8Array([0, 0, 0, 0, 0, 9]))
    expect(() => predicateGas(packPredicate(badPayload), false)).toThrow(
      'cannot unpack warp message payload: couldn\'t unmarshal interface: unknown type ID 9',
    )
    expect(() => predicateGas(packPredicate(signedMessageBytes(new Uint8Array([0, 1]))), true)).toThrow(
      'cannot fetch num signers from warp message: bitset is invalid',
    )
    // A hash payload is a valid payload for the gas computation.
    expect(predicateGas(packPredicate(signedMessageBytes(new Uint8Array([1]), encodeHashPayload(bytes32('b')))), true)).toBeGreaterThan(0n)
  })

  it('accessListGas replaces the per-key cost of warp tuples only when warp is active', () => {
    const keys = packPredicateHex(signedMessageBytes(new Uint8Array([1])))
    const list = [
      { address: '0x00000000000000000000000000000000000000aa' as const, storageKeys: [`0x${'00'.repeat(32)}` as const] },
      { address: '0x0200000000000000000000000000000000000005' as const, storageKeys: keys },
    ]
    expect(accessListGas(list, { warpActive: false, isGranite: true })).toBe(2400n + 1900n + 2400n + 1900n * BigInt(keys.length))
    expect(accessListGas(list, { warpActive: true, isGranite: true })).toBe(
      2400n + 1900n + predicateGas(keys, true),
    )
  })
})

describe('verifyPredicates', () => {
  it('indexes warp tuples only, records failures as a bit set and feeds getPredicate', () => {
    const good = packPredicate(signedMessageBytes(new Uint8Array([1])))
    const rejected = packPredicate(signedMessageBytes(new Uint8Array([2])))
    const list = [
      { address: '0x00000000000000000000000000000000000000aa' as const, storageKeys: [] },
      { address: WARP_ADDRESS.toUpperCase().replace('0X', '0x') as `0x${string}`, storageKeys: good },
      { address: WARP_ADDRESS, storageKeys: [chunk(1, 2)] },
      { address: WARP_ADDRESS, storageKeys: rejected },
    ]
    const seen: number[] = []
    const result = verifyPredicates(list, (message) => {
      seen.push(message.signature.signers[0]!)
      return message.signature.signers[0] === 2 ? 'cannot verify warp signature: signature is invalid' : undefined
    })
    expect(seen).toEqual([1, 2])
    expect(result.predicates.map((p) => p.error)).toEqual([
      undefined,
      'cannot unpack predicate bytes: wrong delimiter',
      'cannot verify warp signature: signature is invalid',
    ])
    expect(result.failed).toEqual(new Uint8Array([0b110]))
    expect(result.getPredicate(0)).toEqual({ bytes: new Uint8Array(Buffer.concat(good)), valid: true })
    expect(result.getPredicate(2)?.valid).toBe(false)
    expect(result.getPredicate(3)).toBeUndefined()
    expect(verifyPredicates([], () => undefined).failed).toBeUndefined()
    expect(verifyPredicates([{ address: WARP_ADDRESS, storageKeys: good }], () => undefined).failed).toEqual(new Uint8Array(0))
  })

  it('encodes block results as the linear codec map with sorted keys', () => {
    const txA = `0x${'bb'.repeat(32)}` as const
    const txB = `0x${'aa'.repeat(32)}` as const
    const results = new Map([
      [txA, new Map([[WARP_ADDRESS, new Uint8Array([6])]])],
      [txB, new Map([[WARP_ADDRESS, new Uint8Array(0)]])],
    ])
    const warp = WARP_ADDRESS.slice(2)
    expect(Buffer.from(encodeBlockPredicateResults(results)).toString('hex')).toBe(
      '0000' + '00000002' + 'aa'.repeat(32) + '00000001' + warp + '00000000' + 'bb'.repeat(32) + '00000001' + warp + '00000001' + '06',
    )
  })
})
