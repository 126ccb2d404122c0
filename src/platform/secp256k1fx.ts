import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '../core/sha256.js'
import { formatAddress, hrpForNetworkId, parseAddress, shortIdFromPublicKey } from '../core/address.js'
import { BaseError, InvalidArgumentError } from '../core/errors.js'
import { cb58Encode } from '../core/cb58.js'
import { SECP256K1_SIG_LEN, SHORT_ID_LEN, type Credential, type Input, type OutputOwners, type ShortId } from './txs.js'

/**
 * The secp256k1 feature extension (`vms/secp256k1fx`): addresses, 65-byte recoverable
 * signatures `[r ‖ s ‖ v]` over sha256 of the unsigned tx bytes, and owner verification with
 * avalanchego's exact error messages.
 */

/** The error messages of `secp256k1fx` and `utils/crypto/secp256k1`, by name. */
export const SECP256K1FX_ERRORS = {
  timelocked: 'output is time locked',
  tooManySigners: 'input has more signers than expected',
  tooFewSigners: 'input has less signers than expected',
  inputOutputIndexOutOfBounds: 'input referenced a nonexistent address in the output',
  inputCredentialSignersMismatch: 'input expected a different number of signers than provided in the credential',
  wrongSig: 'wrong signature',
  inputIndicesNotSortedUnique: 'address indices not sorted and unique',
  outputUnspendable: 'output is unspendable',
  outputUnoptimized: 'output representation should be optimized',
  addrsNotSortedUnique: 'addresses not sorted and unique',
  noValueInput: 'input has no value',
  noValueOutput: 'output has no value',
  mismatchedAmounts: 'utxo amount and input amount are not equal',
  invalidSigLen: 'invalid signature length',
  mutatedSig: 'signature was mutated from its original format',
  invalidSig: 'invalid signature',
} as const

export type Secp256k1fxErrorCode = keyof typeof SECP256K1FX_ERRORS

/**
 * A secp256k1fx verification failure. `message` is exactly what avalanchego returns (for
 * `wrongSig`, with its `: expected signature from X but got from Y` suffix); `code` names it.
 */
export class Secp256k1fxError extends BaseError {
  override name = 'Secp256k1fxError'
  readonly code: Secp256k1fxErrorCode

  constructor(code: Secp256k1fxErrorCode, suffix = '') {
    super(SECP256K1FX_ERRORS[code] + suffix)
    this.code = code
  }
}

const HALF_N = secp256k1.Point.Fn.ORDER >> 1n

/** The 33-byte compressed public key of a 32-byte private key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(privateKey, true)
}

/** `PublicKey.Address()`: ripemd160(sha256(compressed public key)), 20 bytes. */
export function addressFromPublicKey(compressedPublicKey: Uint8Array): ShortId {
  return shortIdFromPublicKey(compressedPublicKey)
}

/** The 20-byte address of a private key. */
export function addressFromPrivateKey(privateKey: Uint8Array): ShortId {
  return shortIdFromPublicKey(publicKeyOf(privateKey))
}

/** `PrivateKey-…` as avalanchego prints private keys (cb58). */
export function formatPrivateKey(privateKey: Uint8Array): string {
  return `PrivateKey-${cb58Encode(privateKey)}`
}

/** `PrivateKey.SignHash`: RFC 6979, low-s, 65 bytes `[r ‖ s ‖ v]` with v ∈ {0,1}. */
export function signHash(hash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  if (hash.length !== 32) throw new InvalidArgumentError(`expected a 32-byte hash but got ${hash.length} bytes`)
  const rec = secp256k1.sign(hash, privateKey, { prehash: false, format: 'recovered', lowS: true })
  const out = new Uint8Array(SECP256K1_SIG_LEN)
  out.set(rec.subarray(1, 65), 0)
  out[64] = rec[0]!
  return out
}

/** `PrivateKey.Sign(unsignedBytes)`: signs sha256 of the unsigned tx bytes. */
export function sign(unsignedBytes: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return signHash(sha256(unsignedBytes), privateKey)
}

/**
 * `secp256k1.RecoverPublicKeyFromHash` → compressed public key. Refuses wrong lengths
 * (`invalid signature length`), high-s (`signature was mutated from its original format`) and
 * unrecoverable signatures (`invalid signature`).
 */
export function recoverPublicKey(hash: Uint8Array, sig: Uint8Array): Uint8Array {
  if (sig.length !== SECP256K1_SIG_LEN) throw new Secp256k1fxError('invalidSigLen')
  let s = 0n
  for (const b of sig.subarray(32, 64)) s = (s << 8n) | BigInt(b)
  if (s > HALF_N) throw new Secp256k1fxError('mutatedSig')
  const v = sig[64]!
  if (v > 3) throw new Secp256k1fxError('invalidSig')
  const recovered = new Uint8Array(SECP256K1_SIG_LEN)
  recovered[0] = v
  recovered.set(sig.subarray(0, 64), 1)
  try {
    return secp256k1.recoverPublicKey(recovered, hash, { prehash: false })
  } catch {
    throw new Secp256k1fxError('invalidSig')
  }
}

