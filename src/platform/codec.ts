import { sha256 } from '../core/sha256.js'
import { DecodeError, InvalidArgumentError } from '../core/errors.js'
import { idToString } from '../core/ids.js'
import {
  BLS_PUBLIC_KEY_LEN,
  BLS_SIGNATURE_LEN,
  ID_LEN,
  SECP256K1_SIG_LEN,
  SHORT_ID_LEN,
  type AvaxBaseTx,
  type Chain,
  type ConvertSubnetToL1Validator,
  type Credential,
  type Id,
  type InitialState,
  type Input,
  type MintOperation,
  type MintOutput,
  type Operation,
  type Output,
  type OutputOwners,
  type PChainOwner,
  type PChainSignedTx,
  type PChainUnsignedTx,
  type Signer,
  type SignedTx,
  type TransferableIn,
  type TransferableInput,
  type TransferableOutput,
  type TransferOutput,
  type UnsignedTx,
  type Utxo,
  type UtxoId,
  type Validator,
  type XChainSignedTx,
  type XChainUnsignedTx,
} from './txs.js'

/**
 * avalanchego's linear codec (`codec/linearcodec` + `codec/reflectcodec`) for the P-chain
 * (`vms/platformvm/txs/codec.go`) and X-chain (`vms/avm/txs/parser.go` + each fx's `Initialize`):
 *
 * - a u16 codec version (0) heads every top-level value;
 * - integers big-endian at their Go width; bool one byte;
 * - strings: u16 length + bytes; byte slices and slices: u32 length + elements;
 * - fixed arrays (ids, signatures, BLS keys): the bytes, no length;
 * - interface values: u32 type id (registration order) + the struct;
 * - struct fields in declaration order, embedded structs inline.
 */

export const CODEC_VERSION = 0
/** `codec.defaultMaxSize`: the largest byte slice `Codec.Unmarshal` accepts. */
export const MAX_CODEC_SIZE = 256 * 1024

/**
 * P-chain type ids. Registration skips 5 ids for Apricot blocks, 1 for secp256k1fx.MintOutput,
 * 1 for MintOperation and 4 (29–32) for Banff blocks. 40–42 are Helicon's auto-renewed
 * validator txs (not modelled).
 */
export const P_TYPE_IDS = {
  TransferInput: 5,
  TransferOutput: 7,
  Credential: 9,
  Input: 10,
  OutputOwners: 11,
  AddValidatorTx: 12,
  AddSubnetValidatorTx: 13,
  AddDelegatorTx: 14,
  CreateChainTx: 15,
  CreateSubnetTx: 16,
  ImportTx: 17,
  ExportTx: 18,
  AdvanceTimeTx: 19,
  RewardValidatorTx: 20,
  StakeableLockIn: 21,
  StakeableLockOut: 22,
  RemoveSubnetValidatorTx: 23,
  TransformSubnetTx: 24,
  AddPermissionlessValidatorTx: 25,
  AddPermissionlessDelegatorTx: 26,
  EmptySigner: 27,
  ProofOfPossession: 28,
  TransferSubnetOwnershipTx: 33,
  BaseTx: 34,
  ConvertSubnetToL1Tx: 35,
  RegisterL1ValidatorTx: 36,
  SetL1ValidatorWeightTx: 37,
  IncreaseL1ValidatorBalanceTx: 38,
  DisableL1ValidatorTx: 39,
} as const

/**
 * X-chain type ids: the five txs, then secp256k1fx's five types (fx index 0). nftfx (10–14)
 * and propertyfx (15–19) follow but are not modelled.
 */
export const X_TYPE_IDS = {
  BaseTx: 0,
  CreateAssetTx: 1,
  OperationTx: 2,
  ImportTx: 3,
  ExportTx: 4,
  TransferInput: 5,
  MintOutput: 6,
  TransferOutput: 7,
  MintOperation: 8,
  Credential: 9,
} as const

const P_TYPE_NAMES = new Map<number, string>(Object.entries(P_TYPE_IDS).map(([k, v]) => [v, k]))
const X_TYPE_NAMES = new Map<number, string>(Object.entries(X_TYPE_IDS).map(([k, v]) => [v, k]))

function typeId(chain: Chain, name: string): number {
  const table: Record<string, number> = chain === 'P' ? P_TYPE_IDS : X_TYPE_IDS
  const id = table[name]
  if (id === undefined) throw new InvalidArgumentError(`can't marshal unregistered type ${name} on the ${chain}-chain`)
  return id
}

// ---------------------------------------------------------------------------------------------
// Writer / Reader
// ---------------------------------------------------------------------------------------------

const U64_MAX = (1n << 64n) - 1n

/** A growable big-endian byte writer (the marshal half of `wrappers.Packer`). */
export class Writer {
  private buf = new Uint8Array(256)
  private view = new DataView(this.buf.buffer)
  private len = 0

