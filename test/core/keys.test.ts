import { bls12_381 } from '@noble/curves/bls12-381.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { mapHashToField } from '@noble/curves/abstract/modular.js'
import { bytesToNumberBE } from '@noble/curves/utils.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { createHmac, hkdfSync, pbkdf2Sync } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { shortIdFromPublicKey } from '../../src/core/address.js'
import { InvalidArgumentError } from '../../src/core/errors.js'
import { bytesToHex, hexToBytes } from '../../src/core/hex.js'
import { parseNodeId } from '../../src/core/ids.js'
import {
  BLS_POP_DST,
  BLS_SIGNATURE_DST,
  DEFAULT_MNEMONIC,
  addressOfPrivateKey,
  blsSign,
  blsVerify,
  createNodeIdentity,
  deriveDevAccounts,
  verifyProofOfPossession,
} from '../../src/core/keys.js'
import { createSeededRandom } from '../../src/core/random.js'
import { DEFAULT_NODE_BLS_KEYS } from '../../src/core/blsDefaults.js'
import { DEFAULT_NODE_STAKING_KEYS, DEFAULT_RELAYER_ACCOUNT } from '../../src/core/nodeDefaults.js'
import { DEFAULT_DEV_ACCOUNTS } from '../../src/core/devAccountDefaults.js'
import { expectThrows } from '../helpers/expectThrows.js'

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>()
  return { ...actual, pbkdf2Sync: vi.fn(actual.pbkdf2Sync), createHmac: vi.fn(actual.createHmac) }
})


const { longSignatures } = bls12_381
/** noble's own verify; a signature that does not even decode to a G2 point counts as not verifying. */
function nobleVerify(pk: string, msg: Uint8Array, sig: string, dst: string): boolean {
  try {
    return longSignatures.verify(hexToBytes(sig as `0x${string}`), longSignatures.hash(msg, dst), hexToBytes(pk as `0x${string}`))
  } catch {
    return false
  }
}

