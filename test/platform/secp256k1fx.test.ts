import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { cb58Encode } from '../../src/core/cb58.js'
import { InvalidArgumentError } from '../../src/core/errors.js'
import { bytesToHex } from '../../src/core/hex.js'
import {
  Secp256k1fxError,
  addressFromPrivateKey,
  addressFromPublicKey,
  credentialFor,
  formatPAddress,
  formatXAddress,
  matchOwners,
  parseChainAddress,
  publicKeyOf,
  recoverAddress,
  recoverPublicKey,
  sign,
  signHash,
  sortAddresses,
  verifyCredentials,
  verifyInput,
  verifyOutputOwners,
  verifyOwners,
  verifyTransferInput,
  verifyTransferOutput,
} from '../../src/platform/secp256k1fx.js'
import type { OutputOwners } from '../../src/platform/txs.js'
import { expectThrows } from '../helpers/expectThrows.js'
import { ajs, bytes32 } from './fixtures/ajs.js'

const { secp256k1: ajsSecp, utils } = ajs

const hex = (b: Uint8Array) => bytesToHex(b)
const K1 = bytes32('k1')
const K2 = bytes32('k2')
const K3 = bytes32('k3')
const [A1, A2, A3] = [K1, K2, K3].map(addressFromPrivateKey) as [Uint8Array, Uint8Array, Uint8Array]
const MSG = new TextEncoder().encode('unsigned tx bytes')
const HASH = sha256(MSG)
const NOW = 1_700_000_000n

describe('keys, addresses and signatures agree with avalanchejs', () => {
  it('address = ripemd160(sha256(compressed public key))', () => {
    const pub = publicKeyOf(K1)
    expect(hex(pub)).toBe(hex(ajsSecp.getPublicKey(K1)))
    expect(hex(addressFromPublicKey(pub))).toBe(hex(ajsSecp.publicKeyBytesToAddress(pub)))
    expect(hex(addressFromPrivateKey(K1))).toBe(hex(A1))
  })

  it('signs sha256(unsigned bytes) as 65-byte [r ‖ s ‖ v], byte-equal to avalanchejs', async () => {
    const sig = sign(MSG, K1)
    expect(sig.length).toBe(65)
    expect(hex(sig)).toBe(hex(await ajsSecp.sign(MSG, K1)))
    expect(hex(signHash(HASH, K2))).toBe(hex(await ajsSecp.signHash(HASH, K2)))
    expect(hex(recoverPublicKey(HASH, sig))).toBe(hex(publicKeyOf(K1)))
    expect(hex(recoverAddress(HASH, sig))).toBe(hex(A1))
  })

  it('refuses malformed signatures with avalanchego messages', () => {
    const sig = sign(MSG, K1)
    expectThrows(() => recoverPublicKey(HASH, sig.slice(0, 64)), Secp256k1fxError, 'invalid signature length')
    // s' = n - s is the same signature, mutated to high-s: refused.
    const n = secp256kOrder()
    const s = BigInt(hex(sig.subarray(32, 64)))
    const high = sig.slice()
    high.set(hexToBytes32(n - s), 32)
    high[64] = high[64]! ^ 1
    expectThrows(() => recoverPublicKey(HASH, high), Secp256k1fxError, 'signature was mutated from its original format')
    const badV = sig.slice()
    badV[64] = 4
    expectThrows(() => recoverPublicKey(HASH, badV), Secp256k1fxError, 'invalid signature')
  })

  it('formats and parses P-/X- addresses as avalanchejs does', () => {
    expect(formatPAddress(5, A1)).toBe(utils.format('P', 'fuji', A1))
    expect(formatXAddress(1, A2)).toBe(utils.format('X', 'avax', A2))
    expect(hex(parseChainAddress(formatPAddress(12345, A3), 'P', 12345))).toBe(hex(A3))
    expectThrows(() => parseChainAddress(formatPAddress(5, A3), 'P', 1), InvalidArgumentError, 'expected hrp "avax" but got "fuji"')
    expectThrows(() => parseChainAddress(formatXAddress(5, A3), 'P', 5), InvalidArgumentError, 'mismatched chainIDs: expected "P" but got "X"')
  })
})

