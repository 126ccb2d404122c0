import {
  aggregateBlsPublicKeys,
  aggregateBlsSignatures,
  BLS_CURVE_ORDER,
  blsPublicKeyOf,
  blsSignatureSign,
  decodeBlsPublicKey,
  decodeBlsSignature,
  verifyBlsSignature,
  type BlsPublicKey,
} from '../../core/bls.js'
import { InvalidArgumentError } from '../../core/errors.js'
import {
  bitSetFromIndexes,
  bitSetContains,
  bitSetLength,
  encodeUnsignedMessage,
  isMinimalBitSet,
  parseMessage,
  WarpError,
  type BitSetSignature,
  type SignedMessage,
  type UnsignedMessage,
} from './codec.js'

/**
 * Warp signatures (avalanchego `vms/platformvm/warp/signature.go`, `validator.go`,
 * `snow/validators/warp.go`): the canonical validator set, signing with a subset of it, and
 * `BitSetSignature.Verify` with its error texts.
 */

/** `WarpDefaultQuorumNumerator`, used when the config's numerator is 0. */
export const WARP_DEFAULT_QUORUM_NUMERATOR = 67n
export const WARP_QUORUM_DENOMINATOR = 100n

const MAX_UINT64 = (1n << 64n) - 1n

export type WarpValidatorInput = {
  nodeId: string
  weight: bigint | number
  /** 48-byte compressed G1 key; validators without one count in the total weight only. */
  blsPublicKey?: Uint8Array | undefined
}

export type WarpValidator = {
  /** 48-byte compressed key. */
  publicKey: Uint8Array
  /** 96-byte uncompressed key: the sort key of the canonical order. */
  publicKeyBytes: Uint8Array
  /** Sum of the weights of every validator with this key. */
  weight: bigint
  /** The node ids sharing this key, in input order. */
  nodeIds: string[]
  /** The decoded (validated) key, native blst's. */
  point: BlsPublicKey
}

/** `validators.WarpSet`. */
export type WarpValidatorSet = {
  /** Validators with a BLS key, merged by key and sorted by uncompressed key bytes; bit i of a signature is validators[i]. */
  validators: WarpValidator[]
  /** Weight of every validator, with or without a key. */
  totalWeight: bigint
  /**
   * The last verdicts of {@link verifySignature} against this set (by network, quorum and signed
   * bytes): a message is checked at estimation, admission and in its block, one pairing each
   * otherwise. A set is immutable, so a verdict holds for as long as the set is in use.
   */
  verdicts?: Map<string, string | undefined>
}

/** How many verdicts a set keeps (the oldest goes first). */
const VERDICTS_KEPT = 64

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

function decodePublicKey(bytes: Uint8Array, nodeId: string): BlsPublicKey {
  const point = decodeBlsPublicKey(bytes)
  if (typeof point === 'string') throw new InvalidArgumentError(`validator ${nodeId}: ${point}`)
  return point
}

/** Decodes a validator's compressed key (throws `validator <id>: couldn't decompress public key` / `invalid public key`). */
export type PublicKeyDecoder = (bytes: Uint8Array, nodeId: string) => BlsPublicKey

/**
 * A {@link PublicKeyDecoder} that keeps the keys it decoded (up to 65,536, then it starts over):
 * a validator's key is decoded and checked once, as a node keeps its validators' keys decoded,
 * not again for each new set it appears in.
 */
export function createPublicKeyCache(): PublicKeyDecoder {
  let points = new Map<string, BlsPublicKey>()
  return (bytes, nodeId) => {
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
    let point = points.get(key)
    if (!point) {
      point = decodePublicKey(bytes, nodeId)
      if (points.size >= 65_536) points = new Map()
      points.set(key, point)
    }
    return point
  }
}

/**
 * `validators.FlattenValidatorSet`: keyless validators add to the total weight only; validators
 * sharing a key become one entry with the summed weight; entries sort by uncompressed key.
 * Throws on a key that does not decode or a total weight over uint64 (`overflow`).
 */
