import { createECDH, createHmac, hkdfSync, pbkdf2Sync } from 'node:crypto'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { mapHashToField } from '@noble/curves/abstract/modular.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToNumberBE, numberToBytesBE } from '@noble/curves/utils.js'
import { expand, extract } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { validateMnemonic } from '@scure/bip39'
import { wordlist as english } from '@scure/bip39/wordlists/english.js'
import { shortIdFromPublicKey } from './address.js'
import { blsPublicKeyOf, blsSignatureSign, decodeBlsPublicKey, decodeBlsSignature, verifyBlsSignature } from './bls.js'
import { InvalidArgumentError } from './errors.js'
import { bytesToHex, hexToBytes, type Hex } from './hex.js'
import { nodeIdToString } from './ids.js'
import { keccak256 } from './keccak.js'
import { nativeSecp256k1 } from './native.js'
import { DEFAULT_NODE_BLS_KEYS } from './blsDefaults.js'
import { DEFAULT_NODE_STAKING_KEYS, DEFAULT_RELAYER_ACCOUNT } from './nodeDefaults.js'
import { DEFAULT_DEV_ACCOUNTS } from './devAccountDefaults.js'

/**
 * Keys the emulator hands out: the funded dev accounts every EVM tool expects (the Hardhat/anvil
 * mnemonic) and a node's staking and BLS identity, all derived deterministically so a network
 * built from the same seed has the same addresses and node ids on every run.
 */

/** The Hardhat/anvil/Foundry test mnemonic, so wallets and scripts written for them work unchanged. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

/** BIP-44 Ethereum account branch; account `i` is `${DEFAULT_DERIVATION_PATH}/${i}`. */
export const DEFAULT_DERIVATION_PATH = "m/44'/60'/0'/0"

/** Ordinary BLS signatures in avalanchego (`bls.CiphersuiteSignature`), e.g. warp messages. */
export const BLS_SIGNATURE_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'

/** Proofs of possession (`bls.CiphersuiteProofOfPossession`): a different DST, so a PoP is never a valid signature. */
export const BLS_POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_'

export type DevAccount = {
  /** EIP-55 checksummed. */
  address: Hex
  privateKey: Hex
  /** Compressed secp256k1 key (33 bytes): the form X/P addresses hash, see `shortIdFromPublicKey`. */
  publicKey: Hex
}

export type DeriveDevAccountsOptions = {
  mnemonic: string
  count: number
  /** The parent path; children `0 … count-1` are derived under it. Defaults to {@link DEFAULT_DERIVATION_PATH}. */
  path?: string
}

/** A BIP-39 mnemonic of English words with a valid checksum, as {@link deriveDevAccounts} takes. */
export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(mnemonic, english)
}

/**
 * The first `count` accounts of a BIP-39 mnemonic, as Hardhat and anvil derive them.
 *
 * This runs at network start, so it is written for a cold process: the seed (PBKDF2-HMAC-SHA512)
 * and every BIP-32 step (HMAC-SHA512) run in node's native crypto, every public key in
 * libsecp256k1 (see {@link secp256k1PublicKey}). In JavaScript the same work costs 110-220 ms in a
 * fresh process, most of it JIT warm-up and secp256k1's precomputed tables; natively it is a few
 * ms. The hardened parent and its public key are derived once; each account is then one
 * non-hardened child step. The default mnemonic's first 20 accounts at the default path are known
 * in advance (`devAccountDefaults.ts`) and not derived at all.
 *
 * @example deriveDevAccounts({ mnemonic: DEFAULT_MNEMONIC, count: 1 })[0].address
 * // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 */
export function deriveDevAccounts(options: DeriveDevAccountsOptions): DevAccount[] {
  const { mnemonic, count, path = DEFAULT_DERIVATION_PATH } = options
  if (!Number.isSafeInteger(count) || count < 0)
    throw new InvalidArgumentError(`account count must be a non-negative integer but got ${count}`)
  const derive = createDevAccountDeriver(mnemonic, path)
  return Array.from({ length: count }, (_, i) => derive(i))
}