  private grow(n: number): void {
    if (this.len + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.len + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.len))
    this.buf = next
    this.view = new DataView(next.buffer)
  }

  u8(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xff) throw new InvalidArgumentError(`not a uint8: ${v}`)
    this.grow(1)
    this.buf[this.len++] = v
    return this
  }

  u16(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new InvalidArgumentError(`not a uint16: ${v}`)
    this.grow(2)
    this.view.setUint16(this.len, v)
    this.len += 2
    return this
  }

  u32(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new InvalidArgumentError(`not a uint32: ${v}`)
    this.grow(4)
    this.view.setUint32(this.len, v)
    this.len += 4
    return this
  }

  u64(v: bigint): this {
    if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw new InvalidArgumentError(`not a uint64: ${String(v)}`)
    this.grow(8)
    this.view.setBigUint64(this.len, v)
    this.len += 8
    return this
  }

  /** Fixed-size array (`[N]byte`): no length prefix. */
  fixed(bytes: Uint8Array, size: number, what = 'value'): this {
    if (!(bytes instanceof Uint8Array) || bytes.length !== size)
      throw new InvalidArgumentError(`expected ${size} bytes for ${what} but got ${bytes?.length}`)
    this.grow(size)
    this.buf.set(bytes, this.len)
    this.len += size
    return this
  }

  /** `[]byte`: u32 length + bytes. */
  bytes(bytes: Uint8Array): this {
    this.u32(bytes.length)
    this.grow(bytes.length)
    this.buf.set(bytes, this.len)
    this.len += bytes.length
    return this
  }

  /** `string`: u16 length + UTF-8 bytes. */
  str(s: string): this {
    const b = new TextEncoder().encode(s)
    this.u16(b.length)
    this.grow(b.length)
    this.buf.set(b, this.len)
    this.len += b.length
    return this
  }

  /** A slice: u32 count, then each element. */
  list<T>(items: readonly T[], each: (item: T) => void): this {
    this.u32(items.length)
    for (const item of items) each(item)
    return this
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len)
  }
}