export function canonicalValidatorSet(validators: readonly WarpValidatorInput[], decode: PublicKeyDecoder = decodePublicKey): WarpValidatorSet {
  const byKey = new Map<string, WarpValidator>()
  let totalWeight = 0n
  for (const v of validators) {
    const weight = BigInt(v.weight)
    if (weight < 0n || weight > MAX_UINT64) throw new InvalidArgumentError(`validator ${v.nodeId}: weight must be a uint64 but got ${weight}`)
    totalWeight += weight
    if (totalWeight > MAX_UINT64) throw new InvalidArgumentError('overflow')
    if (!v.blsPublicKey) continue
    const point = decode(v.blsPublicKey, v.nodeId)
    const publicKeyBytes = point.toBytes(false)
    const key = Buffer.from(publicKeyBytes).toString('hex')
    let entry = byKey.get(key)
    if (!entry) {
      entry = { publicKey: point.toBytes(true), publicKeyBytes, weight: 0n, nodeIds: [], point }
      byKey.set(key, entry)
    }
    entry.weight += weight
    entry.nodeIds.push(v.nodeId)
  }
  const sorted = [...byKey.values()].sort((a, b) => compareBytes(a.publicKeyBytes, b.publicKeyBytes))
  return { validators: sorted, totalWeight, verdicts: new Map() }
}

/**
 * Signs `unsigned` as the given validators would and aggregates: bit i set for each signer whose
 * public key is canonical validator i (several signers sharing a key sign once). A signer's
 * `blsPublicKeyBytes` (compressed), when given, saves deriving it from the secret key. Throws when a
 * signer is not in the set or there is no signer.
 */
export function signMessage(
  unsigned: UnsignedMessage | Uint8Array,
  signers: readonly { blsSecretKey: Uint8Array; blsPublicKeyBytes?: Uint8Array }[],
  set: WarpValidatorSet,
): BitSetSignature {
  const unsignedBytes = unsigned instanceof Uint8Array ? unsigned : encodeUnsignedMessage(unsigned)
  const indexByKey = new Map(set.validators.map((v, i) => [Buffer.from(v.publicKey).toString('hex'), i]))
  const chosen = new Map<number, Uint8Array>()
  for (const signer of signers) {
    const key = Buffer.from(signer.blsPublicKeyBytes ?? blsPublicKeyOf(signer.blsSecretKey)).toString('hex')
    const index = indexByKey.get(key)
    if (index === undefined) throw new InvalidArgumentError(`signer with BLS key 0x${key} is not in the validator set`)
    chosen.set(index, signer.blsSecretKey)
  }
  if (chosen.size === 0) throw new InvalidArgumentError('no signatures')
  // Σ skᵢ·H(m) = (Σ skᵢ)·H(m): the same aggregate point (so the same bytes) for one signature
  // instead of one per signer. Keys summing to 0 mod r (no secret key) are signed one by one.
  const summed = [...chosen.values()].reduce((sum, secretKey) => (sum + BigInt(`0x${Buffer.from(secretKey).toString('hex')}`)) % BLS_CURVE_ORDER, 0n)
  const signature =
    summed === 0n
      ? aggregateBlsSignatures([...chosen.values()].map((secretKey) => blsSignatureSign(secretKey, unsignedBytes)))
      : blsSignatureSign(Buffer.from(summed.toString(16).padStart(64, '0'), 'hex'), unsignedBytes)
  return { signers: bitSetFromIndexes(chosen.keys()), signature }
}

export type VerifyWarpMessageArgs = {
  /** Signed message bytes (as in a predicate) or a parsed message. */
  message: Uint8Array | SignedMessage
  /** This chain's network id. */
  networkId: number
  /** The source subnet's canonical set at the block's P-chain height. */
  validators: WarpValidatorSet
  /** The warp config's numerator; 0 or absent means 67. */
  quorumNumerator?: bigint | number
  /** 100 unless given. */
  quorumDenominator?: bigint | number
}

/**
 * `BitSetSignature.Verify`, wrapped as `warp.Config.VerifyPredicate` wraps it. Returns undefined
 * when valid, otherwise the error text:
 * `cannot verify warp signature: wrong networkID` | `…: bitset is invalid` |
 * `…: unknown validator: NumIndices (i) >= NumFilteredValidators (n)` |
 * `…: signature weight is insufficient: num*total > den*signed` |
 * `…: failed to parse signature: couldn't decompress signature` | `…: no public keys` |
 * `…: signature is invalid`. Bytes that do not parse give `cannot parse warp message: …`.
 * Choosing the source subnet's set (see {@link warpSourceSubnet}) is the caller's job.
 */
