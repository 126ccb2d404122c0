import { InvalidArgumentError } from '../../core/errors.js'
import { hexToBytes, type Hex } from '../../core/hex.js'
import { bitSetCount, bitSetFromIndexes, isMinimalBitSet, parseMessage, parsePayload, WarpError, type SignedMessage } from './codec.js'

/**
 * Predicates: how a signed warp message rides in a transaction's access list
 * (avalanchego `vms/evm/predicate`), what it adds to intrinsic gas (`warp.Config.PredicateGas`), and
 * the per-transaction verification results (`core/predicate_check.go`).
 */

/** The warp precompile, lower-case. Access-list tuples with this address carry predicates. */
export const WARP_ADDRESS: Hex = '0x0200000000000000000000000000000000000005'

const CHUNK = 32
const DELIMITER = 0xff

/** Gas constants of `precompile/contracts/warp/contract.go`, before and from Granite. */
export type WarpGasConfig = {
  getBlockchainId: bigint
  getVerifiedWarpMessageBase: bigint
  perWarpSigner: bigint
  perWarpMessageChunk: bigint
  verifyPredicateBase: bigint
  sendWarpMessageBase: bigint
  perWarpMessageByte: bigint
}

/** LogGas + 3·LogTopicGas + 20_000 (sign and serve) + WriteGasCostPerSlot. */
const SEND_WARP_MESSAGE_BASE = 375n + 3n * 375n + 20_000n + 20_000n

export const PRE_GRANITE_WARP_GAS: Readonly<WarpGasConfig> = Object.freeze({
  getBlockchainId: 2n,
  getVerifiedWarpMessageBase: 2n,
  perWarpSigner: 500n,
  perWarpMessageChunk: 3_200n,
  verifyPredicateBase: 200_000n,
  sendWarpMessageBase: SEND_WARP_MESSAGE_BASE,
  perWarpMessageByte: 8n,
})

export const GRANITE_WARP_GAS: Readonly<WarpGasConfig> = Object.freeze({
  getBlockchainId: 200n,
  getVerifiedWarpMessageBase: 750n,
  perWarpSigner: 250n,
  perWarpMessageChunk: 512n,
  verifyPredicateBase: 125_000n,
  sendWarpMessageBase: SEND_WARP_MESSAGE_BASE,
  perWarpMessageByte: 8n,
})

export function warpGasConfig(isGranite: boolean): Readonly<WarpGasConfig> {
  return isGranite ? GRANITE_WARP_GAS : PRE_GRANITE_WARP_GAS
}

type BytesLike = Uint8Array | Hex
const toBytes = (value: BytesLike): Uint8Array => (typeof value === 'string' ? hexToBytes(value) : value)

/**
 * `predicate.New`: the bytes, then 0xff, then zeros up to a multiple of 32, cut into 32-byte
 * storage keys. Always at least one key (an empty predicate is one key starting with 0xff).
 */
export function packPredicate(bytes: Uint8Array): Uint8Array[] {
  const chunks = Math.floor(bytes.length / CHUNK) + 1
  const padded = new Uint8Array(chunks * CHUNK)
  padded.set(bytes)
  padded[bytes.length] = DELIMITER
  return Array.from({ length: chunks }, (_, i) => padded.slice(i * CHUNK, (i + 1) * CHUNK))
}

/** {@link packPredicate} as `0x` storage keys, the form an access list takes in JSON and in ethers/viem. */
export function packPredicateHex(bytes: Uint8Array): Hex[] {
  return packPredicate(bytes).map((chunk) => `0x${Buffer.from(chunk).toString('hex')}` as Hex)
}

/** Storage keys as given (hex or bytes) or already concatenated into one byte string of 32-byte chunks. */
export type PredicateInput = readonly BytesLike[] | Uint8Array

/** The storage keys as one byte string (a multiple of 32 bytes). */
export function predicateChunks(predicate: PredicateInput): Uint8Array {
  if (predicate instanceof Uint8Array) {
    if (predicate.length % CHUNK !== 0)
      throw new InvalidArgumentError(`a predicate must be a multiple of 32 bytes but got ${predicate.length}`)
    return predicate
  }
  const out = new Uint8Array(predicate.length * CHUNK)
  predicate.forEach((key, i) => {
    const bytes = toBytes(key)
    if (bytes.length !== CHUNK) throw new InvalidArgumentError(`a storage key must be 32 bytes but got ${bytes.length}`)
    out.set(bytes, i * CHUNK)
  })
  return out
}