describe('deriveDevAccounts', () => {
  it('derives the Hardhat/anvil accounts from the test mnemonic', () => {
    const accounts = deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 20 })
    expect(accounts).toHaveLength(20)
    expect(accounts[0]).toEqual({
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
      publicKey: bytesToHex(
        secp256k1.getPublicKey(hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'), true),
      ),
    })
    expect(accounts[1]!.address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect(accounts[19]!.address).toBe('0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199')
    expect(new Set(accounts.map((a) => a.address)).size).toBe(20)
  })

  it('takes a custom parent path', () => {
    const [a] = deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 1, path: "m/44'/60'/1'/0" })
    expect(a!.address).not.toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })

  // The default mnemonic's first 20 accounts at the default path are known in advance
  // (devAccountDefaults.ts); the same path spelled with `h` derives them.
  const DERIVED_DEFAULT_PATH = 'm/44h/60h/0h/0'

  it('knows the default accounts in advance, as derived, and derives those past them', () => {
    const derived = deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 25, path: DERIVED_DEFAULT_PATH })
    expect(DEFAULT_DEV_ACCOUNTS.map(([address, privateKey, publicKey]) => ({ address, privateKey, publicKey }))).toEqual(derived.slice(0, 20))
    vi.mocked(pbkdf2Sync).mockClear()
    vi.mocked(createHmac).mockClear()
    expect(deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 20 })).toEqual(derived.slice(0, 20))
    expect(pbkdf2Sync).not.toHaveBeenCalled()
    expect(deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 25 })).toEqual(derived)
    // past the table: the seed, the 4 levels of the path, then the 5 accounts past it
    expect(pbkdf2Sync).toHaveBeenCalledTimes(1)
    expect(createHmac).toHaveBeenCalledTimes(1 + 4 + 5)
  })

  it('computes the BIP-39 seed with native PBKDF2, equal to @scure/bip39', () => {
    vi.mocked(pbkdf2Sync).mockClear()
    const [account] = deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 1, path: DERIVED_DEFAULT_PATH })
    expect(pbkdf2Sync).toHaveBeenCalledWith(DEFAULT_MNEMONIC, 'mnemonic', 2048, 64, 'sha512')
    const expected = HDKey.fromMasterSeed(mnemonicToSeedSync(DEFAULT_MNEMONIC)).derive("m/44'/60'/0'/0/0")
    expect(account!.privateKey).toBe(bytesToHex(expected.privateKey!))
  })

  it('runs PBKDF2 and the hardened derivation once, then one child step per account', () => {
    // Counted rather than timed, so the test cannot flake on a loaded machine.
    vi.mocked(pbkdf2Sync).mockClear()
    vi.mocked(createHmac).mockClear()
    deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 20, path: DERIVED_DEFAULT_PATH })
    expect(pbkdf2Sync).toHaveBeenCalledTimes(1)
    // HMAC-SHA512: the master key, the 4 levels of m/44'/60'/0'/0, then one per account.
    expect(createHmac).toHaveBeenCalledTimes(1 + 4 + 20)
  })

  it('derives as @scure/bip32 does, hardened or not, with either hardened mark', () => {
    const master = HDKey.fromMasterSeed(mnemonicToSeedSync(DEFAULT_MNEMONIC))
    for (const path of ["m/44'/60'/0'/0", "m/44h/60h/1h", 'm/0/1/2', 'm', "M/2147483647'"]) {
      const [account] = deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 1, path })
      const expected = master.derive(`${path.replace(/h/g, "'").replace(/^M/, 'm')}/0`)
      expect(account!.privateKey, path).toBe(bytesToHex(expected.privateKey!))
      expect(account!.publicKey, path).toBe(bytesToHex(expected.publicKey!))
    }
  })

  it('rejects bad input', () => {
    expectThrows(
      () => deriveDevAccounts({ mnemonic: 'test test test test test test test test test test test test', count: 1 }),
      InvalidArgumentError,
      'invalid mnemonic',
    )
    expectThrows(
      () => deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: -1 }),
      InvalidArgumentError,
      'account count must be a non-negative integer but got -1',
    )
    for (const path of ["44'/60'", 'm/2147483648', "m/1''", 'm/x', 'm/', 'm/-1']) {
      expectThrows(() => deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 1, path }), InvalidArgumentError, `invalid derivation path ${path}`)
    }
    expect(deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 0 })).toEqual([])
  })
})

