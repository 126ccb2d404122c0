import { formatAddress, hrpForNetworkId } from '../core/address.js'
import { idToString, nodeIdToString } from '../core/ids.js'

/**
 * The transaction and UTXO model of the P-chain (platformvm) and X-chain (avm), field for field
 * as avalanchego's Go structs declare them (`serialize:"true"` order), so that
 * `src/platform/codec.ts` can write the exact bytes the real linear codec writes.
 *
 * Representation choices:
 * - Ids (tx, asset, blockchain, subnet, vm, fx, validation ids) are 32-byte `Uint8Array`s
 *   ({@link Id}); show them with {@link showId} (cb58, as avalanchego prints `ids.ID`).
 * - Addresses and NodeIDs are 20-byte `Uint8Array`s ({@link ShortId}); show them with
 *   {@link showAddress} (`P-local1…`) and {@link showNodeId} (`NodeID-…`).
 * - Amounts, times (unix seconds), locktimes, weights and balances are `bigint` (Go `uint64`).
 * - 32-bit values (network id, output index, threshold, signature indices, delegation shares)
 *   and bytes (denomination) are `number`.
 * - Every interface-typed Go field (`verify.State`, `avax.TransferableOut`, `fx.Owner`,
 *   `signer.Signer`, …) is a discriminated union on `type`, whose value is the Go type name.
 *   Concrete (non-interface) struct fields carry no `type` tag.
 *
 * All objects are plain data: no classes, safe to structuredClone for snapshots.
 */

/** A 32-byte id (`ids.ID`). */
export type Id = Uint8Array
/** A 20-byte short id (`ids.ShortID`: an address; `ids.NodeID`: a node). */
export type ShortId = Uint8Array

/** The chain whose codec applies: platformvm (`P`) or avm (`X`). */
export type Chain = 'P' | 'X'

export const ID_LEN = 32
export const SHORT_ID_LEN = 20
/** `secp256k1.SignatureLen`: `[r ‖ s ‖ v]`. */
export const SECP256K1_SIG_LEN = 65
/** `bls.PublicKeyLen` (compressed G1). */
export const BLS_PUBLIC_KEY_LEN = 48
/** `bls.SignatureLen` (compressed G2). */
export const BLS_SIGNATURE_LEN = 96

// ---------------------------------------------------------------------------------------------
// secp256k1fx
// ---------------------------------------------------------------------------------------------

/**
 * `secp256k1fx.OutputOwners`: who may spend (`threshold` of `addrs` signing) and from when
 * (`locktime`, unix seconds; 0 = now). Addresses must be sorted and unique to pass `Verify`.
 * Used embedded in outputs (no type id) and as `fx.Owner` (P-chain type id 11) for rewards
 * owners and subnet owners.
 */
export interface OutputOwners {
  locktime: bigint
  threshold: number
  addrs: ShortId[]
}

/** `secp256k1fx.TransferOutput` (type id 7 on both chains): `Amt` then the embedded owners. */
export interface TransferOutput {
  type: 'TransferOutput'
  amount: bigint
  owners: OutputOwners
}

/** `secp256k1fx.MintOutput` (X-chain type id 6): the right to mint more of an asset. */
export interface MintOutput {
  type: 'MintOutput'
  owners: OutputOwners
}

/**
 * `stakeable.LockOut` (P-chain type id 22): a TransferOutput that cannot be spent except for
 * staking until `locktime`.
 */
export interface StakeableLockOut {
  type: 'StakeableLockOut'
  locktime: bigint
  output: TransferOutput
}

/**
 * The output of a UTXO or a transferable output. P-chain: TransferOutput | StakeableLockOut;
 * X-chain: TransferOutput | MintOutput (MintOutput only in UTXOs / initial states / operations).
 */
export type Output = TransferOutput | MintOutput | StakeableLockOut

/**
 * `secp256k1fx.Input` (P-chain type id 10 when used as `verify.Verifiable` subnet / disable
 * auth): indices into the owners' addresses of the signers, sorted and unique.
 */