/** A big-endian byte reader (the unmarshal half of `wrappers.Packer`); throws DecodeError. */
export class Reader {
  private offset = 0
  private readonly view: DataView

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
  }

  get position(): number {
    return this.offset
  }

  get remaining(): number {
    return this.buf.length - this.offset
  }

  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new DecodeError('packer has insufficient length for input')
  }

  u8(): number {
    this.need(1)
    return this.buf[this.offset++]!
  }

  u16(): number {
    this.need(2)
    const v = this.view.getUint16(this.offset)
    this.offset += 2
    return v
  }

  u32(): number {
    this.need(4)
    const v = this.view.getUint32(this.offset)
    this.offset += 4
    return v
  }

  u64(): bigint {
    this.need(8)
    const v = this.view.getBigUint64(this.offset)
    this.offset += 8
    return v
  }

  fixed(size: number): Uint8Array {
    this.need(size)
    const v = this.buf.slice(this.offset, this.offset + size)
    this.offset += size
    return v
  }

  bytes(): Uint8Array {
    const n = this.u32()
    return this.fixed(n)
  }

  str(): string {
    const n = this.u16()
    return new TextDecoder().decode(this.fixed(n))
  }

  list<T>(each: () => T): T[] {
    const n = this.u32()
    // Every element takes at least one byte: refuse absurd counts before allocating.
    if (n > this.remaining) throw new DecodeError('packer has insufficient length for input')
    const out: T[] = []
    for (let i = 0; i < n; i++) out.push(each())
    return out
  }

  /** `Codec.Unmarshal`'s last check. */
  end(): void {
    if (this.offset !== this.buf.length)
      throw new DecodeError(`trailing buffer space: read ${this.offset} provided ${this.buf.length}`)
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

function writeOwners(w: Writer, o: OutputOwners): void {
  w.u64(o.locktime).u32(o.threshold).list(o.addrs, (a) => w.fixed(a, SHORT_ID_LEN, 'an address'))
}

function writeTransferOutputBody(w: Writer, o: TransferOutput): void {
  w.u64(o.amount)
  writeOwners(w, o.owners)
}

/** An output as an interface value: type id + body. */
function writeOutput(w: Writer, chain: Chain, o: Output): void {
  switch (o.type) {
    case 'TransferOutput':
      w.u32(typeId(chain, 'TransferOutput'))
      writeTransferOutputBody(w, o)
      return
    case 'MintOutput':
      w.u32(typeId(chain, 'MintOutput'))
      writeOwners(w, o.owners)
      return
    case 'StakeableLockOut':
      w.u32(typeId(chain, 'StakeableLockOut')).u64(o.locktime)
      writeOutput(w, chain, o.output)
      return
    default:
      throw new InvalidArgumentError(`unknown output type ${(o as { type: string }).type}`)
  }
}

function writeInputBody(w: Writer, i: Input): void {
  w.list(i.sigIndices, (s) => w.u32(s))
}

function writeTransferableIn(w: Writer, chain: Chain, i: TransferableIn): void {
  switch (i.type) {
    case 'TransferInput':
      w.u32(typeId(chain, 'TransferInput')).u64(i.amount)
      w.list(i.sigIndices, (s) => w.u32(s))
      return
    case 'StakeableLockIn':
      w.u32(typeId(chain, 'StakeableLockIn')).u64(i.locktime)
      writeTransferableIn(w, chain, i.input)
      return
    default:
      throw new InvalidArgumentError(`unknown input type ${(i as { type: string }).type}`)
  }
}

function writeTransferableOutput(w: Writer, chain: Chain, o: TransferableOutput): void {
  w.fixed(o.assetId, ID_LEN, 'an asset id')
  writeOutput(w, chain, o.output)
}

function writeTransferableInput(w: Writer, chain: Chain, i: TransferableInput): void {
  w.fixed(i.txId, ID_LEN, 'a tx id').u32(i.outputIndex).fixed(i.assetId, ID_LEN, 'an asset id')
  writeTransferableIn(w, chain, i.input)
}

function writeBase(w: Writer, chain: Chain, b: AvaxBaseTx): void {
  w.u32(b.networkId).fixed(b.blockchainId, ID_LEN, 'a blockchain id')
  w.list(b.outputs, (o) => writeTransferableOutput(w, chain, o))
  w.list(b.inputs, (i) => writeTransferableInput(w, chain, i))
  w.bytes(b.memo)
}

function writeValidator(w: Writer, v: Validator): void {
  w.fixed(v.nodeId, SHORT_ID_LEN, 'a node id').u64(v.start).u64(v.end).u64(v.weight)
}

/** `fx.Owner` on the P-chain: OutputOwners with its type id. */
function writeOwner(w: Writer, o: OutputOwners): void {
  w.u32(P_TYPE_IDS.OutputOwners)
  writeOwners(w, o)
}

/** `verify.Verifiable` subnet auth on the P-chain: secp256k1fx.Input with its type id. */
function writeAuth(w: Writer, i: Input): void {
  w.u32(P_TYPE_IDS.Input)
  writeInputBody(w, i)
}

function writeSigner(w: Writer, s: Signer): void {
  if (s.type === 'Empty') {
    w.u32(P_TYPE_IDS.EmptySigner)
    return
  }
  w.u32(P_TYPE_IDS.ProofOfPossession)
  w.fixed(s.publicKey, BLS_PUBLIC_KEY_LEN, 'a BLS public key').fixed(s.signature, BLS_SIGNATURE_LEN, 'a BLS signature')
}

function writePChainOwner(w: Writer, o: PChainOwner): void {
  w.u32(o.threshold).list(o.addrs, (a) => w.fixed(a, SHORT_ID_LEN, 'an address'))
}

function writeL1Validator(w: Writer, v: ConvertSubnetToL1Validator): void {
  w.bytes(v.nodeId).u64(v.weight).u64(v.balance)
  w.fixed(v.signer.publicKey, BLS_PUBLIC_KEY_LEN, 'a BLS public key')
  w.fixed(v.signer.signature, BLS_SIGNATURE_LEN, 'a BLS signature')
  writePChainOwner(w, v.remainingBalanceOwner)
  writePChainOwner(w, v.deactivationOwner)
}

function writeStakeOuts(w: Writer, outs: TransferableOutput[]): void {
  w.list(outs, (o) => writeTransferableOutput(w, 'P', o))
}

/** The unsigned P-chain tx as an interface value (type id + body), without codec version. */
function writePTx(w: Writer, tx: PChainUnsignedTx): void {
  w.u32(P_TYPE_IDS[tx.type])
  switch (tx.type) {
    case 'BaseTx':
      writeBase(w, 'P', tx.base)
      return
    case 'AddValidatorTx':
      writeBase(w, 'P', tx.base)
      writeValidator(w, tx.validator)
      writeStakeOuts(w, tx.stakeOuts)
      writeOwner(w, tx.rewardsOwner)
      w.u32(tx.delegationShares)
      return
    case 'AddSubnetValidatorTx':
      writeBase(w, 'P', tx.base)
      writeValidator(w, tx.validator)
      w.fixed(tx.subnetId, ID_LEN, 'a subnet id')
      writeAuth(w, tx.subnetAuth)
      return
    case 'AddDelegatorTx':
      writeBase(w, 'P', tx.base)
      writeValidator(w, tx.validator)
      writeStakeOuts(w, tx.stakeOuts)
      writeOwner(w, tx.rewardsOwner)
      return
    case 'CreateChainTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.subnetId, ID_LEN, 'a subnet id').str(tx.chainName).fixed(tx.vmId, ID_LEN, 'a vm id')
      w.list(tx.fxIds, (id) => w.fixed(id, ID_LEN, 'an fx id'))
      w.bytes(tx.genesisData)
      writeAuth(w, tx.subnetAuth)
      return
    case 'CreateSubnetTx':
      writeBase(w, 'P', tx.base)
      writeOwner(w, tx.owner)
      return
    case 'ImportTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.sourceChain, ID_LEN, 'a chain id')
      w.list(tx.importedInputs, (i) => writeTransferableInput(w, 'P', i))
      return
    case 'ExportTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.destinationChain, ID_LEN, 'a chain id')
      w.list(tx.exportedOutputs, (o) => writeTransferableOutput(w, 'P', o))
      return
    case 'AdvanceTimeTx':
      w.u64(tx.time)
      return
    case 'RewardValidatorTx':
      w.fixed(tx.txId, ID_LEN, 'a tx id')
      return
    case 'RemoveSubnetValidatorTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.nodeId, SHORT_ID_LEN, 'a node id').fixed(tx.subnetId, ID_LEN, 'a subnet id')
      writeAuth(w, tx.subnetAuth)
      return
    case 'TransformSubnetTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.subnetId, ID_LEN, 'a subnet id').fixed(tx.assetId, ID_LEN, 'an asset id')
      w.u64(tx.initialSupply).u64(tx.maximumSupply).u64(tx.minConsumptionRate).u64(tx.maxConsumptionRate)
      w.u64(tx.minValidatorStake).u64(tx.maxValidatorStake)
      w.u32(tx.minStakeDuration).u32(tx.maxStakeDuration).u32(tx.minDelegationFee)
      w.u64(tx.minDelegatorStake).u8(tx.maxValidatorWeightFactor).u32(tx.uptimeRequirement)
      writeAuth(w, tx.subnetAuth)
      return
    case 'AddPermissionlessValidatorTx':
      writeBase(w, 'P', tx.base)
      writeValidator(w, tx.validator)
      w.fixed(tx.subnetId, ID_LEN, 'a subnet id')
      writeSigner(w, tx.signer)
      writeStakeOuts(w, tx.stakeOuts)
      writeOwner(w, tx.validatorRewardsOwner)
      writeOwner(w, tx.delegatorRewardsOwner)
      w.u32(tx.delegationShares)
      return
    case 'AddPermissionlessDelegatorTx':
      writeBase(w, 'P', tx.base)
      writeValidator(w, tx.validator)
      w.fixed(tx.subnetId, ID_LEN, 'a subnet id')
      writeStakeOuts(w, tx.stakeOuts)
      writeOwner(w, tx.delegatorRewardsOwner)
      return
    case 'TransferSubnetOwnershipTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.subnetId, ID_LEN, 'a subnet id')
      writeAuth(w, tx.subnetAuth)
      writeOwner(w, tx.owner)
      return
    case 'ConvertSubnetToL1Tx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.subnetId, ID_LEN, 'a subnet id').fixed(tx.chainId, ID_LEN, 'a chain id').bytes(tx.address)
      w.list(tx.validators, (v) => writeL1Validator(w, v))
      writeAuth(w, tx.subnetAuth)
      return
    case 'RegisterL1ValidatorTx':
      writeBase(w, 'P', tx.base)
      w.u64(tx.balance).fixed(tx.proofOfPossession, BLS_SIGNATURE_LEN, 'a BLS signature').bytes(tx.message)
      return
    case 'SetL1ValidatorWeightTx':
      writeBase(w, 'P', tx.base)
      w.bytes(tx.message)
      return
    case 'IncreaseL1ValidatorBalanceTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.validationId, ID_LEN, 'a validation id').u64(tx.balance)
      return
    case 'DisableL1ValidatorTx':
      writeBase(w, 'P', tx.base)
      w.fixed(tx.validationId, ID_LEN, 'a validation id')
      writeAuth(w, tx.disableAuth)
      return
    default:
      throw new InvalidArgumentError(`unknown P-chain tx type ${(tx as { type: string }).type}`)
  }
}

function writeInitialState(w: Writer, s: InitialState): void {
  w.u32(s.fxIndex).list(s.outputs, (o) => writeOutput(w, 'X', o))
}

function writeMintOperation(w: Writer, op: MintOperation): void {
  w.u32(X_TYPE_IDS.MintOperation)
  writeInputBody(w, op.mintInput)
  writeOwners(w, op.mintOutput.owners)
  writeTransferOutputBody(w, op.transferOutput)
}

function writeOperation(w: Writer, op: Operation): void {
  w.fixed(op.assetId, ID_LEN, 'an asset id')
  w.list(op.utxoIds, (u) => w.fixed(u.txId, ID_LEN, 'a tx id').u32(u.outputIndex))
  writeMintOperation(w, op.op)
}

function writeXTx(w: Writer, tx: XChainUnsignedTx): void {
  w.u32(X_TYPE_IDS[tx.type])
  writeBase(w, 'X', tx.base)
  switch (tx.type) {
    case 'BaseTx':
      return
    case 'CreateAssetTx':
      w.str(tx.name).str(tx.symbol).u8(tx.denomination)
      w.list(tx.initialStates, (s) => writeInitialState(w, s))
      return
    case 'OperationTx':
      w.list(tx.operations, (op) => writeOperation(w, op))
      return
    case 'ImportTx':
      w.fixed(tx.sourceChain, ID_LEN, 'a chain id')
      w.list(tx.importedInputs, (i) => writeTransferableInput(w, 'X', i))
      return
    case 'ExportTx':
      w.fixed(tx.destinationChain, ID_LEN, 'a chain id')
      w.list(tx.exportedOutputs, (o) => writeTransferableOutput(w, 'X', o))
      return
    default:
      throw new InvalidArgumentError(`unknown X-chain tx type ${(tx as { type: string }).type}`)
  }
}

function writeUnsigned(w: Writer, chain: Chain, tx: UnsignedTx): void {
  if (chain === 'P') writePTx(w, tx as PChainUnsignedTx)
  else writeXTx(w, tx as XChainUnsignedTx)
}

function writeCredential(w: Writer, chain: Chain, c: Credential): void {
  w.u32(typeId(chain, 'Credential'))
  w.list(c.sigs, (s) => w.fixed(s, SECP256K1_SIG_LEN, 'a signature'))
}

/** The bytes that are signed: codec version + the unsigned tx as an interface value. */
export function encodeUnsignedTx(chain: 'P', tx: PChainUnsignedTx): Uint8Array
export function encodeUnsignedTx(chain: 'X', tx: XChainUnsignedTx): Uint8Array
export function encodeUnsignedTx(chain: Chain, tx: UnsignedTx): Uint8Array
export function encodeUnsignedTx(chain: Chain, tx: UnsignedTx): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION)
  writeUnsigned(w, chain, tx)
  return w.finish()
}