describe('verifyOwners (secp256k1fx Fx.VerifyCredentials)', () => {
  const addrs = sortAddresses([A1, A2, A3])
  const keyOf = (a: Uint8Array) => [K1, K2, K3][[A1, A2, A3].findIndex((x) => hex(x) === hex(a))]!
  const owners: OutputOwners = { locktime: 0n, threshold: 2, addrs }
  const sigsFor = (indices: number[]) => indices.map((i) => signHash(HASH, keyOf(addrs[i]!)))

  it('accepts threshold signatures from the indexed owners', () => {
    expect(() => verifyOwners(owners, sigsFor([0, 2]), [0, 2], HASH, NOW)).not.toThrow()
    expect(() => verifyOwners({ locktime: NOW, threshold: 1, addrs }, sigsFor([1]), [1], HASH, NOW)).not.toThrow()
    const cred = credentialFor(MSG, [keyOf(addrs[0]!), keyOf(addrs[1]!)])
    expect(() => verifyCredentials({ sigIndices: [0, 1] }, cred, owners, HASH, NOW)).not.toThrow()
    expect(() => verifyOwners({ locktime: 0n, threshold: 0, addrs: [] }, [], [], HASH, NOW)).not.toThrow()
  })

  it('output is time locked', () => {
    expectThrows(() => verifyOwners({ ...owners, locktime: NOW + 1n }, sigsFor([0, 1]), [0, 1], HASH, NOW), Secp256k1fxError, 'output is time locked')
  })

  it('too many / too few signers', () => {
    expectThrows(() => verifyOwners(owners, sigsFor([0, 1, 2]), [0, 1, 2], HASH, NOW), Secp256k1fxError, 'input has more signers than expected')
    expectThrows(() => verifyOwners(owners, sigsFor([0]), [0], HASH, NOW), Secp256k1fxError, 'input has less signers than expected')
  })

  it('credential signature count differs from the input', () => {
    expectThrows(
      () => verifyOwners(owners, sigsFor([0]), [0, 1], HASH, NOW),
      Secp256k1fxError,
      'input expected a different number of signers than provided in the credential',
    )
  })

  it('index out of bounds', () => {
    expectThrows(() => verifyOwners(owners, sigsFor([0, 1]), [0, 3], HASH, NOW), Secp256k1fxError, 'input referenced a nonexistent address in the output')
  })

  it('wrong signature names both addresses as avalanchego does', () => {
    const sigs = sigsFor([0, 1])
    let thrown: unknown
    try {
      verifyOwners(owners, [sigs[0]!, sigs[0]!], [0, 1], HASH, NOW)
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(Secp256k1fxError)
    expect((thrown as Secp256k1fxError).code).toBe('wrongSig')
    expect((thrown as Error).message).toBe(`wrong signature: expected signature from ${cb58Encode(addrs[1]!)} but got from ${cb58Encode(addrs[0]!)}`)
    // A signature over another message recovers another address.
    const other = signHash(sha256(new TextEncoder().encode('other')), keyOf(addrs[0]!))
    expect(() => verifyOwners(owners, [other, sigs[1]!], [0, 1], HASH, NOW)).toThrow(/^wrong signature: /)
  })

  it('syntactic checks: sorted unique indices and addresses, threshold, amounts', () => {
    expectThrows(() => verifyInput({ sigIndices: [1, 1] }), Secp256k1fxError, 'address indices not sorted and unique')
    expectThrows(() => verifyInput({ sigIndices: [2, 1] }), Secp256k1fxError, 'address indices not sorted and unique')
    expectThrows(() => verifyOutputOwners({ locktime: 0n, threshold: 2, addrs: [A1] }), Secp256k1fxError, 'output is unspendable')
    expectThrows(() => verifyOutputOwners({ locktime: 0n, threshold: 0, addrs: [A1] }), Secp256k1fxError, 'output representation should be optimized')
    expectThrows(() => verifyOutputOwners({ locktime: 0n, threshold: 1, addrs: [addrs[1]!, addrs[0]!] }), Secp256k1fxError, 'addresses not sorted and unique')
    expectThrows(() => verifyTransferOutput(0n, owners), Secp256k1fxError, 'output has no value')
    expectThrows(() => verifyTransferInput(0n, { sigIndices: [0] }), Secp256k1fxError, 'input has no value')
    expect(() => verifyOutputOwners(owners)).not.toThrow()
  })

  it('matchOwners picks the first threshold indices the keys can sign for', () => {
    expect(matchOwners(owners, [addrs[2]!, addrs[0]!], NOW)).toEqual([0, 2])
    expect(matchOwners(owners, [addrs[2]!], NOW)).toBeUndefined()
    expect(matchOwners({ ...owners, locktime: NOW + 1n }, addrs, NOW)).toBeUndefined()
  })
})

function secp256kOrder(): bigint {
  return 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
}

function hexToBytes32(v: bigint): Uint8Array {
  const out = new Uint8Array(32)
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}