export interface Input {
  sigIndices: number[]
}

/** `secp256k1fx.TransferInput` (type id 5 on both chains): `Amt` then the embedded Input. */
export interface TransferInput {
  type: 'TransferInput'
  amount: bigint
  sigIndices: number[]
}

/** `stakeable.LockIn` (P-chain type id 21): spends a StakeableLockOut before its locktime. */
export interface StakeableLockIn {
  type: 'StakeableLockIn'
  locktime: bigint
  input: TransferInput
}

/** The input of a transferable input. StakeableLockIn is P-chain only. */
export type TransferableIn = TransferInput | StakeableLockIn

/** `secp256k1fx.Credential` (type id 9 on both chains): 65-byte `[r ‖ s ‖ v]` signatures. */
export interface Credential {
  sigs: Uint8Array[]
}

/** `secp256k1fx.MintOperation` (X-chain type id 8). */
export interface MintOperation {
  type: 'MintOperation'
  mintInput: Input
  mintOutput: MintOutput
  transferOutput: TransferOutput
}

// ---------------------------------------------------------------------------------------------
// avax components
// ---------------------------------------------------------------------------------------------

/** `avax.UTXOID`: which output of which tx. */
export interface UtxoId {
  txId: Id
  outputIndex: number
}

/** `avax.TransferableOutput`: `Asset` then `Out` (an interface: type id + body). */
export interface TransferableOutput {
  assetId: Id
  output: TransferOutput | StakeableLockOut
}

/** `avax.TransferableInput`: `UTXOID`, `Asset`, then `In` (type id + body). */
export interface TransferableInput {
  txId: Id
  outputIndex: number
  assetId: Id
  input: TransferableIn
}

/**
 * `avax.UTXO`: `UTXOID`, `Asset`, `Out`. Serialized with the chain's codec (version prefix
 * included) — that is `utxoBytes` as `getUTXOs` returns it.
 */
export interface Utxo {
  txId: Id
  outputIndex: number
  assetId: Id
  output: Output
}

/** `avax.BaseTx`, the head of every tx except AdvanceTimeTx / RewardValidatorTx. */
export interface AvaxBaseTx {
  networkId: number
  blockchainId: Id
  outputs: TransferableOutput[]
  inputs: TransferableInput[]
  /** At most 256 bytes (`avax.MaxMemoSize`). */
  memo: Uint8Array
}

// ---------------------------------------------------------------------------------------------
// P-chain
// ---------------------------------------------------------------------------------------------

/** `txs.Validator`: NodeID, Start, End, Wght (unix seconds; weight in nAVAX or subnet units). */
export interface Validator {
  nodeId: ShortId
  start: bigint
  end: bigint
  weight: bigint
}

/** `signer.Empty` (type id 27): no BLS key (non-primary-network validators). */
export interface EmptySigner {
  type: 'Empty'
}

/** `signer.ProofOfPossession` (type id 28): 48-byte BLS public key, 96-byte signature. */
export interface ProofOfPossession {
  type: 'ProofOfPossession'
  publicKey: Uint8Array
  signature: Uint8Array
}

/** `signer.Signer`. */
export type Signer = EmptySigner | ProofOfPossession

/**
 * `message.PChainOwner` (warp message): like OutputOwners without a locktime. Used for the
 * remaining-balance and deactivation owners of L1 validators.
 */
export interface PChainOwner {
  threshold: number
  addrs: ShortId[]
}

/** `txs.ConvertSubnetToL1Validator`. `nodeId` is a byte slice (any length ≤ 20 accepted by Go's verify: exactly 20, non-empty id). */
export interface ConvertSubnetToL1Validator {
  nodeId: Uint8Array
  weight: bigint
  balance: bigint
  /** A concrete `signer.ProofOfPossession` here (no type id on the wire). */
  signer: { publicKey: Uint8Array; signature: Uint8Array }
  remainingBalanceOwner: PChainOwner
  deactivationOwner: PChainOwner
}