/** `txs.Tx` bytes: codec version, the unsigned tx (type id + body), then the credentials. */
export function encodeSignedTx(chain: 'P', tx: PChainSignedTx): Uint8Array
export function encodeSignedTx(chain: 'X', tx: XChainSignedTx): Uint8Array
export function encodeSignedTx(chain: Chain, tx: SignedTx): Uint8Array
export function encodeSignedTx(chain: Chain, tx: SignedTx): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION)
  writeUnsigned(w, chain, tx.unsigned)
  w.list(tx.credentials, (c) => writeCredential(w, chain, c))
  return w.finish()
}

/** The 32 raw bytes of a tx id: sha256 of the signed tx bytes. */
export function txIdBytes(signedBytes: Uint8Array): Id {
  return sha256(signedBytes)
}

/** A tx id as avalanchego prints it: cb58(sha256(signed bytes)). */
export function txId(signedBytes: Uint8Array): string {
  return idToString(sha256(signedBytes))
}

/** `utxoBytes` as `getUTXOs` returns them: codec version + `avax.UTXO`. */
export function encodeUtxo(chain: Chain, utxo: Utxo): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION)
  w.fixed(utxo.txId, ID_LEN, 'a tx id').u32(utxo.outputIndex).fixed(utxo.assetId, ID_LEN, 'an asset id')
  writeOutput(w, chain, utxo.output)
  return w.finish()
}