/**
 * The accounts of a mnemonic one index at a time, as {@link deriveDevAccounts} derives them: the
 * seed and the hardened parent once, here; each account, one child step, when asked. For who needs
 * a few accounts by index (a scenario's `acct:` references) and not all of them.
 */
export function createDevAccountDeriver(mnemonic: string, path = DEFAULT_DERIVATION_PATH): (index: number) => DevAccount {
  if (mnemonic !== DEFAULT_MNEMONIC || path !== DEFAULT_DERIVATION_PATH) return deriverOf(mnemonic, path)
  // The default accounts are known (devAccountDefaults.ts); the seed is derived only past them.
  let derive: ((index: number) => DevAccount) | undefined
  return (i) => {
    const known = DEFAULT_DEV_ACCOUNTS[i]
    if (known === undefined) return (derive ??= deriverOf(mnemonic, path))(i)
    const [address, privateKey, publicKey] = known
    return { address: address as Hex, privateKey: privateKey as Hex, publicKey: publicKey as Hex }
  }
}

function deriverOf(mnemonic: string, path: string): (index: number) => DevAccount {
  // Without this a typo silently yields a different, unfunded set of accounts.
  if (!isValidMnemonic(mnemonic)) throw new InvalidArgumentError('invalid mnemonic')
  const indexes = parseDerivationPath(path)
  let parent = masterKey(mnemonicToSeed(mnemonic))
  for (const index of indexes) parent = childKey(parent, index)
  const parentPublicKey = compressPublicKey(secp256k1PublicKey(parent.privateKey))
  return (i) => {
    const { privateKey } = childKey(parent, i, parentPublicKey)
    const uncompressed = secp256k1PublicKey(privateKey)
    return {
      address: checksumAddress(keccak256(uncompressed.subarray(1)).subarray(12)),
      privateKey: bytesToHex(privateKey),
      publicKey: bytesToHex(compressPublicKey(uncompressed)),
    }
  }
}

/** BIP-39 `mnemonicToSeed` with an empty passphrase: PBKDF2-HMAC-SHA512, 2048 rounds, salt `mnemonic`, both NFKD. */
function mnemonicToSeed(mnemonic: string, passphrase = ''): Uint8Array {
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), `mnemonic${passphrase}`.normalize('NFKD'), 2048, 64, 'sha512')
  return new Uint8Array(seed.buffer, seed.byteOffset, seed.byteLength)
}

// --- BIP-32 private derivation ---

type ExtendedPrivateKey = { privateKey: Uint8Array; chainCode: Uint8Array }

const HARDENED = 0x80000000
const SECP256K1_N = secp256k1.Point.Fn.ORDER

