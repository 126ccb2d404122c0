// Canonical validator sets, BLS signing and BitSetSignature.Verify with avalanchego's error texts.
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../../../src/core/hex.js'
import { blsSign, blsVerify } from '../../../src/core/keys.js'
import { encodeAddressedCall, encodeMessage, encodeUnsignedMessage, parseMessage } from '../../../src/evm/warp/codec.js'
import { canonicalValidatorSet, createPublicKeyCache, signMessage, verifySignature, verifyWarpMessage, warpSourceSubnet } from '../../../src/evm/warp/signature.js'
import { bytes32, identities, validatorInputs } from './helpers.js'

const nodes = identities(5)
const weights = [10, 20, 30, 40, 50]
// A sixth validator without a BLS key: counts in the total weight only.
const keyless = { nodeId: 'NodeID-keyless', weight: 50n }
const set = canonicalValidatorSet([...validatorInputs(nodes, weights), keyless])
const unsigned = encodeUnsignedMessage({
  networkId: 12345,
  sourceChainId: bytes32('source-chain'),
  payload: encodeAddressedCall(new Uint8Array(20).fill(7), new TextEncoder().encode('hello')),
})
/** The identities whose keys sit at the given canonical indexes. */
const at = (...indexes: number[]) =>
  indexes.map((i) => nodes.find((n) => n.nodeId === set.validators[i]!.nodeIds[0])!)
const weightOf = (...indexes: number[]) => indexes.reduce((s, i) => s + set.validators[i]!.weight, 0n)

describe('canonicalValidatorSet', () => {
  it('sorts by uncompressed key, keeps keyless weight in the total, merges shared keys', () => {
    expect(set.totalWeight).toBe(200n)
    expect(set.validators).toHaveLength(5)
    const uncompressed = nodes.map((n) => bls12_381.G1.Point.fromHex(n.blsPublicKey.slice(2)).toBytes(false))
    const expected = [...uncompressed].sort((a, b) => Buffer.compare(a, b))
    expect(set.validators.map((v) => v.publicKeyBytes)).toEqual(expected)
    for (const v of set.validators) expect(v.publicKeyBytes).toHaveLength(96)

    const merged = canonicalValidatorSet([
      { nodeId: 'NodeID-a', weight: 5n, blsPublicKey: hexToBytes(nodes[0]!.blsPublicKey) },
      { nodeId: 'NodeID-b', weight: 7, blsPublicKey: hexToBytes(nodes[0]!.blsPublicKey) },
    ])
    expect(merged.validators).toHaveLength(1)
    expect(merged.validators[0]!.weight).toBe(12n)
    expect(merged.validators[0]!.nodeIds).toEqual(['NodeID-a', 'NodeID-b'])
    expect(merged.totalWeight).toBe(12n)
  })

  it('rejects keys that do not decode and weights that overflow', () => {
    expect(() => canonicalValidatorSet([{ nodeId: 'x', weight: 1n, blsPublicKey: new Uint8Array(48) }])).toThrow(/public key/)
    expect(() =>
      canonicalValidatorSet([
        { nodeId: 'a', weight: (1n << 64n) - 1n },
        { nodeId: 'b', weight: 1n },
      ]),
    ).toThrow('overflow')
  })
})

describe('signMessage', () => {
  it('aggregates the individual signatures and sets one bit per canonical index', () => {
    const sig = signMessage(unsigned, at(0, 2, 4), set)
    expect(sig.signers).toEqual(new Uint8Array([0b10101]))
    const individual = at(0, 2, 4).map((n) => blsSign(n.blsSecretKey, unsigned))
    const aggregate = bls12_381.longSignatures.aggregateSignatures(individual)
    expect(sig.signature).toEqual(bls12_381.longSignatures.Signature.toBytes(aggregate))
    const aggregateKey = bls12_381.longSignatures.aggregatePublicKeys(at(0, 2, 4).map((n) => hexToBytes(n.blsPublicKey)))
    expect(blsVerify({ publicKey: aggregateKey.toBytes(true), message: unsigned, signature: sig.signature })).toBe(true)
  })

  it('refuses signers outside the set and an empty signer list', () => {
    expect(() => signMessage(unsigned, identities(1, 'stranger'), set)).toThrow(/not in the validator set/)
    expect(() => signMessage(unsigned, [], set)).toThrow('no signatures')
  })
})