/**
 * `avax.UTXOID.InputID()` = `txID.Prefix(outputIndex)` = sha256(u64 BE outputIndex ‖ txID):
 * the key of a UTXO in state and in shared memory.
 */
export function utxoId(txIdValue: Id, outputIndex: number): Id {
  const w = new Writer().u64(BigInt(outputIndex)).fixed(txIdValue, ID_LEN, 'a tx id')
  return sha256(w.finish())
}

/** Bytes of the `avax.TransferableOutput` (no codec version), for sorting outputs as Go does. */
export function encodeTransferableOutput(chain: Chain, out: TransferableOutput): Uint8Array {
  const w = new Writer()
  writeTransferableOutput(w, chain, out)
  return w.finish()
}

/** Bytes of an `OutputOwners` as an `fx.Owner` with codec version (P-chain), e.g. to compare owners. */
export function encodeOwner(owners: OutputOwners): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION)
  writeOwner(w, owners)
  return w.finish()
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

function unknownType(id: number): never {
  throw new DecodeError(`couldn't unmarshal interface: unknown type ID ${id}`)
}

function notImplementing(chain: Chain, id: number, iface: string): never {
  const name = (chain === 'P' ? P_TYPE_NAMES : X_TYPE_NAMES).get(id)
  if (name === undefined) unknownType(id)
  throw new DecodeError(`couldn't unmarshal interface: ${name} does not implement interface ${iface}`)
}

function readOwners(r: Reader): OutputOwners {
  const locktime = r.u64()
  const threshold = r.u32()
  const addrs = r.list(() => r.fixed(SHORT_ID_LEN))
  return { locktime, threshold, addrs }
}

function readInputBody(r: Reader): Input {
  return { sigIndices: r.list(() => r.u32()) }
}

function readTransferOutputBody(r: Reader): TransferOutput {
  const amount = r.u64()
  return { type: 'TransferOutput', amount, owners: readOwners(r) }
}

/** Reads an output interface value; `iface` tells which Go interface is expected. */
function readOutput(r: Reader, chain: Chain, iface: 'avax.TransferableOut' | 'verify.State'): Output {
  const id = r.u32()
  const t = chain === 'P' ? P_TYPE_IDS : X_TYPE_IDS
  if (id === t.TransferOutput) return readTransferOutputBody(r)
  if (chain === 'X' && id === X_TYPE_IDS.MintOutput) {
    if (iface === 'avax.TransferableOut') notImplementing(chain, id, iface)
    return { type: 'MintOutput', owners: readOwners(r) }
  }
  if (chain === 'P' && id === P_TYPE_IDS.StakeableLockOut) {
    const locktime = r.u64()
    const inner = readOutput(r, chain, 'avax.TransferableOut')
    if (inner.type !== 'TransferOutput') throw new DecodeError('invalid stakeable output: nested stakeable lock')
    return { type: 'StakeableLockOut', locktime, output: inner }
  }
  if (!(chain === 'P' ? P_TYPE_NAMES : X_TYPE_NAMES).has(id)) unknownType(id)
  return notImplementing(chain, id, iface)
}