/** `m/44'/60'/0'/0` → child indexes, hardened ones offset by 2^31 (`'` or `h` marks them). */
function parseDerivationPath(path: string): number[] {
  const [root, ...segments] = path.split('/')
  if (root !== 'm' && root !== 'M') throw new InvalidArgumentError(`invalid derivation path ${path}`)
  return segments.map((segment) => {
    const match = /^(\d+)(['h]?)$/.exec(segment)
    const index = match ? Number(match[1]) : Number.NaN
    if (!Number.isSafeInteger(index) || index >= HARDENED) throw new InvalidArgumentError(`invalid derivation path ${path}`)
    return match![2] ? index + HARDENED : index
  })
}

function masterKey(seed: Uint8Array): ExtendedPrivateKey {
  const I = hmacSha512(utf8ToBytes('Bitcoin seed'), seed)
  const key = bytesToNumberBE(I.subarray(0, 32))
  if (key === 0n || key >= SECP256K1_N) throw new InvalidArgumentError('the seed gives an invalid master key')
  return { privateKey: I.slice(0, 32), chainCode: I.slice(32) }
}

/**
 * CKDpriv. Its invalid cases (probability below 2^-127) are errors rather than a skip to the next
 * index. A non-hardened step hashes the parent's compressed public key, which a caller deriving
 * many siblings passes in rather than recomputing it per child.
 */
function childKey(parent: ExtendedPrivateKey, index: number, parentPublicKey?: Uint8Array): ExtendedPrivateKey {
  const ser32 = new Uint8Array(4)
  new DataView(ser32.buffer).setUint32(0, index)
  const data =
    index >= HARDENED
      ? concatBytes(new Uint8Array(1), parent.privateKey, ser32)
      : concatBytes(parentPublicKey ?? compressPublicKey(secp256k1PublicKey(parent.privateKey)), ser32)
  const I = hmacSha512(parent.chainCode, data)
  const tweak = bytesToNumberBE(I.subarray(0, 32))
  const key = (tweak + bytesToNumberBE(parent.privateKey)) % SECP256K1_N
  if (tweak >= SECP256K1_N || key === 0n) throw new InvalidArgumentError(`child key ${index} is invalid`)
  return { privateKey: numberToBytesBE(key, 32), chainCode: I.slice(32) }
}

function hmacSha512(key: Uint8Array, data: Uint8Array): Uint8Array {
  const mac = createHmac('sha512', key).update(data).digest()
  return new Uint8Array(mac.buffer, mac.byteOffset, mac.byteLength)
}

/**
 * The uncompressed (65-byte) public key, computed natively: by libsecp256k1 when its binding loads
 * (a few µs), otherwise by node's ECDH (about half a millisecond each, OpenSSL's generic curve code).
 */
function secp256k1PublicKey(privateKey: Uint8Array): Uint8Array {
  const native = nativeSecp256k1()
  if (native) return native.publicKeyCreate(privateKey, false)
  const ecdh = createECDH('secp256k1')
  ecdh.setPrivateKey(privateKey)
  const key = ecdh.getPublicKey()
  return new Uint8Array(key.buffer, key.byteOffset, key.byteLength)
}

/**
 * The lower-case EVM address of a private key, computed natively (see {@link secp256k1PublicKey}):
 * ethereumjs' `privateToAddress` runs noble, whose first use in a process builds its precomputed
 * tables (~45 ms of a cold start, for the relayer's account).
 */
export function addressOfPrivateKey(privateKey: Uint8Array): Hex {
  if (Buffer.from(privateKey).toString('hex') === DEFAULT_RELAYER_ACCOUNT[0]) return DEFAULT_RELAYER_ACCOUNT[1]
  return bytesToHex(keccak256(secp256k1PublicKey(privateKey).subarray(1)).subarray(12))
}


/** EIP-55: a hex letter is upper-case where the keccak of the lower-case address has a nibble of 8 or more. */
function checksumAddress(address: Uint8Array): Hex {
  const lower = bytesToHex(address).slice(2)
  const hash = keccak256(utf8ToBytes(lower))
  let out = '0x'
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  }
  return out as Hex
}

function compressPublicKey(uncompressed: Uint8Array): Uint8Array {
  const out = uncompressed.slice(0, 33)
  out[0] = 2 + (uncompressed[64]! & 1)
  return out
}

export type NodeIdentity = {
  /** `NodeID-…`. */
  nodeId: string
  nodeIdBytes: Uint8Array
  /** secp256k1, 32 bytes. */
  stakingPrivateKey: Uint8Array
  /** Compressed, 33 bytes. */
  stakingPublicKey: Uint8Array
  /** 32 bytes, big-endian, as avalanchego's `localsigner.ToBytes` writes it. */
  blsSecretKey: Uint8Array
  /** Compressed G1, 48 bytes, `0x` lower-case hex as `info.getNodeID` returns it. */
  blsPublicKey: Hex
  /** Compressed G2, 96 bytes: the BLS public key signed under {@link BLS_POP_DST}. */
  proofOfPossession: Hex
}

const STAKING_KEY_INFO = utf8ToBytes('l1sim/node-staking-key/secp256k1')

/**
 * A node's identity from 32 seed bytes (e.g. `createSeededRandom(seed).derive('node-0')`).
 *
 * The NodeID is `ripemd160(sha256(compressed staking public key))`. A real node hashes its TLS
 * staking certificate instead (`ids.NodeIDFromCert`); the emulator has no certificates, and hashing
 * the key keeps the id tied to a key the node can sign with, in the same 20-byte format.
 *
 * The BLS key is blst's `KeyGen(seed)` (draft-irtf-cfrg-bls-signature KeyGen: HKDF-SHA256, reduced
 * mod r, retried while zero), the call avalanchego's `localsigner.New` makes on 32 random bytes, so
 * the same bytes give the same key here and in a node. The staking key uses HKDF with its own label
 * so the two keys are independent.
 *
 * The BLS fields are computed on first read and kept: a proof of possession costs a hash to G2
 * and two curve multiplications (several ms per node), and most runs never read them, so a
 * five-node network would otherwise pay that on every start.
 */
export function createNodeIdentity(seed: Uint8Array): NodeIdentity {
  if (seed.length !== 32) throw new InvalidArgumentError(`node seed must be 32 bytes but got ${seed.length}`)
  // The default network's nodes are known in advance (nodeDefaults.ts).
  const seedHex = Buffer.from(seed).toString('hex')
  const known = DEFAULT_NODE_STAKING_KEYS.find((row) => row[0] === seedHex)
  // HKDF-SHA256 with no salt; node's native hkdfSync, since noble's HMAC costs ~10 ms per node in
  // a cold process (an empty salt is RFC 5869's default of zeros, so the bytes are the same).
  const stakingPrivateKey = known
    ? hexToBytes(`0x${known[1]}`)
    : mapHashToField(new Uint8Array(hkdfSync('sha256', seed, new Uint8Array(0), STAKING_KEY_INFO, 48)), secp256k1.Point.Fn.ORDER)
  const stakingPublicKey = known ? hexToBytes(`0x${known[2]}`) : compressPublicKey(secp256k1PublicKey(stakingPrivateKey))
  const nodeIdBytes = known ? hexToBytes(`0x${known[3]}`) : shortIdFromPublicKey(stakingPublicKey)
  const blsSeed = seed.slice()
  const bls = blsMemoOf(blsSeed)
  const blsSecretKey = () => (bls.secretKey ??= blsKeyGen(blsSeed))
  const blsPublicKey = () => (bls.publicKey ??= blsPublicKeyOf(blsSecretKey()))
  return {
    nodeId: known ? known[4] : nodeIdToString(nodeIdBytes),
    nodeIdBytes,
    stakingPrivateKey,
    stakingPublicKey,
    get blsSecretKey() {
      return blsSecretKey()
    },
    get blsPublicKey() {
      return bytesToHex(blsPublicKey())
    },
    get proofOfPossession() {
      return (bls.pop ??= bytesToHex(signWithDst(blsSecretKey(), blsPublicKey(), BLS_POP_DST)))
    },
  }
}

type BlsMemo = { secretKey?: Uint8Array; publicKey?: Uint8Array; pop?: Hex }

/**
 * The BLS keys and proofs of possession derived from each seed, as they get computed: pure
 * functions of the seed, ~15 ms a node with noble, and every network's genesis holds its nodes'
 * (their genesis validator txs carry the signer), while the same seed gives every network the same
 * nodes (tests create hundreds). A memo of values, not state: bounded, and dropped whole when full.
 */
const blsMemo = new Map<string, BlsMemo>()
const BLS_MEMO_LIMIT = 4096
const seedDefaults = () => {
  for (const [seed, publicKey, pop] of DEFAULT_NODE_BLS_KEYS) blsMemo.set(seed, { publicKey: hexToBytes(`0x${publicKey}`), pop: `0x${pop}` })
}
seedDefaults()

function blsMemoOf(seed: Uint8Array): BlsMemo {
  const key = Buffer.from(seed).toString('hex')
  let memo = blsMemo.get(key)
  if (!memo) {
    if (blsMemo.size >= BLS_MEMO_LIMIT) {
      blsMemo.clear()
      seedDefaults()
    }
    blsMemo.set(key, (memo = {}))
  }
  return memo
}

const BLS_KEYGEN_SALT = utf8ToBytes('BLS-SIG-KEYGEN-SALT-')
const BLS_KEYGEN_L = 48

/** blst `blst_keygen` / EIP-2333 `HKDF_mod_r` with empty key_info. */
function blsKeyGen(ikm: Uint8Array): Uint8Array {
  const r = bls12_381.fields.Fr.ORDER
  const ikmPrime = concatBytes(ikm, new Uint8Array([0]))
  const info = new Uint8Array([0, BLS_KEYGEN_L])
  let salt = BLS_KEYGEN_SALT
  for (;;) {
    salt = sha256(salt)
    const okm = expand(sha256, extract(sha256, ikmPrime, salt), info, BLS_KEYGEN_L)
    const sk = bytesToNumberBE(okm) % r
    if (sk !== 0n) return numberToBytesBE(sk, 32)
  }
}

function signWithDst(secretKey: Uint8Array, message: Uint8Array, dst: string): Uint8Array {
  const { longSignatures } = bls12_381
  return longSignatures.Signature.toBytes(longSignatures.sign(longSignatures.hash(message, dst), secretKey))
}

/**
 * A BLS signature (96-byte compressed G2) under avalanchego's signature DST, as a validator signs
 * warp messages (native blst, `bls.ts`).
 */
export function blsSign(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
  return blsSignatureSign(secretKey, message)
}

type BytesLike = Uint8Array | Hex

const toBytes = (value: BytesLike): Uint8Array => (typeof value === 'string' ? hexToBytes(value) : value)

/**
 * Pairing check with avalanchego's key rules: a public key that does not decode, or is the point at
 * infinity (rejected by blst's `KeyValidate`), fails verification instead of throwing, because
 * callers check signatures that arrived from outside. Noble: proofs of possession only, whose DST
 * blst's JS API does not take.
 */
function verifyWithDst(publicKey: BytesLike, message: Uint8Array, signature: BytesLike, dst: string): boolean {
  const { longSignatures } = bls12_381
  try {
    const pk = bls12_381.G1.Point.fromBytes(toBytes(publicKey))
    if (pk.is0()) return false
    const sig = longSignatures.Signature.fromBytes(toBytes(signature))
    return longSignatures.verify(sig, longSignatures.hash(message, dst), pk)
  } catch {
    return false
  }
}

/** Named fields because all three are byte strings and a swapped pair would simply fail to verify. */
export function blsVerify(args: { publicKey: BytesLike; message: Uint8Array; signature: BytesLike }): boolean {
  let publicKey, signature
  try {
    publicKey = decodeBlsPublicKey(toBytes(args.publicKey))
    signature = decodeBlsSignature(toBytes(args.signature))
  } catch {
    return false
  }
  return typeof publicKey !== 'string' && typeof signature !== 'string' && verifyBlsSignature(publicKey, args.message, signature)
}

/** `signer.ProofOfPossession.Verify`: the PoP is a signature over the public key bytes under {@link BLS_POP_DST}. */
export function verifyProofOfPossession(args: { publicKey: BytesLike; proofOfPossession: BytesLike }): boolean {
  let publicKey: Uint8Array
  try {
    publicKey = toBytes(args.publicKey)
  } catch {
    return false
  }
  return verifyWithDst(publicKey, publicKey, args.proofOfPossession, BLS_POP_DST)
}