export function verifyWarpMessage(args: VerifyWarpMessageArgs): string | undefined {
  let message: SignedMessage
  if (args.message instanceof Uint8Array) {
    try {
      message = parseMessage(args.message)
    } catch (error) {
      if (error instanceof WarpError) return `cannot parse warp message: ${error.message}`
      throw error
    }
  } else message = args.message
  const error = verifySignature(message, args)
  return error === undefined ? undefined : `cannot verify warp signature: ${error}`
}

/**
 * `BitSetSignature.Verify` itself: undefined when valid, otherwise the bare error text
 * (`wrong networkID`, `signature weight is insufficient: 67*200 > 100*100`, …), as the P-chain's
 * warp verifier reports it.
 */
export function verifySignature(message: SignedMessage, args: Omit<VerifyWarpMessageArgs, 'message'>): string | undefined {
  const verdicts = args.validators.verdicts
  if (!verdicts) return checkSignature(message, args)
  const { signers, signature } = message.signature
  const key = `${args.networkId}/${args.quorumNumerator ?? 0}/${args.quorumDenominator ?? WARP_QUORUM_DENOMINATOR}/${hexOf(message.unsignedBytes)}/${hexOf(signers)}/${hexOf(signature)}`
  if (verdicts.has(key)) return verdicts.get(key)
  const verdict = checkSignature(message, args)
  if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!)
  verdicts.set(key, verdict)
  return verdict
}

const hexOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')

function checkSignature(message: SignedMessage, args: Omit<VerifyWarpMessageArgs, 'message'>): string | undefined {
  const quorumNum = BigInt(args.quorumNumerator ?? 0) === 0n ? WARP_DEFAULT_QUORUM_NUMERATOR : BigInt(args.quorumNumerator!)
  const quorumDen = BigInt(args.quorumDenominator ?? WARP_QUORUM_DENOMINATOR)
  if (message.unsigned.networkId !== args.networkId) return 'wrong networkID'
  const { signers: bits, signature } = message.signature
  if (!isMinimalBitSet(bits)) return 'bitset is invalid'
  const { validators, totalWeight } = args.validators
  const bitLength = bitSetLength(bits)
  if (bitLength > validators.length)
    return `unknown validator: NumIndices (${bitLength - 1}) >= NumFilteredValidators (${validators.length})`
  const signers = validators.filter((_, i) => bitSetContains(bits, i))
  const signedWeight = signers.reduce((sum, v) => sum + v.weight, 0n)
  if (totalWeight * quorumNum > signedWeight * quorumDen)
    return `signature weight is insufficient: ${quorumNum}*${totalWeight} > ${quorumDen}*${signedWeight}`
  const sig = decodeBlsSignature(signature)
  if (typeof sig === 'string') return `failed to parse signature: ${sig}`
  if (signers.length === 0) return 'no public keys'
  const ok = verifyBlsSignature(aggregateBlsPublicKeys(signers.map((v) => v.point)), message.unsignedBytes, sig)
  return ok ? undefined : 'signature is invalid'
}

/** `constants.PrimaryNetworkID` / `constants.PlatformChainID`: 32 zero bytes. */
const isEmptyId = (id: Uint8Array): boolean => id.length === 32 && id.every((b) => b === 0)

/**
 * Whose validators must have signed (`warp.Config.VerifyPredicate`): the source chain's subnet,
 * except that a message from the primary network (C-chain, X-chain, P-chain) is checked against
 * this chain's own subnet unless `requirePrimaryNetworkSigners` is set, and always so for the P-chain.
 */
export function warpSourceSubnet(args: {
  sourceChainId: Uint8Array
  /** The subnet the source chain belongs to. */
  sourceSubnetId: Uint8Array
  /** This chain's subnet. */
  ownSubnetId: Uint8Array
  requirePrimaryNetworkSigners: boolean
}): Uint8Array {
  if (isEmptyId(args.sourceSubnetId) && (!args.requirePrimaryNetworkSigners || isEmptyId(args.sourceChainId)))
    return args.ownSubnetId
  return args.sourceSubnetId
}