function readTransferableIn(r: Reader, chain: Chain): TransferableIn {
  const id = r.u32()
  const t = chain === 'P' ? P_TYPE_IDS : X_TYPE_IDS
  if (id === t.TransferInput) {
    const amount = r.u64()
    return { type: 'TransferInput', amount, sigIndices: r.list(() => r.u32()) }
  }
  if (chain === 'P' && id === P_TYPE_IDS.StakeableLockIn) {
    const locktime = r.u64()
    const inner = readTransferableIn(r, chain)
    if (inner.type !== 'TransferInput') throw new DecodeError('invalid stakeable input: nested stakeable lock')
    return { type: 'StakeableLockIn', locktime, input: inner }
  }
  return notImplementing(chain, id, 'avax.TransferableIn')
}

function readTransferableOutput(r: Reader, chain: Chain): TransferableOutput {
  const assetId = r.fixed(ID_LEN)
  const output = readOutput(r, chain, 'avax.TransferableOut') as TransferableOutput['output']
  return { assetId, output }
}

function readTransferableInput(r: Reader, chain: Chain): TransferableInput {
  const txIdValue = r.fixed(ID_LEN)
  const outputIndex = r.u32()
  const assetId = r.fixed(ID_LEN)
  return { txId: txIdValue, outputIndex, assetId, input: readTransferableIn(r, chain) }
}

function readBase(r: Reader, chain: Chain): AvaxBaseTx {
  const networkId = r.u32()
  const blockchainId = r.fixed(ID_LEN)
  const outputs = r.list(() => readTransferableOutput(r, chain))
  const inputs = r.list(() => readTransferableInput(r, chain))
  const memo = r.bytes()
  return { networkId, blockchainId, outputs, inputs, memo }
}

function readValidator(r: Reader): Validator {
  const nodeId = r.fixed(SHORT_ID_LEN)
  const start = r.u64()
  const end = r.u64()
  const weight = r.u64()
  return { nodeId, start, end, weight }
}

function readOwner(r: Reader): OutputOwners {
  const id = r.u32()
  if (id !== P_TYPE_IDS.OutputOwners) notImplementing('P', id, 'fx.Owner')
  return readOwners(r)
}

function readAuth(r: Reader): Input {
  const id = r.u32()
  if (id !== P_TYPE_IDS.Input) notImplementing('P', id, 'verify.Verifiable')
  return readInputBody(r)
}

function readSigner(r: Reader): Signer {
  const id = r.u32()
  if (id === P_TYPE_IDS.EmptySigner) return { type: 'Empty' }
  if (id === P_TYPE_IDS.ProofOfPossession) {
    const publicKey = r.fixed(BLS_PUBLIC_KEY_LEN)
    return { type: 'ProofOfPossession', publicKey, signature: r.fixed(BLS_SIGNATURE_LEN) }
  }
  return notImplementing('P', id, 'signer.Signer')
}

function readPChainOwner(r: Reader): PChainOwner {
  const threshold = r.u32()
  return { threshold, addrs: r.list(() => r.fixed(SHORT_ID_LEN)) }
}

function readL1Validator(r: Reader): ConvertSubnetToL1Validator {
  const nodeId = r.bytes()
  const weight = r.u64()
  const balance = r.u64()
  const publicKey = r.fixed(BLS_PUBLIC_KEY_LEN)
  const signature = r.fixed(BLS_SIGNATURE_LEN)
  const remainingBalanceOwner = readPChainOwner(r)
  const deactivationOwner = readPChainOwner(r)
  return { nodeId, weight, balance, signer: { publicKey, signature }, remainingBalanceOwner, deactivationOwner }
}

function readStakeOuts(r: Reader): TransferableOutput[] {
  return r.list(() => readTransferableOutput(r, 'P'))
}

