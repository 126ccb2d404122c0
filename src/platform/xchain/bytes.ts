import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ripemd160, sha256 } from '../../core/sha256.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { cb58Encode } from '../../core/cb58.js'
import { bytesToHex, type Hex } from '../../core/hex.js'
import { nativeSecp256k1 } from '../../core/native.js'
import type { Id, MintOperation, Operation, Output, ShortId, TransferOutput, MintOutput, OutputOwners } from '../txs.js'
import { fail } from './errors.js'

/**
 * Small byte-level helpers the X-chain and atomic code need: input ids, the byte comparisons the
 * real code sorts by (`bytes.Compare` of codec bytes), and secp256k1 signature recovery.
 */

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && compareBytes(a, b) === 0
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

export function u32(n: number): Uint8Array {
  const b = new Uint8Array(4)
  new DataView(b.buffer).setUint32(0, n >>> 0)
  return b
}

export function u64(n: bigint): Uint8Array {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, n))
  return b
}

/** `UTXOID.InputID()` = `txID.Prefix(outputIndex)` = sha256(uint64 BE index ‖ txID). */
export function inputId(txId: Id, outputIndex: number): Uint8Array {
  return sha256(concat(u64(BigInt(outputIndex)), txId))
}

/** Key used for maps: lower-case hex. */
export const hexKey = (b: Uint8Array): Hex => bytesToHex(b)

/** `ids.ShortID.String()`: cb58 of the 20 bytes (how `wrong signature` names addresses). */
export function shortIdString(addr: ShortId): string {
  return cb58Encode(addr)
}

// --- codec bytes used only for ordering (the 2-byte version prefix is common and omitted) ---

const TYPE_ID = { TransferInput: 5, MintOutput: 6, TransferOutput: 7, MintOperation: 8, Credential: 9 } as const

function ownersBytes(o: OutputOwners): Uint8Array {
  return concat(u64(o.locktime), u32(o.threshold), u32(o.addrs.length), ...o.addrs)
}

function transferOutputBody(o: TransferOutput): Uint8Array {
  return concat(u64(o.amount), ownersBytes(o.owners))
}

function mintOutputBody(o: MintOutput): Uint8Array {
  return ownersBytes(o.owners)
}

/** Codec bytes of an interface-typed output (type id + body), as `SortTransferableOutputs` compares them. */
export function outputSortBytes(out: Output): Uint8Array {
  switch (out.type) {
    case 'TransferOutput':
      return concat(u32(TYPE_ID.TransferOutput), transferOutputBody(out))
    case 'MintOutput':
      return concat(u32(TYPE_ID.MintOutput), mintOutputBody(out))
    case 'StakeableLockOut':
      return concat(u32(22), u64(out.locktime), u32(TYPE_ID.TransferOutput), transferOutputBody(out.output))
  }
}

function mintOperationBytes(op: MintOperation): Uint8Array {
  return concat(
    u32(TYPE_ID.MintOperation),
    u32(op.mintInput.sigIndices.length),
    ...op.mintInput.sigIndices.map(u32),
    mintOutputBody(op.mintOutput),
    transferOutputBody(op.transferOutput),
  )
}

/** Codec bytes of a `txs.Operation`, as `IsSortedAndUniqueOperations` compares them. */
export function operationSortBytes(op: Operation): Uint8Array {
  return concat(
    op.assetId,
    u32(op.utxoIds.length),
    ...op.utxoIds.flatMap((u) => [u.txId, u32(u.outputIndex)]),
    mintOperationBytes(op.op),
  )
}

// --- secp256k1 ---

const HALF_N = secp256k1.Point.Fn.ORDER >> 1n

/**
 * `secp256k1.RecoverPublicKeyFromHash`: a 65-byte `[r ‖ s ‖ v]` signature over a 32-byte hash →
 * the 33-byte compressed public key. Refuses high-s signatures as avalanchego does.
 */
export function recoverPublicKey(hash: Uint8Array, sig: Uint8Array): Uint8Array {
  if (sig.length !== 65) fail('invalidSignature', 'invalid signature length')
  const s = BigInt(bytesToHex(sig.subarray(32, 64)))
  if (s > HALF_N) fail('invalidSignature', 'signature was mutated from its original format')
  const v = sig[64]!
  if (v > 3) fail('invalidSignature')
  try {
    // libsecp256k1 when it loads: a recovery in ~40 µs where noble takes about a millisecond, and
    // every tx is verified twice (into the mempool, into its block). Same keys, same refusals.
    const native = nativeSecp256k1()
    if (native) return native.ecdsaRecover(sig.subarray(0, 64), v, hash, true)
    const recovered = new Uint8Array(65)
    recovered[0] = v
    recovered.set(sig.subarray(0, 64), 1)
    return secp256k1.recoverPublicKey(recovered, hash, { prehash: false })
  } catch {
    return fail('invalidSignature')
  }
}

/** `PublicKey.Address()`: ripemd160(sha256(compressed key)). */
export function pubKeyToShortId(compressed: Uint8Array): ShortId {
  return ripemd160(sha256(compressed))
}

/** `PublicKey.EthAddress()`: the last 20 bytes of keccak256 of the uncompressed key (without 0x04). */
export function pubKeyToEthAddress(compressed: Uint8Array): Uint8Array {
  const point = secp256k1.Point.fromBytes(compressed)
  return keccak_256(point.toBytes(false).subarray(1)).subarray(12)
}

/** `key.SignHash(hash)` → 65-byte `[r ‖ s ‖ v]`, low-s (RFC 6979, deterministic). */
export function signHash(privateKey: Uint8Array, hash: Uint8Array): Uint8Array {
  const native = nativeSecp256k1()
  if (native) {
    // RFC 6979 and low s in both: the same bytes as noble's, in µs.
    const { signature, recid } = native.ecdsaSign(hash, privateKey)
    const out = new Uint8Array(65)
    out.set(signature, 0)
    out[64] = recid
    return out
  }
  const rec = secp256k1.sign(hash, privateKey, { prehash: false, format: 'recovered', lowS: true })
  const out = new Uint8Array(65)
  out.set(rec.subarray(1, 65), 0)
  out[64] = rec[0]!
  return out
}

/** The compressed public key of a 32-byte private key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(privateKey, true)
}
