/**
 * The records of the platform indexer (`platform.ts`) and what it reads from a tx by itself:
 * UTXO records, the L1 validations a P-chain tx touches and what the tx says of each.
 */
import { bytesToHex } from '../core/hex.js'
import { idToString, nodeIdToString as nodeIdOf } from '../core/ids.js'
import { parseAddressedCall, parseMessage } from '../evm/warp/codec.js'
import { utxoId as inputIdOf } from '../platform/codec.js'
import { conversionValidationId, parseL1ValidatorWeight, parseRegisterL1Validator, registerValidationId } from '../platform/pchain/warpMessages.js'
import type { OutputOwners, PChainUnsignedTx, Utxo, XChainUnsignedTx } from '../platform/txs.js'
import type { CAtomicUnsignedTx } from '../platform/xchain/cAtomicCodec.js'

export type PlatformChain = 'P' | 'X' | 'C'

/** Where and when a UTXO was consumed (spent on its chain, or imported by another). */
export type UtxoConsumption = { chainId: string; txId: string; height: number; blockHash: string; timestamp: number }

/** A UTXO as the index keeps it. Addresses are 20-byte hex without 0x. */
export type IndexedUtxo = {
  utxoId: string
  utxo: Utxo
  /** The chain whose codec encodes it (`P` for P-chain UTXOs, `X` otherwise). */
  codec: 'P' | 'X'
  createdOnChainId: string
  /** The tx that produced it (for a staking return or reward: the RewardValidatorTx). */
  createdBy: string
  height: number
  blockHash: string
  timestamp: number
  amount: bigint
  assetId: string
  addresses: string[]
  threshold: number
  locktime: bigint
  stakeableLocktime?: bigint
  /** Locked as stake from `start` to `end` (an AddValidator / AddDelegator stake output). */
  staked?: { start: number; end: number }
  rewardType?: 'VALIDATOR' | 'DELEGATOR' | 'VALIDATOR_FEE'
  exportedTo?: string
}

/** An L1 validator as a tx left it. */
export type L1ValidatorSample = {
  validationId: string
  nodeId: string
  subnetId: string
  weight: bigint
  remainingBalance: bigint
  balanceChange?: bigint
  publicKey: string
  proofOfPossession: string
}

export type IndexedTx = {
  chain: PlatformChain
  /** Position in its chain's list: the paging cursor. */
  seq: number
  txId: string
  type: string
  height: number
  blockHash: string
  timestamp: number
  unsigned: PChainUnsignedTx | XChainUnsignedTx | CAtomicUnsignedTx
  credentials: { sigs: Uint8Array[] }[]
  consumed: string[]
  emitted: string[]
  addresses: string[]
  validationIds: string[]
  l1?: L1ValidatorSample[]
}

export type TxFilter = { addresses?: readonly string[]; validationId?: string; txTypes?: readonly string[]; startTimestamp?: number; endTimestamp?: number }

export const hex = (b: Uint8Array) => bytesToHex(b).slice(2)
export const inputUtxoId = (txId: Uint8Array, index: number) => idToString(inputIdOf(txId, index))
const ownersOf = (o: Utxo['output']): OutputOwners => (o.type === 'StakeableLockOut' ? o.output.owners : o.owners)
const amountOf = (o: Utxo['output']): bigint => (o.type === 'TransferOutput' ? o.amount : o.type === 'StakeableLockOut' ? o.output.amount : 0n)

/** A UTXO record; `extra` adds what the tx that made it says (stake window, reward type, export). */
export const makeUtxo = (u: Utxo, codec: 'P' | 'X', createdOnChainId: string, createdBy: string, block: { height: number; blockHash: string; timestamp: number }, extra: Partial<IndexedUtxo> = {}): IndexedUtxo => {
  const owners = ownersOf(u.output)
  return {
    utxoId: inputUtxoId(u.txId, u.outputIndex), utxo: u, codec, createdOnChainId, createdBy, ...block,
    amount: amountOf(u.output), assetId: idToString(u.assetId), addresses: owners.addrs.map(hex), threshold: owners.threshold, locktime: owners.locktime,
    ...(u.output.type === 'StakeableLockOut' ? { stakeableLocktime: u.output.locktime } : {}),
    ...extra,
  }
}