describe('createNodeIdentity', () => {
  const random = createSeededRandom('keys-test')
  const seedA = random.derive('node-0')
  const seedB = random.derive('node-1')
  const a = createNodeIdentity(seedA)

  it('has the formats info.getNodeID returns', () => {
    expect(a.nodeId).toMatch(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/)
    expect(parseNodeId(a.nodeId)).toEqual(a.nodeIdBytes)
    expect(a.stakingPrivateKey).toHaveLength(32)
    expect(a.stakingPublicKey).toHaveLength(33)
    expect(a.blsSecretKey).toHaveLength(32)
    expect(a.blsPublicKey).toMatch(/^0x[0-9a-f]{96}$/)
    expect(a.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/)
  })

  it('derives the node id from the staking key', () => {
    expect(secp256k1.getPublicKey(a.stakingPrivateKey, true)).toEqual(a.stakingPublicKey)
    expect(a.nodeIdBytes).toEqual(shortIdFromPublicKey(a.stakingPublicKey))
  })

  it('the default network\'s nodes (seed l1sim, known in advance) have the keys and proofs their seeds give', () => {
    const random = createSeededRandom('l1sim')
    for (let i = 0; i < DEFAULT_NODE_BLS_KEYS.length; i++) {
      const seed = random.derive(`node/${i}`)
      const [known, publicKey, pop] = DEFAULT_NODE_BLS_KEYS[i]!
      expect(bytesToHex(seed)).toBe(`0x${known}`)
      // from the secret key, which is derived (not known in advance), with noble directly
      const node = createNodeIdentity(seed)
      expect(bytesToHex(longSignatures.getPublicKey(node.blsSecretKey).toBytes(true))).toBe(`0x${publicKey}`)
      expect(bytesToHex(longSignatures.sign(longSignatures.hash(hexToBytes(`0x${publicKey}`), BLS_POP_DST), node.blsSecretKey).toBytes(true))).toBe(`0x${pop}`)
      expect([node.blsPublicKey, node.proofOfPossession]).toEqual([`0x${publicKey}`, `0x${pop}`])
    }
  })

  it('the default network\'s nodes (seed l1sim, known in advance) have the staking keys and NodeIDs their seeds give', () => {
    const random = createSeededRandom('l1sim')
    expect(DEFAULT_NODE_STAKING_KEYS).toHaveLength(DEFAULT_NODE_BLS_KEYS.length)
    for (let i = 0; i < DEFAULT_NODE_STAKING_KEYS.length; i++) {
      const seed = random.derive(`node/${i}`)
      const [known, stakingPrivateKey, stakingPublicKey, nodeIdBytes, nodeId] = DEFAULT_NODE_STAKING_KEYS[i]!
      expect(bytesToHex(seed)).toBe(`0x${known}`)
      const node = createNodeIdentity(seed)
      // derived here as createNodeIdentity derives any other seed's: HKDF-SHA256, then noble
      const privateKey = mapHashToField(new Uint8Array(hkdfSync('sha256', seed, new Uint8Array(0), 'l1sim/node-staking-key/secp256k1', 48)), secp256k1.Point.Fn.ORDER)
      expect(bytesToHex(privateKey)).toBe(`0x${stakingPrivateKey}`)
      const publicKey = secp256k1.getPublicKey(privateKey, true)
      expect(bytesToHex(publicKey)).toBe(`0x${stakingPublicKey}`)
      expect(bytesToHex(shortIdFromPublicKey(publicKey))).toBe(`0x${nodeIdBytes}`)
      expect(parseNodeId(nodeId)).toEqual(hexToBytes(`0x${nodeIdBytes}`))
      expect([bytesToHex(node.stakingPrivateKey), bytesToHex(node.stakingPublicKey), bytesToHex(node.nodeIdBytes), node.nodeId]).toEqual([`0x${stakingPrivateKey}`, `0x${stakingPublicKey}`, `0x${nodeIdBytes}`, nodeId])
    }
  })

  it('the default network\'s relayer account (known in advance) is its seed\'s key and that key\'s address', () => {
    const key = createSeededRandom('l1sim').derive('icm-relayer')
    expect(bytesToHex(key)).toBe(`0x${DEFAULT_RELAYER_ACCOUNT[0]}`)
    const address = bytesToHex(keccak_256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12))
    expect([address, addressOfPrivateKey(key)]).toEqual([DEFAULT_RELAYER_ACCOUNT[1], DEFAULT_RELAYER_ACCOUNT[1]])
  })

  it('has a valid BLS key and a PoP that verifies with noble under the PoP DST only', () => {
    expect(bytesToHex(longSignatures.getPublicKey(a.blsSecretKey).toBytes(true))).toBe(a.blsPublicKey)
    const pk = hexToBytes(a.blsPublicKey)
    expect(nobleVerify(a.blsPublicKey, pk, a.proofOfPossession, BLS_POP_DST)).toBe(true)
    expect(nobleVerify(a.blsPublicKey, pk, a.proofOfPossession, BLS_SIGNATURE_DST)).toBe(false)
    expect(verifyProofOfPossession({ publicKey: a.blsPublicKey, proofOfPossession: a.proofOfPossession })).toBe(true)
  })

  it('rejects a tampered or foreign PoP', () => {
    const b = createNodeIdentity(seedB)
    const pop = hexToBytes(a.proofOfPossession)
    pop[95] = pop[95]! ^ 1
    expect(nobleVerify(a.blsPublicKey, hexToBytes(a.blsPublicKey), bytesToHex(pop), BLS_POP_DST)).toBe(false)
    expect(verifyProofOfPossession({ publicKey: a.blsPublicKey, proofOfPossession: pop })).toBe(false)
    // A well-formed G2 point that is someone else's PoP.
    expect(nobleVerify(a.blsPublicKey, hexToBytes(a.blsPublicKey), b.proofOfPossession, BLS_POP_DST)).toBe(false)
    expect(verifyProofOfPossession({ publicKey: a.blsPublicKey, proofOfPossession: b.proofOfPossession })).toBe(false)
    expect(verifyProofOfPossession({ publicKey: b.blsPublicKey, proofOfPossession: a.proofOfPossession })).toBe(false)
    expect(verifyProofOfPossession({ publicKey: '0x1234', proofOfPossession: a.proofOfPossession })).toBe(false)
    expect(verifyProofOfPossession({ publicKey: 'nothex' as `0x${string}`, proofOfPossession: a.proofOfPossession })).toBe(false)
    // The G1 point at infinity: blst's KeyValidate rejects it.
    const infinity = bytesToHex(Uint8Array.from({ length: 48 }, (_, i) => (i === 0 ? 0xc0 : 0)))
    expect(verifyProofOfPossession({ publicKey: infinity, proofOfPossession: a.proofOfPossession })).toBe(false)
  })

  it('verifies a proof of possession made by avalanchego (genesis_local.json)', () => {
    expect(
      verifyProofOfPossession({
        publicKey:
          '0x900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d',
        proofOfPossession:
          '0x8bfd6d4d2086b2b8115d8f72f94095fefe5a6c07876b2accf51a811adf520f389e74a3d2152a6d90b521e2be58ffe468043dc5ea68b4c44410eb67f8dc24f13ed4f194000764c0e922cd254a3588a4962b1cb4db7de4bb9cda9d9d4d6b03f3d2',
      }),
    ).toBe(true)
  })

  it('signs and verifies messages under the signature DST', () => {
    const message = new TextEncoder().encode('warp message')
    const signature = blsSign(a.blsSecretKey, message)
    expect(signature).toHaveLength(96)
    expect(nobleVerify(a.blsPublicKey, message, bytesToHex(signature), BLS_SIGNATURE_DST)).toBe(true)
    expect(blsVerify({ publicKey: a.blsPublicKey, message, signature })).toBe(true)
    expect(blsVerify({ publicKey: a.blsPublicKey, message: new TextEncoder().encode('other'), signature })).toBe(false)
    // A PoP is not a signature over the key bytes in the signature ciphersuite.
    expect(
      blsVerify({ publicKey: a.blsPublicKey, message: hexToBytes(a.blsPublicKey), signature: a.proofOfPossession }),
    ).toBe(false)
  })

  it('is deterministic per seed and differs across seeds', () => {
    expect(createNodeIdentity(seedA)).toEqual(a)
    const b = createNodeIdentity(seedB)
    expect(b.nodeId).not.toBe(a.nodeId)
    expect(b.blsPublicKey).not.toBe(a.blsPublicKey)
    expect(b.stakingPrivateKey).not.toEqual(a.stakingPrivateKey)
  })

  it('derives the BLS key as blst KeyGen does (EIP-2333 HKDF_mod_r test case 1)', () => {
    const seed = hexToBytes('0x3141592653589793238462643383279502884197169399375105820974944592')
    expect(bytesToNumberBE(createNodeIdentity(seed).blsSecretKey)).toBe(
      29757020647961307431480504535336562678282505419141012933316116377660817309383n,
    )
  })

  it('computes the BLS fields on first read (accessors) and keeps them', () => {
    // noble's exports are frozen, so laziness is checked through the property shape, not spies.
    const identity = createNodeIdentity(random.derive('lazy'))
    for (const key of ['blsSecretKey', 'blsPublicKey', 'proofOfPossession'] as const) {
      expect(typeof Object.getOwnPropertyDescriptor(identity, key)?.get).toBe('function')
    }
    expect(Object.getOwnPropertyDescriptor(identity, 'nodeId')?.value).toMatch(/^NodeID-/)
    expect(identity.blsSecretKey).toBe(identity.blsSecretKey)
    expect(identity.proofOfPossession).toBe(identity.proofOfPossession)
    expect(verifyProofOfPossession({ publicKey: identity.blsPublicKey, proofOfPossession: identity.proofOfPossession })).toBe(true)
  })

  it('needs exactly 32 seed bytes', () => {
    expectThrows(() => createNodeIdentity(new Uint8Array(31)), InvalidArgumentError, 'node seed must be 32 bytes but got 31')
  })
})
