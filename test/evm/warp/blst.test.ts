// Warp signatures on native blst against noble (pure JS) under avalanchego's signature DST: the
// same bytes, both verified by l1sim's BitSetSignature.Verify, and avalanchego's decode rules.
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { numberToBytesBE } from '@noble/curves/utils.js'
import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../../../src/core/hex.js'
import { BLS_SIGNATURE_DST, blsSign, blsVerify } from '../../../src/core/keys.js'
import { encodeAddressedCall, encodeMessage, encodeUnsignedMessage } from '../../../src/evm/warp/codec.js'
import { canonicalValidatorSet, signMessage, verifyWarpMessage } from '../../../src/evm/warp/signature.js'
import { bytes32, identities, offSubgroupG1, offSubgroupG2, validatorInputs } from './helpers.js'

const { longSignatures } = bls12_381
const nobleSign = (secretKey: Uint8Array, message: Uint8Array) =>
  longSignatures.Signature.toBytes(longSignatures.sign(longSignatures.hash(message, BLS_SIGNATURE_DST), secretKey))
const nobleAggregate = (signatures: Uint8Array[]) => longSignatures.Signature.toBytes(longSignatures.aggregateSignatures(signatures))

const nodes = identities(4, 'blst-test')
const set = canonicalValidatorSet(validatorInputs(nodes, [10, 20, 30, 40]))
const unsigned = encodeUnsignedMessage({
  networkId: 12345,
  sourceChainId: bytes32('source-chain'),
  payload: encodeAddressedCall(new Uint8Array(20).fill(3), new TextEncoder().encode('native and noble')),
})
const all = new Uint8Array([0b1111])
const verify = (signature: Uint8Array, message: Uint8Array = unsigned, validators = set, signers: Uint8Array = all) =>
  verifyWarpMessage({ message: encodeMessage(message, { signers, signature }), networkId: 12345, validators })

describe('warp BLS on blst equals noble under the signature DST', () => {
  it('one key: the same 96 bytes, each verified by blsVerify and by the warp verifier', () => {
    for (const [i, node] of nodes.entries()) {
      const message = new TextEncoder().encode(`message ${i}`)
      const native = blsSign(node.blsSecretKey, message)
      expect(native).toEqual(nobleSign(node.blsSecretKey, message))
      expect(blsVerify({ publicKey: node.blsPublicKey, message, signature: native })).toBe(true)
      // noble's own public key is the one the node identity reports.
      expect(longSignatures.getPublicKey(node.blsSecretKey).toBytes(true)).toEqual(hexToBytes(node.blsPublicKey))
    }
  })

  it('a whole set: signMessage gives noble aggregate of the signers’ own signatures; both verify', () => {
    const native = signMessage(unsigned, nodes, set)
    expect(native.signers).toEqual(all)
    const noble = nobleAggregate(nodes.map((n) => nobleSign(n.blsSecretKey, unsigned)))
    expect(native.signature).toEqual(noble)
    expect(verify(native.signature)).toBeUndefined()
    expect(verify(noble)).toBeUndefined()
  })

  it('refuses a signature by a key outside the set and one over a tampered message', () => {
    const outsider = identities(1, 'blst-outsider')[0]!
    expect(verify(nobleSign(outsider.blsSecretKey, unsigned))).toBe('cannot verify warp signature: signature is invalid')
    expect(verify(blsSign(outsider.blsSecretKey, unsigned))).toBe('cannot verify warp signature: signature is invalid')
    const signature = signMessage(unsigned, nodes, set).signature
    const tampered = unsigned.slice()
    tampered[tampered.length - 1]! ^= 1
    expect(verify(signature, tampered)).toBe('cannot verify warp signature: signature is invalid')
    expect(verify(nobleAggregate(nodes.map((n) => nobleSign(n.blsSecretKey, unsigned))), tampered)).toBe(
      'cannot verify warp signature: signature is invalid',
    )
    expect(blsVerify({ publicKey: outsider.blsPublicKey, message: unsigned, signature })).toBe(false)
  })

  it('keys that cancel out: signed one by one (no summed key), and the aggregate key at infinity never verifies', () => {
    const secret = 0x1234n
    const keys = [secret, bls12_381.fields.Fr.ORDER - secret].map((k) => numberToBytesBE(k, 32))
    const pair = keys.map((k, i) => ({ nodeId: `NodeID-${i}`, weight: 1n, blsPublicKey: longSignatures.getPublicKey(k).toBytes(true) }))
    const cancelling = canonicalValidatorSet(pair)
    const signed = signMessage(unsigned, keys.map((blsSecretKey) => ({ blsSecretKey })), cancelling)
    // σ + (−σ): the signature at infinity (noble's aggregateSignatures refuses to make it).
    const [first, second] = keys.map((k) => longSignatures.Signature.fromBytes(nobleSign(k, unsigned)))
    expect(first!.add(second!).is0()).toBe(true)
    expect(signed.signature).toEqual(Uint8Array.from({ length: 96 }, (_, i) => (i === 0 ? 0xc0 : 0)))
    expect(verify(signed.signature, unsigned, cancelling, signed.signers)).toBe('cannot verify warp signature: signature is invalid')
  })

  it("decodes keys and signatures by avalanchego's rules (decompress, then KeyValidate / SigValidate)", () => {
    const infinityKey = new Uint8Array(48)
    infinityKey[0] = 0xc0
    const offKey = offSubgroupG1()
    expect(() => bls12_381.G1.Point.fromBytes(offKey)).toThrow(/subgroup/)
    const keyError = (blsPublicKey: Uint8Array) => {
      try {
        canonicalValidatorSet([{ nodeId: 'NodeID-x', weight: 1n, blsPublicKey }])
      } catch (error) {
        return (error as Error).message
      }
    }
    expect(keyError(new Uint8Array(48).fill(0xff))).toBe("validator NodeID-x: couldn't decompress public key")
    expect(keyError(infinityKey)).toBe('validator NodeID-x: invalid public key')
    expect(keyError(offKey)).toBe('validator NodeID-x: invalid public key')

    const signature = signMessage(unsigned, nodes, set).signature
    for (const publicKey of [infinityKey, offKey]) expect(blsVerify({ publicKey, message: unsigned, signature })).toBe(false)

    const offSignature = offSubgroupG2()
    expect(() => longSignatures.Signature.fromBytes(offSignature)).toThrow(/subgroup/)
    expect(verify(offSignature)).toBe('cannot verify warp signature: failed to parse signature: invalid signature')
    expect(verify(new Uint8Array(96).fill(0x11))).toBe("cannot verify warp signature: failed to parse signature: couldn't decompress signature")
    // SigValidate(false) lets infinity through; the pairing refuses it.
    const infinitySignature = new Uint8Array(96)
    infinitySignature[0] = 0xc0
    expect(verify(infinitySignature)).toBe('cannot verify warp signature: signature is invalid')
    expect(blsVerify({ publicKey: nodes[0]!.blsPublicKey, message: unsigned, signature: offSignature })).toBe(false)
  })
})