function readPTx(r: Reader): PChainUnsignedTx {
  const id = r.u32()
  const name = P_TYPE_NAMES.get(id)
  if (name === undefined) unknownType(id)
  switch (name) {
    case 'BaseTx':
      return { type: 'BaseTx', base: readBase(r, 'P') }
    case 'AddValidatorTx': {
      const base = readBase(r, 'P')
      const validator = readValidator(r)
      const stakeOuts = readStakeOuts(r)
      const rewardsOwner = readOwner(r)
      return { type: 'AddValidatorTx', base, validator, stakeOuts, rewardsOwner, delegationShares: r.u32() }
    }
    case 'AddSubnetValidatorTx': {
      const base = readBase(r, 'P')
      const validator = readValidator(r)
      const subnetId = r.fixed(ID_LEN)
      return { type: 'AddSubnetValidatorTx', base, validator, subnetId, subnetAuth: readAuth(r) }
    }
    case 'AddDelegatorTx': {
      const base = readBase(r, 'P')
      const validator = readValidator(r)
      const stakeOuts = readStakeOuts(r)
      return { type: 'AddDelegatorTx', base, validator, stakeOuts, rewardsOwner: readOwner(r) }
    }
    case 'CreateChainTx': {
      const base = readBase(r, 'P')
      const subnetId = r.fixed(ID_LEN)
      const chainName = r.str()
      const vmId = r.fixed(ID_LEN)
      const fxIds = r.list(() => r.fixed(ID_LEN))
      const genesisData = r.bytes()
      return { type: 'CreateChainTx', base, subnetId, chainName, vmId, fxIds, genesisData, subnetAuth: readAuth(r) }
    }
    case 'CreateSubnetTx': {
      const base = readBase(r, 'P')
      return { type: 'CreateSubnetTx', base, owner: readOwner(r) }
    }
    case 'ImportTx': {
      const base = readBase(r, 'P')
      const sourceChain = r.fixed(ID_LEN)
      return { type: 'ImportTx', base, sourceChain, importedInputs: r.list(() => readTransferableInput(r, 'P')) }
    }
    case 'ExportTx': {
      const base = readBase(r, 'P')
      const destinationChain = r.fixed(ID_LEN)
      return {
        type: 'ExportTx',
        base,
        destinationChain,
        exportedOutputs: r.list(() => readTransferableOutput(r, 'P')),
      }
    }
    case 'AdvanceTimeTx':
      return { type: 'AdvanceTimeTx', time: r.u64() }
    case 'RewardValidatorTx':
      return { type: 'RewardValidatorTx', txId: r.fixed(ID_LEN) }
    case 'RemoveSubnetValidatorTx': {
      const base = readBase(r, 'P')
      const nodeId = r.fixed(SHORT_ID_LEN)
      const subnetId = r.fixed(ID_LEN)
      return { type: 'RemoveSubnetValidatorTx', base, nodeId, subnetId, subnetAuth: readAuth(r) }
    }
    case 'TransformSubnetTx': {
      const base = readBase(r, 'P')
      return {
        type: 'TransformSubnetTx',
        base,
        subnetId: r.fixed(ID_LEN),
        assetId: r.fixed(ID_LEN),
        initialSupply: r.u64(),
        maximumSupply: r.u64(),
        minConsumptionRate: r.u64(),
        maxConsumptionRate: r.u64(),
        minValidatorStake: r.u64(),
        maxValidatorStake: r.u64(),
        minStakeDuration: r.u32(),
        maxStakeDuration: r.u32(),
        minDelegationFee: r.u32(),
        minDelegatorStake: r.u64(),
        maxValidatorWeightFactor: r.u8(),
        uptimeRequirement: r.u32(),
        subnetAuth: readAuth(r),
      }
    }
    case 'AddPermissionlessValidatorTx': {
      const base = readBase(r, 'P')
      const validator = readValidator(r)
      const subnetId = r.fixed(ID_LEN)
      const signer = readSigner(r)
      const stakeOuts = readStakeOuts(r)
      const validatorRewardsOwner = readOwner(r)
      const delegatorRewardsOwner = readOwner(r)
      return {
        type: 'AddPermissionlessValidatorTx',
        base,
        validator,
        subnetId,
        signer,
        stakeOuts,
        validatorRewardsOwner,
        delegatorRewardsOwner,
        delegationShares: r.u32(),
      }
    }
    case 'AddPermissionlessDelegatorTx': {
      const base = readBase(r, 'P')
      const validator = readValidator(r)
      const subnetId = r.fixed(ID_LEN)
      const stakeOuts = readStakeOuts(r)
      return {
        type: 'AddPermissionlessDelegatorTx',
        base,
        validator,
        subnetId,
        stakeOuts,
        delegatorRewardsOwner: readOwner(r),
      }
    }
    case 'TransferSubnetOwnershipTx': {
      const base = readBase(r, 'P')
      const subnetId = r.fixed(ID_LEN)
      const subnetAuth = readAuth(r)
      return { type: 'TransferSubnetOwnershipTx', base, subnetId, subnetAuth, owner: readOwner(r) }
    }
    case 'ConvertSubnetToL1Tx': {
      const base = readBase(r, 'P')
      const subnetId = r.fixed(ID_LEN)
      const chainId = r.fixed(ID_LEN)
      const address = r.bytes()
      const validators = r.list(() => readL1Validator(r))
      return { type: 'ConvertSubnetToL1Tx', base, subnetId, chainId, address, validators, subnetAuth: readAuth(r) }
    }
    case 'RegisterL1ValidatorTx': {
      const base = readBase(r, 'P')
      const balance = r.u64()
      const proofOfPossession = r.fixed(BLS_SIGNATURE_LEN)
      return { type: 'RegisterL1ValidatorTx', base, balance, proofOfPossession, message: r.bytes() }
    }
    case 'SetL1ValidatorWeightTx': {
      const base = readBase(r, 'P')
      return { type: 'SetL1ValidatorWeightTx', base, message: r.bytes() }
    }
    case 'IncreaseL1ValidatorBalanceTx': {
      const base = readBase(r, 'P')
      const validationId = r.fixed(ID_LEN)
      return { type: 'IncreaseL1ValidatorBalanceTx', base, validationId, balance: r.u64() }
    }
    case 'DisableL1ValidatorTx': {
      const base = readBase(r, 'P')
      const validationId = r.fixed(ID_LEN)
      return { type: 'DisableL1ValidatorTx', base, validationId, disableAuth: readAuth(r) }
    }
    default:
      return notImplementing('P', id, 'txs.UnsignedTx')
  }
}

function readMintOperation(r: Reader): MintOperation {
  const id = r.u32()
  if (id !== X_TYPE_IDS.MintOperation) notImplementing('X', id, 'fxs.FxOperation')
  const mintInput = readInputBody(r)
  const mintOutput: MintOutput = { type: 'MintOutput', owners: readOwners(r) }
  return { type: 'MintOperation', mintInput, mintOutput, transferOutput: readTransferOutputBody(r) }
}

