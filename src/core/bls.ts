import { createRequire } from 'node:module'
import type * as Blst from '@chainsafe/blst'

/**
 * BLS under avalanchego's signature ciphersuite (`bls.CiphersuiteSignature`, DST
 * `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`) on native blst (`@chainsafe/blst`), the library
 * avalanchego itself links: a warp signature in ~0.3 ms and a verification in ~0.7 ms, where pure
 * JS takes ~7 and ~19 ms. blst's JS API has that DST built in and takes no other, so proofs of
 * possession (their own DST) stay on noble in `keys.ts`.
 *
 * The rules are avalanchego's (`utils/crypto/bls`): a public key decompresses
 * (`couldn't decompress public key`) and then passes `KeyValidate` — not infinity, in the subgroup
 * (`invalid public key`); a signature decompresses (`couldn't decompress signature`) and passes
 * `SigValidate(false)` — in the subgroup, infinity allowed (`invalid signature`); verification
 * checks neither again.
 */

const require = createRequire(import.meta.url)
let loaded: typeof Blst | undefined
/**
 * blst is loaded on first use: loading the addon is ~9 ms of a cold start, and most runs never
 * sign a warp message. Loaded once per process: a library handle, not state.
 */
const blst = (): typeof Blst => (loaded ??= require('@chainsafe/blst') as typeof Blst)

export type BlsPublicKey = Blst.PublicKey

/** The order r of G1/G2: secret keys are scalars mod r. */
export const BLS_CURVE_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n

/** `bls.PublicKeyFromCompressedBytes`: the key, or avalanchego's error text. */
export function decodeBlsPublicKey(bytes: Uint8Array): BlsPublicKey | "couldn't decompress public key" | 'invalid public key' {
  let key: BlsPublicKey
  try {
    key = blst().PublicKey.fromBytes(bytes, false)
  } catch {
    return "couldn't decompress public key"
  }
  try {
    key.keyValidate()
  } catch {
    return 'invalid public key'
  }
  return key
}

/** `bls.SignatureFromBytes`: the signature, or avalanchego's error text. */
export function decodeBlsSignature(bytes: Uint8Array): Blst.Signature | "couldn't decompress signature" | 'invalid signature' {
  let signature: Blst.Signature
  try {
    signature = blst().Signature.fromBytes(bytes, false)
  } catch {
    return "couldn't decompress signature"
  }
  try {
    signature.sigValidate(false)
  } catch {
    return 'invalid signature'
  }
  return signature
}

/** The compressed public key of a 32-byte big-endian secret key. */
export const blsPublicKeyOf = (secretKey: Uint8Array): Uint8Array => blst().SecretKey.fromBytes(secretKey).toPublicKey().toBytes(true)

/**
 * One signature (96-byte compressed G2) under the signature DST. Throws on a secret key that is not
 * a scalar in 1..r-1.
 */
export const blsSignatureSign = (secretKey: Uint8Array, message: Uint8Array): Uint8Array =>
  blst().SecretKey.fromBytes(secretKey).sign(message).toBytes(true)

/** Sums compressed signatures (each already valid: made here). */
export const aggregateBlsSignatures = (signatures: readonly Uint8Array[]): Uint8Array =>
  blst().aggregateSerializedSignatures([...signatures], false).toBytes(true)

/** `bls.AggregatePublicKeys` over keys already validated on decode; at least one key. */
export const aggregateBlsPublicKeys = (keys: readonly BlsPublicKey[]): BlsPublicKey =>
  keys.length === 1 ? keys[0]! : blst().aggregatePublicKeys([...keys], false)

/**
 * `bls.Verify`: the pairing check of a decoded signature against a decoded (or aggregated) key.
 * An aggregate key at infinity (keys that cancel out) never verifies, as in blst.
 */
export function verifyBlsSignature(key: BlsPublicKey, message: Uint8Array, signature: Blst.Signature): boolean {
  try {
    return blst().verify(message, key, signature, false, false)
  } catch {
    return false
  }
}