/** The payload of the AddressedCall a warp message carries. */
export function readWarpPayload(message: Uint8Array): Uint8Array {
  return parseAddressedCall(parseMessage(message).unsigned.payload).payload
}

/**
 * The L1 validators a P tx registered or changed, as the tx and the earlier L1 txs say (`last`:
 * the details the previous tx of a validation left). A refund (disable, weight 0) is the output
 * after the base outputs, and shows as a negative balance change.
 */
export function l1Effects(u: PChainUnsignedTx, emitted: IndexedUtxo[], last: (validationId: string) => L1ValidatorSample | undefined): L1ValidatorSample[] {
  const refund = () => emitted.find((e) => e.utxo.outputIndex === ('base' in u ? u.base.outputs.length : -1))?.amount
  switch (u.type) {
    case 'ConvertSubnetToL1Tx':
      return u.validators.map((v, i) => ({
        validationId: idToString(conversionValidationId(u.subnetId, i)), nodeId: nodeIdOf(v.nodeId), subnetId: idToString(u.subnetId),
        weight: v.weight, remainingBalance: v.balance, balanceChange: v.balance, publicKey: bytesToHex(v.signer.publicKey), proofOfPossession: bytesToHex(v.signer.signature),
      }))
    case 'RegisterL1ValidatorTx': {
      const payload = readWarpPayload(u.message)
      const m = parseRegisterL1Validator(payload)
      return [{
        validationId: idToString(registerValidationId(payload)), nodeId: nodeIdOf(m.nodeId), subnetId: idToString(m.subnetId), weight: m.weight,
        remainingBalance: u.balance, balanceChange: u.balance, publicKey: bytesToHex(m.blsPublicKey), proofOfPossession: bytesToHex(u.proofOfPossession),
      }]
    }
    case 'SetL1ValidatorWeightTx': {
      const m = parseL1ValidatorWeight(readWarpPayload(u.message))
      const vid = idToString(m.validationId)
      const prev = last(vid)
      if (!prev) return []
      const back = m.weight === 0n ? refund() : undefined
      const { balanceChange: _, ...rest } = prev
      return [{ ...rest, weight: m.weight, ...(m.weight === 0n ? { remainingBalance: 0n } : {}), ...(back !== undefined ? { balanceChange: -back } : {}) }]
    }
    case 'IncreaseL1ValidatorBalanceTx': {
      const prev = last(idToString(u.validationId))
      return prev ? [{ ...prev, remainingBalance: prev.remainingBalance + u.balance, balanceChange: u.balance }] : []
    }
    case 'DisableL1ValidatorTx': {
      const prev = last(idToString(u.validationId))
      const back = refund()
      if (!prev) return []
      const { balanceChange: _, ...rest } = prev
      return [{ ...rest, remainingBalance: 0n, ...(back !== undefined ? { balanceChange: -back } : {}) }]
    }
    default:
      return []
  }
}

/** The L1 validation ids a P tx names (an accepted tx's warp message parses). */
export function validationIdsOf(u: PChainUnsignedTx): string[] {
  switch (u.type) {
    case 'ConvertSubnetToL1Tx': return u.validators.map((_, i) => idToString(conversionValidationId(u.subnetId, i)))
    case 'RegisterL1ValidatorTx': return [idToString(registerValidationId(readWarpPayload(u.message)))]
    case 'SetL1ValidatorWeightTx': return [idToString(parseL1ValidatorWeight(readWarpPayload(u.message)).validationId)]
    case 'IncreaseL1ValidatorBalanceTx':
    case 'DisableL1ValidatorTx': return [idToString(u.validationId)]
    default: return []
  }
}

/** How many outputs an X-chain tx makes (UTXO indices 0…n−1). */
export function xOutputCount(u: XChainUnsignedTx): number {
  let n = u.base.outputs.length
  if (u.type === 'CreateAssetTx') n += u.initialStates.reduce((s, st) => s + st.outputs.length, 0)
  if (u.type === 'OperationTx') n += u.operations.length * 2
  if (u.type === 'ExportTx') n += u.exportedOutputs.length
  return n
}