/** P-chain `txs.BaseTx` (type id 34). */
export interface PBaseTx {
  type: 'BaseTx'
  base: AvaxBaseTx
}

/** `txs.AddValidatorTx` (type id 12, pre-Durango primary network validator). */
export interface AddValidatorTx {
  type: 'AddValidatorTx'
  base: AvaxBaseTx
  validator: Validator
  stakeOuts: TransferableOutput[]
  rewardsOwner: OutputOwners
  /** Delegation fee in parts per 1,000,000 (`reward.PercentDenominator`). */
  delegationShares: number
}

/** `txs.AddSubnetValidatorTx` (type id 13). */
export interface AddSubnetValidatorTx {
  type: 'AddSubnetValidatorTx'
  base: AvaxBaseTx
  /** `SubnetValidator` = Validator then Subnet. */
  validator: Validator
  subnetId: Id
  subnetAuth: Input
}

/** `txs.AddDelegatorTx` (type id 14). */
export interface AddDelegatorTx {
  type: 'AddDelegatorTx'
  base: AvaxBaseTx
  validator: Validator
  stakeOuts: TransferableOutput[]
  rewardsOwner: OutputOwners
}

/** `txs.CreateChainTx` (type id 15). */
export interface CreateChainTx {
  type: 'CreateChainTx'
  base: AvaxBaseTx
  subnetId: Id
  chainName: string
  vmId: Id
  fxIds: Id[]
  genesisData: Uint8Array
  subnetAuth: Input
}

/** `txs.CreateSubnetTx` (type id 16). */
export interface CreateSubnetTx {
  type: 'CreateSubnetTx'
  base: AvaxBaseTx
  owner: OutputOwners
}

/** `txs.ImportTx` (P type id 17; X type id 3). */
export interface ImportTx {
  type: 'ImportTx'
  base: AvaxBaseTx
  sourceChain: Id
  importedInputs: TransferableInput[]
}

/** `txs.ExportTx` (P type id 18; X type id 4). */
export interface ExportTx {
  type: 'ExportTx'
  base: AvaxBaseTx
  destinationChain: Id
  exportedOutputs: TransferableOutput[]
}

/** `txs.AdvanceTimeTx` (type id 19, pre-Banff proposal tx). */
export interface AdvanceTimeTx {
  type: 'AdvanceTimeTx'
  time: bigint
}

/** `txs.RewardValidatorTx` (type id 20): ends the staker created by `txId`. */
export interface RewardValidatorTx {
  type: 'RewardValidatorTx'
  txId: Id
}

/** `txs.RemoveSubnetValidatorTx` (type id 23). */
export interface RemoveSubnetValidatorTx {
  type: 'RemoveSubnetValidatorTx'
  base: AvaxBaseTx
  nodeId: ShortId
  subnetId: Id
  subnetAuth: Input
}

/** `txs.TransformSubnetTx` (type id 24; disabled since Etna, modelled for decoding only). */
export interface TransformSubnetTx {
  type: 'TransformSubnetTx'
  base: AvaxBaseTx
  subnetId: Id
  assetId: Id
  initialSupply: bigint
  maximumSupply: bigint
  minConsumptionRate: bigint
  maxConsumptionRate: bigint
  minValidatorStake: bigint
  maxValidatorStake: bigint
  minStakeDuration: number
  maxStakeDuration: number
  minDelegationFee: number
  minDelegatorStake: bigint
  /** A byte. */
  maxValidatorWeightFactor: number
  uptimeRequirement: number
  subnetAuth: Input
}

/** `txs.AddPermissionlessValidatorTx` (type id 25). */
export interface AddPermissionlessValidatorTx {
  type: 'AddPermissionlessValidatorTx'
  base: AvaxBaseTx
  validator: Validator
  subnetId: Id
  signer: Signer
  stakeOuts: TransferableOutput[]
  validatorRewardsOwner: OutputOwners
  delegatorRewardsOwner: OutputOwners
  /** Delegation fee in parts per 1,000,000. */
  delegationShares: number
}