/** Number of 32-byte storage keys, what the chunk gas is charged on. */
export function predicateChunkCount(predicate: PredicateInput): number {
  return predicateChunks(predicate).length / CHUNK
}

/**
 * `Predicate.Bytes`: strips the zero padding and the 0xff delimiter. Throws {@link WarpError} with
 * `no delimiter found: length (N)`, `predicate included excess padding: got length (N), expected length (M)`
 * or `wrong delimiter`.
 */
export function unpackPredicate(predicate: PredicateInput): Uint8Array {
  const padded = predicateChunks(predicate)
  const chunks = padded.length / CHUNK
  let end = padded.length
  while (end > 0 && padded[end - 1] === 0) end--
  if (end === 0) throw new WarpError(`no delimiter found: length (${chunks})`)
  const expected = Math.ceil(end / CHUNK)
  if (expected !== chunks)
    throw new WarpError(`predicate included excess padding: got length (${chunks}), expected length (${expected})`)
  if (padded[end - 1] !== DELIMITER) throw new WarpError('wrong delimiter')
  return padded.slice(0, end - 1)
}

/**
 * `warp.Config.PredicateGas`: the intrinsic gas of one warp access-list tuple, which replaces the
 * usual 2400 + 1900 per key. base + chunk·#keys + signer·#signers. Throws {@link WarpError} when the
 * predicate, message, payload or signer bit set does not parse, which makes the transaction invalid:
 * `cannot unpack predicate bytes: …`, `cannot unpack warp message: …`,
 * `cannot unpack warp message payload: …`, `cannot fetch num signers from warp message: bitset is invalid`.
 */
export function predicateGas(predicate: PredicateInput, isGranite: boolean): bigint {
  const gas = warpGasConfig(isGranite)
  const chunks = BigInt(predicateChunkCount(predicate))
  let bytes: Uint8Array
  try {
    bytes = unpackPredicate(predicate)
  } catch (error) {
    throw wrap('cannot unpack predicate bytes', error)
  }
  let message: SignedMessage
  try {
    message = parseMessage(bytes)
  } catch (error) {
    throw wrap('cannot unpack warp message', error)
  }
  try {
    parsePayload(message.unsigned.payload)
  } catch (error) {
    throw wrap('cannot unpack warp message payload', error)
  }
  if (!isMinimalBitSet(message.signature.signers))
    throw new WarpError('cannot fetch num signers from warp message: bitset is invalid')
  const signers = BigInt(bitSetCount(message.signature.signers))
  return gas.verifyPredicateBase + gas.perWarpMessageChunk * chunks + gas.perWarpSigner * signers
}

function wrap(prefix: string, error: unknown): WarpError {
  if (error instanceof WarpError) return new WarpError(`${prefix}: ${error.message}`)
  throw error
}

export type AccessListEntry = { address: BytesLike; storageKeys: readonly BytesLike[] }

const isWarpAddress = (address: BytesLike): boolean =>
  (typeof address === 'string' ? address.toLowerCase() : `0x${Buffer.from(address).toString('hex')}`) === WARP_ADDRESS

/**
 * Access-list intrinsic gas with predicates (`precompileconfig.AccessListGasWithPredicates`): warp
 * tuples cost {@link predicateGas} when warp is active, every other tuple 2400 + 1900 per key.
 * Throws what {@link predicateGas} throws.
 */
export function accessListGas(accessList: readonly AccessListEntry[], rules: { warpActive: boolean; isGranite: boolean }): bigint {
  let gas = 0n
  for (const tuple of accessList) {
    if (rules.warpActive && isWarpAddress(tuple.address)) gas += predicateGas(tuple.storageKeys, rules.isGranite)
    else gas += 2400n + 1900n * BigInt(tuple.storageKeys.length)
  }
  return gas
}