describe('verifyWarpMessage', () => {
  const signed = (indexes: number[], message = unsigned) =>
    encodeMessage(message, signMessage(message, at(...indexes), set))

  it('accepts a quorum and rejects just below it with the exact weight text', () => {
    // 67% of 200 = 134.
    // Heaviest first until the weight reaches 134.
    const byWeight = [0, 1, 2, 3, 4].sort((a, b) => Number(weightOf(b) - weightOf(a)))
    const chosen: number[] = []
    for (const i of byWeight) if (weightOf(...chosen) * 100n < 200n * 67n) chosen.push(i)
    expect(weightOf(...chosen) * 100n).toBeGreaterThanOrEqual(13_400n)
    expect(weightOf(...chosen.slice(0, -1)) * 100n).toBeLessThan(13_400n)
    expect(verifyWarpMessage({ message: signed(chosen), networkId: 12345, validators: set, quorumNumerator: 0 })).toBeUndefined()
    const all = [0, 1, 2, 3, 4]
    expect(verifyWarpMessage({ message: parseMessage(signed(all)), networkId: 12345, validators: set })).toBeUndefined()

    const few = [0, 1]
    const weight = weightOf(...few)
    expect(verifyWarpMessage({ message: signed(few), networkId: 12345, validators: set })).toBe(
      `cannot verify warp signature: signature weight is insufficient: 67*200 > 100*${weight}`,
    )
    // The same signers pass a lower configured quorum when heavy enough.
    const heavy = byWeight.slice(0, 2)
    const ratio = (weightOf(...heavy) * 100n) / 200n
    expect(verifyWarpMessage({ message: signed(heavy), networkId: 12345, validators: set, quorumNumerator: ratio })).toBeUndefined()
    expect(
      verifyWarpMessage({ message: signed(heavy), networkId: 12345, validators: set, quorumNumerator: ratio + 1n }),
    ).toBe(`cannot verify warp signature: signature weight is insufficient: ${ratio + 1n}*200 > 100*${weightOf(...heavy)}`)
  })

  it('checks the network id first', () => {
    expect(verifyWarpMessage({ message: signed([0, 1, 2, 3, 4]), networkId: 1, validators: set })).toBe(
      'cannot verify warp signature: wrong networkID',
    )
  })

  it('rejects a signature over other bytes, a garbage signature, padded and out-of-range bit sets', () => {
    const all = [0, 1, 2, 3, 4]
    const other = encodeUnsignedMessage({ networkId: 12345, sourceChainId: bytes32('source-chain'), payload: new Uint8Array([1]) })
    const forged = encodeMessage(unsigned, signMessage(other, at(...all), set))
    expect(verifyWarpMessage({ message: forged, networkId: 12345, validators: set })).toBe(
      'cannot verify warp signature: signature is invalid',
    )
    // Right signature, but the bit set claims a different signer group of equal size.
    const sig = signMessage(unsigned, at(0, 1, 2, 3), set)
    const swapped = encodeMessage(unsigned, { signers: new Uint8Array([0b11110]), signature: sig.signature })
    expect(verifyWarpMessage({ message: swapped, networkId: 12345, validators: set, quorumNumerator: 33 })).toBe(
      'cannot verify warp signature: signature is invalid',
    )
    const garbage = encodeMessage(unsigned, { signers: new Uint8Array([0b11111]), signature: new Uint8Array(96).fill(0x11) })
    expect(verifyWarpMessage({ message: garbage, networkId: 12345, validators: set })).toBe(
      "cannot verify warp signature: failed to parse signature: couldn't decompress signature",
    )
    const tampered = signed(all)
    tampered[tampered.length - 1]! ^= 1
    expect(verifyWarpMessage({ message: tampered, networkId: 12345, validators: set })).toMatch(
      /^cannot verify warp signature: (signature is invalid|failed to parse signature: (couldn't decompress signature|invalid signature))$/,
    )
    const padded = encodeMessage(unsigned, { signers: new Uint8Array([0, 0b11111]), signature: sig.signature })
    expect(verifyWarpMessage({ message: padded, networkId: 12345, validators: set })).toBe(
      'cannot verify warp signature: bitset is invalid',
    )
    const unknown = encodeMessage(unsigned, { signers: new Uint8Array([0b100001]), signature: sig.signature })
    expect(verifyWarpMessage({ message: unknown, networkId: 12345, validators: set })).toBe(
      'cannot verify warp signature: unknown validator: NumIndices (5) >= NumFilteredValidators (5)',
    )
    expect(verifyWarpMessage({ message: new Uint8Array([0, 1]), networkId: 12345, validators: set })).toBe(
      'cannot parse warp message: unknown codec version',
    )
  })

  it('an empty set passes the weight check and fails on aggregation', () => {
    const empty = canonicalValidatorSet([])
    const message = encodeMessage(unsigned, { signers: new Uint8Array(0), signature: signMessage(unsigned, at(0), set).signature })
    expect(verifyWarpMessage({ message, networkId: 12345, validators: empty })).toBe('cannot verify warp signature: no public keys')
  })
})

describe('warpSourceSubnet', () => {
  const zero = new Uint8Array(32)
  const own = bytes32('own-subnet')
  const other = bytes32('other-subnet')
  const cChain = bytes32('c-chain')
  it('uses the own subnet for primary-network sources unless primary signers are required (never for the P-chain)', () => {
    expect(warpSourceSubnet({ sourceChainId: cChain, sourceSubnetId: zero, ownSubnetId: own, requirePrimaryNetworkSigners: false })).toBe(own)
    expect(warpSourceSubnet({ sourceChainId: cChain, sourceSubnetId: zero, ownSubnetId: own, requirePrimaryNetworkSigners: true })).toBe(zero)
    expect(warpSourceSubnet({ sourceChainId: zero, sourceSubnetId: zero, ownSubnetId: own, requirePrimaryNetworkSigners: true })).toBe(own)
    expect(warpSourceSubnet({ sourceChainId: cChain, sourceSubnetId: other, ownSubnetId: own, requirePrimaryNetworkSigners: false })).toBe(other)
  })
})

describe('decoded keys and verdicts kept', () => {
  it('a set built through a key cache equals one built without; a key that does not decode is refused each time', () => {
    const decode = createPublicKeyCache()
    const inputs = [...validatorInputs(nodes, weights), keyless]
    const cached = canonicalValidatorSet(inputs, decode)
    expect(canonicalValidatorSet(inputs, decode).validators.map((v) => v.nodeIds)).toEqual(set.validators.map((v) => v.nodeIds))
    expect(cached.totalWeight).toBe(set.totalWeight)
    const bad = [{ nodeId: 'NodeID-bad', weight: 1n, blsPublicKey: new Uint8Array(48).fill(0xff) }]
    for (let i = 0; i < 2; i++) expect(() => canonicalValidatorSet(bad, decode)).toThrow("validator NodeID-bad: couldn't decompress public key")
  })

  it('a verdict is kept per message, network and quorum: a different quorum or tampered bytes are judged again', () => {
    const fresh = canonicalValidatorSet(validatorInputs(nodes, weights))
    const signed = parseMessage(encodeMessage(unsigned, signMessage(unsigned, at(0, 1, 2, 3, 4), fresh)))
    expect(verifySignature(signed, { networkId: 12345, validators: fresh })).toBeUndefined()
    expect(verifySignature(signed, { networkId: 12345, validators: fresh })).toBeUndefined()
    expect(verifySignature(signed, { networkId: 12345, validators: fresh, quorumNumerator: 101 })).toBe('signature weight is insufficient: 101*150 > 100*150')
    const tampered = { ...signed, unsignedBytes: Uint8Array.from(signed.unsignedBytes, (b, i) => (i === signed.unsignedBytes.length - 1 ? b ^ 1 : b)) }
    expect(verifySignature(tampered, { networkId: 12345, validators: fresh })).toBe('signature is invalid')
    expect(fresh.verdicts!.size).toBe(3)
  })
})