/** `txs.AddPermissionlessDelegatorTx` (type id 26). */
export interface AddPermissionlessDelegatorTx {
  type: 'AddPermissionlessDelegatorTx'
  base: AvaxBaseTx
  validator: Validator
  subnetId: Id
  stakeOuts: TransferableOutput[]
  delegatorRewardsOwner: OutputOwners
}

/** `txs.TransferSubnetOwnershipTx` (type id 33). Note: SubnetAuth comes before Owner. */
export interface TransferSubnetOwnershipTx {
  type: 'TransferSubnetOwnershipTx'
  base: AvaxBaseTx
  subnetId: Id
  subnetAuth: Input
  owner: OutputOwners
}

/** `txs.ConvertSubnetToL1Tx` (type id 35). */
export interface ConvertSubnetToL1Tx {
  type: 'ConvertSubnetToL1Tx'
  base: AvaxBaseTx
  subnetId: Id
  /** The chain where the validator manager lives. */
  chainId: Id
  /** The validator manager's address (bytes; 20 for an EVM contract). */
  address: Uint8Array
  validators: ConvertSubnetToL1Validator[]
  subnetAuth: Input
}

/** `txs.RegisterL1ValidatorTx` (type id 36). */
export interface RegisterL1ValidatorTx {
  type: 'RegisterL1ValidatorTx'
  base: AvaxBaseTx
  balance: bigint
  /** 96-byte BLS proof of possession of the key in the message. */
  proofOfPossession: Uint8Array
  /** Signed warp message bytes (AddressedCall carrying RegisterL1Validator). */
  message: Uint8Array
}

/** `txs.SetL1ValidatorWeightTx` (type id 37). */
export interface SetL1ValidatorWeightTx {
  type: 'SetL1ValidatorWeightTx'
  base: AvaxBaseTx
  /** Signed warp message bytes (AddressedCall carrying L1ValidatorWeight). */
  message: Uint8Array
}

/** `txs.IncreaseL1ValidatorBalanceTx` (type id 38). */
export interface IncreaseL1ValidatorBalanceTx {
  type: 'IncreaseL1ValidatorBalanceTx'
  base: AvaxBaseTx
  validationId: Id
  balance: bigint
}

/** `txs.DisableL1ValidatorTx` (type id 39). */
export interface DisableL1ValidatorTx {
  type: 'DisableL1ValidatorTx'
  base: AvaxBaseTx
  validationId: Id
  disableAuth: Input
}

/** Every unsigned P-chain transaction. */
export type PChainUnsignedTx =
  | PBaseTx
  | AddValidatorTx
  | AddSubnetValidatorTx
  | AddDelegatorTx
  | CreateChainTx
  | CreateSubnetTx
  | ImportTx
  | ExportTx
  | AdvanceTimeTx
  | RewardValidatorTx
  | RemoveSubnetValidatorTx
  | TransformSubnetTx
  | AddPermissionlessValidatorTx
  | AddPermissionlessDelegatorTx
  | TransferSubnetOwnershipTx
  | ConvertSubnetToL1Tx
  | RegisterL1ValidatorTx
  | SetL1ValidatorWeightTx
  | IncreaseL1ValidatorBalanceTx
  | DisableL1ValidatorTx

export type PChainTxType = PChainUnsignedTx['type']

// ---------------------------------------------------------------------------------------------
// X-chain
// ---------------------------------------------------------------------------------------------

/** X-chain `txs.BaseTx` (type id 0). */
export interface XBaseTx {
  type: 'BaseTx'
  base: AvaxBaseTx
}

/** `txs.InitialState`: outputs of one fx (index into the VM's fxs; 0 = secp256k1fx). */
export interface InitialState {
  fxIndex: number
  outputs: (TransferOutput | MintOutput)[]
}