/** What the warp precompile reads for `getVerifiedWarp*(index)`. */
export type WarpPredicate = {
  /** The tuple's storage keys concatenated (32 bytes each), i.e. the packed predicate. */
  bytes: Uint8Array
  /** False when the block's predicate results mark this index as failed. */
  valid: boolean
}

export type PredicateVerification = {
  /** The warp tuples in access-list order, with why each failed (undefined when it verified). */
  predicates: { bytes: Uint8Array; error: string | undefined }[]
  /**
   * The failed indexes as `set.Bits` bytes (big-endian, minimal; empty when all verified), the value
   * stored for the warp address in the block's predicate results; undefined when the transaction
   * has no warp tuple (no entry at all).
   */
  failed: Uint8Array | undefined
  /** The `getPredicate` for {@link createWarpPrecompile}'s context while this transaction runs. */
  getPredicate(index: number): WarpPredicate | undefined
}

/**
 * `CheckTxPredicates` for the warp address: the i-th warp tuple fails (bit i) when its predicate
 * does not unpack (`cannot unpack predicate bytes: …`), the message does not parse
 * (`cannot parse warp message: …`) or `verify` returns an error string (e.g. from
 * `verifyWarpMessage`). A failure never drops the transaction; `getVerifiedWarpMessage(i)` then
 * returns `valid = false`. Call it only when warp is active at the block.
 */
export function verifyPredicates(
  accessList: readonly AccessListEntry[],
  verify: (message: SignedMessage) => string | undefined,
): PredicateVerification {
  const predicates: PredicateVerification['predicates'] = []
  const failedIndexes: number[] = []
  for (const tuple of accessList) {
    if (!isWarpAddress(tuple.address)) continue
    const bytes = predicateChunks(tuple.storageKeys)
    const error = verifyOne(bytes, verify)
    if (error !== undefined) failedIndexes.push(predicates.length)
    predicates.push({ bytes, error })
  }
  const failed = predicates.length === 0 ? undefined : bitSetFromIndexes(failedIndexes)
  return {
    predicates,
    failed,
    getPredicate(index) {
      const entry = predicates[index]
      return entry && { bytes: entry.bytes, valid: entry.error === undefined }
    },
  }
}

function verifyOne(bytes: Uint8Array, verify: (message: SignedMessage) => string | undefined): string | undefined {
  let unpacked: Uint8Array
  try {
    unpacked = unpackPredicate(bytes)
  } catch (error) {
    return wrap('cannot unpack predicate bytes', error).message
  }
  let message: SignedMessage
  try {
    message = parseMessage(unpacked)
  } catch (error) {
    return wrap('cannot parse warp message', error).message
  }
  return verify(message)
}

/**
 * The block's predicate results as subnet-EVM stores them after the header's fee window
 * (`predicate.BlockResults.Bytes`): codec version 0, then map[txHash]map[address][]byte in the linear
 * codec, keys sorted bytewise. Pass only transactions that had predicates (the others have no entry).
 */
export function encodeBlockPredicateResults(results: ReadonlyMap<BytesLike, ReadonlyMap<BytesLike, Uint8Array>>): Uint8Array {
  const parts: Uint8Array[] = [new Uint8Array([0, 0]), u32(results.size)]
  const txs = [...results].map(([hash, inner]) => [toFixed(hash, 32, 'tx hash'), inner] as const)
  txs.sort((a, b) => Buffer.compare(a[0], b[0]))
  for (const [hash, inner] of txs) {
    parts.push(hash, u32(inner.size))
    const entries = [...inner].map(([address, bits]) => [toFixed(address, 20, 'address'), bits] as const)
    entries.sort((a, b) => Buffer.compare(a[0], b[0]))
    for (const [address, bits] of entries) parts.push(address, u32(bits.length), bits)
  }
  return new Uint8Array(Buffer.concat(parts))
}

function toFixed(value: BytesLike, length: number, what: string): Uint8Array {
  const bytes = toBytes(value)
  if (bytes.length !== length) throw new InvalidArgumentError(`${what} must be ${length} bytes but got ${bytes.length}`)
  return bytes
}

function u32(value: number): Uint8Array {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, value)
  return out
}