/** The 20-byte address that produced `sig` over `hash`. */
export function recoverAddress(hash: Uint8Array, sig: Uint8Array): ShortId {
  return shortIdFromPublicKey(recoverPublicKey(hash, sig))
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** Sorts addresses in place the way `utils.Sort` orders `ids.ShortID` (bytewise); returns them. */
export function sortAddresses(addrs: ShortId[]): ShortId[] {
  return addrs.sort(compareBytes)
}

/** `OutputOwners.Verify`. */
export function verifyOutputOwners(owners: OutputOwners): void {
  if (owners.threshold > owners.addrs.length) throw new Secp256k1fxError('outputUnspendable')
  if (owners.threshold === 0 && owners.addrs.length > 0) throw new Secp256k1fxError('outputUnoptimized')
  for (let i = 1; i < owners.addrs.length; i++)
    if (compareBytes(owners.addrs[i - 1]!, owners.addrs[i]!) >= 0) throw new Secp256k1fxError('addrsNotSortedUnique')
}

/** `TransferOutput.Verify`. */
export function verifyTransferOutput(amount: bigint, owners: OutputOwners): void {
  if (amount === 0n) throw new Secp256k1fxError('noValueOutput')
  verifyOutputOwners(owners)
}

/** `Input.Verify`: signature indices strictly increasing. */
export function verifyInput(input: Input): void {
  const idx = input.sigIndices
  for (let i = 1; i < idx.length; i++)
    if (idx[i - 1]! >= idx[i]!) throw new Secp256k1fxError('inputIndicesNotSortedUnique')
}

/** `TransferInput.Verify`. */
export function verifyTransferInput(amount: bigint, input: Input): void {
  if (amount === 0n) throw new Secp256k1fxError('noValueInput')
  verifyInput(input)
}

/**
 * `Fx.VerifyCredentials` (bootstrapped): the checks in avalanchego's order —
 * locktime (`output is time locked` when `owners.locktime > now`), threshold against the number
 * of signature indices (too many / too few signers), indices against credential signatures,
 * then each signature recovered from `msgHash` (sha256 of the unsigned tx bytes) must come
 * from `owners.addrs[sigIndices[i]]`. `now` is the chain time in unix seconds.
 *
 * Does not run `Input.Verify` (syntactic; done when the tx is verified): call
 * {@link verifyInput} first if needed.
 */
export function verifyOwners(
  owners: OutputOwners,
  sigs: readonly Uint8Array[],
  sigIndices: readonly number[],
  msgHash: Uint8Array,
  now: bigint,
): void {
  const numSigs = sigIndices.length
  if (owners.locktime > now) throw new Secp256k1fxError('timelocked')
  if (owners.threshold < numSigs) throw new Secp256k1fxError('tooManySigners')
  if (owners.threshold > numSigs) throw new Secp256k1fxError('tooFewSigners')
  if (numSigs !== sigs.length) throw new Secp256k1fxError('inputCredentialSignersMismatch')
  for (let i = 0; i < numSigs; i++) {
    const index = sigIndices[i]!
    if (index >= owners.addrs.length) throw new Secp256k1fxError('inputOutputIndexOutOfBounds')
    const got = recoverAddress(msgHash, sigs[i]!)
    const expected = owners.addrs[index]!
    if (compareBytes(got, expected) !== 0)
      throw new Secp256k1fxError('wrongSig', `: expected signature from ${cb58Encode(expected)} but got from ${cb58Encode(got)}`)
  }
}

/** {@link verifyOwners} with a secp256k1fx Input and Credential. */
export function verifyCredentials(input: Input, cred: Credential, owners: OutputOwners, msgHash: Uint8Array, now: bigint): void {
  verifyOwners(owners, cred.sigs, input.sigIndices, msgHash, now)
}

/**
 * The signature indices a set of keys can satisfy `owners` with: the first `threshold` owner
 * addresses (in address order) that have a key. Undefined when the keys cannot meet the
 * threshold. (What wallets do when they build inputs.)
 */
export function matchOwners(owners: OutputOwners, keyAddrs: readonly ShortId[], now: bigint): number[] | undefined {
  if (owners.locktime > now) return undefined
  const indices: number[] = []
  for (let i = 0; i < owners.addrs.length && indices.length < owners.threshold; i++) {
    if (keyAddrs.some((a) => compareBytes(a, owners.addrs[i]!) === 0)) indices.push(i)
  }
  return indices.length === owners.threshold ? indices : undefined
}

/** A credential: one signature of sha256(`unsignedBytes`) per key, in the order of the input's sigIndices. */
export function credentialFor(
  unsignedBytes: Uint8Array,
  privateKeys: readonly Uint8Array[],
): Credential {
  const hash = sha256(unsignedBytes)
  return { sigs: privateKeys.map((k) => signHash(hash, k)) }
}

/** `P-<hrp>1…` for a 20-byte address on a network. */
export function formatPAddress(networkId: number, addr: ShortId): string {
  return formatAddress('P', hrpForNetworkId(networkId), addr)
}

/** `X-<hrp>1…` for a 20-byte address on a network. */
export function formatXAddress(networkId: number, addr: ShortId): string {
  return formatAddress('X', hrpForNetworkId(networkId), addr)
}

/**
 * Parses a `P-…`/`X-…` address into 20 bytes as `addressManager.ParseLocalAddress` does: bech32
 * errors, then `expected hrp "local" but got "fuji"`, then the 20-byte length, then the chain.
 * (Go resolves the alias to a chain id and prints ids in the mismatch message; here the aliases
 * are compared and printed.)
 */
export function parseChainAddress(str: string, chain: 'P' | 'X', networkId: number): ShortId {
  const parsed = parseAddress(str)
  const hrp = hrpForNetworkId(networkId)
  if (parsed.hrp !== hrp) throw new InvalidArgumentError(`expected hrp "${hrp}" but got "${parsed.hrp}"`)
  if (parsed.bytes.length !== SHORT_ID_LEN)
    throw new InvalidArgumentError(`invalid hash length: expected 20 bytes but got ${parsed.bytes.length}`)
  if (parsed.chainAlias !== chain)
    throw new InvalidArgumentError(`mismatched chainIDs: expected "${chain}" but got "${parsed.chainAlias}"`)
  return parsed.bytes
}