/** `txs.CreateAssetTx` (type id 1). The new asset's id is the tx id. */
export interface CreateAssetTx {
  type: 'CreateAssetTx'
  base: AvaxBaseTx
  /** ASCII, ≤ 128 chars. */
  name: string
  /** ASCII upper case, ≤ 4 chars. */
  symbol: string
  /** 0..32. */
  denomination: number
  initialStates: InitialState[]
}

/** `txs.Operation`: `Asset`, `UTXOIDs`, then the fx operation (type id + body). */
export interface Operation {
  assetId: Id
  utxoIds: UtxoId[]
  op: MintOperation
}

/** `txs.OperationTx` (type id 2). */
export interface OperationTx {
  type: 'OperationTx'
  base: AvaxBaseTx
  operations: Operation[]
}

/** Every unsigned X-chain transaction (ImportTx / ExportTx share their P-chain shapes). */
export type XChainUnsignedTx = XBaseTx | CreateAssetTx | OperationTx | ImportTx | ExportTx

export type XChainTxType = XChainUnsignedTx['type']

export type UnsignedTx = PChainUnsignedTx | XChainUnsignedTx

/**
 * `txs.Tx`: the unsigned tx and one credential per input (in input order; then, for
 * AddSubnetValidator / CreateChain / RemoveSubnetValidator / TransferSubnetOwnership /
 * ConvertSubnetToL1 / DisableL1Validator, one more for the auth; for X OperationTx one per op).
 */
export interface SignedTx<T extends UnsignedTx = UnsignedTx> {
  unsigned: T
  credentials: Credential[]
}

export type PChainSignedTx = SignedTx<PChainUnsignedTx>
export type XChainSignedTx = SignedTx<XChainUnsignedTx>

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** The `avax.BaseTx` of a tx, or undefined for AdvanceTimeTx / RewardValidatorTx. */
export function baseOf(tx: UnsignedTx): AvaxBaseTx | undefined {
  return 'base' in tx ? tx.base : undefined
}

/** All inputs a tx consumes, in credential order: base inputs then imported inputs. */
export function allInputs(tx: UnsignedTx): TransferableInput[] {
  const base = baseOf(tx)
  if (!base) return []
  return tx.type === 'ImportTx' ? [...base.inputs, ...tx.importedInputs] : base.inputs
}

/**
 * The outputs a tx creates on its own chain, in UTXO index order (`avax.BaseTx.Outs`; for
 * AddValidator / AddDelegator / AddPermissionless* the stake outputs follow at
 * `len(Outs) + i` only when returned at the end of staking — not included here).
 */
export function ownOutputs(tx: UnsignedTx): TransferableOutput[] {
  return baseOf(tx)?.outputs ?? []
}

/** cb58 of a 32-byte id, as avalanchego prints `ids.ID`. */
export function showId(id: Id): string {
  return idToString(id)
}

/** `NodeID-…` of a 20-byte node id. */
export function showNodeId(nodeId: ShortId): string {
  return nodeIdToString(nodeId)
}

/** `P-local1…` / `X-fuji1…` of a 20-byte address. */
export function showAddress(chain: Chain | string, networkId: number, addr: ShortId): string {
  return formatAddress(chain, hrpForNetworkId(networkId), addr)
}

/** Amount of a transferable output or input, looking through stakeable locks. */
export function amountOf(x: Output | TransferableIn): bigint {
  switch (x.type) {
    case 'TransferOutput':
    case 'TransferInput':
      return x.amount
    case 'StakeableLockOut':
      return x.output.amount
    case 'StakeableLockIn':
      return x.input.amount
    case 'MintOutput':
      return 0n
  }
}

/** The OutputOwners of an output, looking through a stakeable lock. */
export function ownersOf(out: Output): OutputOwners {
  return out.type === 'StakeableLockOut' ? out.output.owners : out.owners
}

/** Signature indices of an input, looking through a stakeable lock. */
export function sigIndicesOf(input: TransferableIn): number[] {
  return input.type === 'StakeableLockIn' ? input.input.sigIndices : input.sigIndices
}