function readOperation(r: Reader): Operation {
  const assetId = r.fixed(ID_LEN)
  const utxoIds = r.list((): UtxoId => {
    const t = r.fixed(ID_LEN)
    return { txId: t, outputIndex: r.u32() }
  })
  return { assetId, utxoIds, op: readMintOperation(r) }
}

function readInitialState(r: Reader): InitialState {
  const fxIndex = r.u32()
  const outputs = r.list(() => {
    const o = readOutput(r, 'X', 'verify.State')
    if (o.type === 'StakeableLockOut') throw new DecodeError('unexpected stakeable output on the X-chain')
    return o
  })
  return { fxIndex, outputs }
}

function readXTx(r: Reader): XChainUnsignedTx {
  const id = r.u32()
  const name = X_TYPE_NAMES.get(id)
  if (name === undefined) unknownType(id)
  if (id > X_TYPE_IDS.ExportTx) notImplementing('X', id, 'txs.UnsignedTx')
  const base = readBase(r, 'X')
  switch (name) {
    case 'BaseTx':
      return { type: 'BaseTx', base }
    case 'CreateAssetTx': {
      const txName = r.str()
      const symbol = r.str()
      const denomination = r.u8()
      return { type: 'CreateAssetTx', base, name: txName, symbol, denomination, initialStates: r.list(() => readInitialState(r)) }
    }
    case 'OperationTx':
      return { type: 'OperationTx', base, operations: r.list(() => readOperation(r)) }
    case 'ImportTx': {
      const sourceChain = r.fixed(ID_LEN)
      return { type: 'ImportTx', base, sourceChain, importedInputs: r.list(() => readTransferableInput(r, 'X')) }
    }
    default: {
      const destinationChain = r.fixed(ID_LEN)
      return {
        type: 'ExportTx',
        base,
        destinationChain,
        exportedOutputs: r.list(() => readTransferableOutput(r, 'X')),
      }
    }
  }
}

function readCredential(r: Reader, chain: Chain): Credential {
  const id = r.u32()
  if (id !== (chain === 'P' ? P_TYPE_IDS.Credential : X_TYPE_IDS.Credential))
    notImplementing(chain, id, chain === 'P' ? 'verify.Verifiable' : 'verify.Verifiable')
  return { sigs: r.list(() => r.fixed(SECP256K1_SIG_LEN)) }
}

function openCodec(bytes: Uint8Array): Reader {
  if (bytes.length > MAX_CODEC_SIZE)
    throw new DecodeError(`byte array exceeds maximum length: ${bytes.length} > ${MAX_CODEC_SIZE}`)
  const r = new Reader(bytes)
  if (r.remaining < 2) throw new DecodeError("couldn't unpack codec version")
  if (r.u16() !== CODEC_VERSION) throw new DecodeError('unknown codec version')
  return r
}

/** Decodes `encodeUnsignedTx` output. */
export function decodeUnsignedTx(chain: 'P', bytes: Uint8Array): PChainUnsignedTx
export function decodeUnsignedTx(chain: 'X', bytes: Uint8Array): XChainUnsignedTx
export function decodeUnsignedTx(chain: Chain, bytes: Uint8Array): UnsignedTx
export function decodeUnsignedTx(chain: Chain, bytes: Uint8Array): UnsignedTx {
  const r = openCodec(bytes)
  const tx = chain === 'P' ? readPTx(r) : readXTx(r)
  r.end()
  return tx
}

/**
 * Parses signed tx bytes as `txs.Parse` does (codec version, tx, credentials, no trailing
 * bytes). Throws DecodeError with the Go codec's messages.
 */
export function decodeSignedTx(chain: 'P', bytes: Uint8Array): PChainSignedTx
export function decodeSignedTx(chain: 'X', bytes: Uint8Array): XChainSignedTx
export function decodeSignedTx(chain: Chain, bytes: Uint8Array): SignedTx
export function decodeSignedTx(chain: Chain, bytes: Uint8Array): SignedTx {
  const r = openCodec(bytes)
  const unsigned = chain === 'P' ? readPTx(r) : readXTx(r)
  const credentials = r.list(() => readCredential(r, chain))
  r.end()
  return { unsigned, credentials }
}

/**
 * The unsigned bytes inside signed tx bytes, as `txs.Tx.Initialize` slices them: everything
 * before the credentials. Equal to `encodeUnsignedTx(chain, decodeSignedTx(chain, b).unsigned)`.
 */
export function unsignedBytesOf(chain: Chain, signedBytes: Uint8Array): Uint8Array {
  const r = openCodec(signedBytes)
  if (chain === 'P') readPTx(r)
  else readXTx(r)
  return signedBytes.slice(0, r.position)
}

/** Decodes `utxoBytes`. */
export function decodeUtxo(chain: Chain, bytes: Uint8Array): Utxo {
  const r = openCodec(bytes)
  const t = r.fixed(ID_LEN)
  const outputIndex = r.u32()
  const assetId = r.fixed(ID_LEN)
  const output = readOutput(r, chain, 'verify.State')
  r.end()
  return { txId: t, outputIndex, assetId, output }
}
