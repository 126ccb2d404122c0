import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '../../core/hex.js'
import type { OutputOwners, PChainOwner, TransferableOutput, Utxo } from '../txs.js'
import { showId } from '../txs.js'

/**
 * The P-chain state (vms/platformvm/state), in memory. Every mutation goes through a method of
 * {@link PChainState} that records its inverse in a journal while one is open, so a transaction
 * or block that fails verification half-way is rolled back exactly (the role of `state.Diff`).
 *
 * Keys are strings: ids in cb58 (`showId`), node ids as `NodeID-…`, UTXOs by `txID:index`
 * (`avax.UTXOID.String()`).
 */

/** `txs.Priority`, which orders stakers with the same next time (priorities.go). */
export const Priority = {
  PrimaryNetworkDelegatorApricotPending: 1,
  PrimaryNetworkValidatorPending: 2,
  PrimaryNetworkDelegatorBanffPending: 3,
  SubnetPermissionlessValidatorPending: 4,
  SubnetPermissionlessDelegatorPending: 5,
  SubnetPermissionedValidatorPending: 6,
  SubnetPermissionedValidatorCurrent: 7,
  SubnetPermissionlessDelegatorCurrent: 8,
  SubnetPermissionlessValidatorCurrent: 9,
  PrimaryNetworkDelegatorCurrent: 10,
  PrimaryNetworkValidatorCurrent: 11,
} as const

export const PENDING_TO_CURRENT: Record<number, number> = {
  1: 10, 2: 11, 3: 10, 4: 9, 5: 8, 6: 7,
}
export const isValidatorPriority = (p: number) => [2, 4, 6, 7, 9, 11].includes(p)
export const isPermissionedValidator = (p: number) => p === 6 || p === 7
export const isCurrentPriority = (p: number) => p >= 7

export type StakerKind = 'validator' | 'delegator'

/** A staker (`state.Staker`) plus what its creating tx carried and RewardValidatorTx needs. */
export type Staker = {
  txId: string
  /** Hex of the tx id bytes: ties are broken by tx id bytes, as Go compares `ids.ID`. */
  txIdHex: string
  txType: string
  nodeId: string
  subnetId: string
  kind: StakerKind
  priority: number
  weight: bigint
  startTime: number
  endTime: number
  /** `NextTime`: start time while pending, end time once current. */
  nextTime: number
  potentialReward: bigint
  /** Delegation fee in parts per million (validators of the primary network / permissionless). */
  delegationShares?: number
  /** Validation rewards owner (validators) or rewards owner (delegators). */
  rewardsOwner?: OutputOwners
  /** Delegatee rewards owner (permissionless validators; AddValidatorTx uses rewardsOwner). */
  delegationRewardsOwner?: OutputOwners
  /** Compressed BLS public key, hex (0x…), when the tx carried a proof of possession. */
  blsPublicKey?: string
  /** Stake outputs, returned at `len(outs) + i` by RewardValidatorTx. */
  stakeOuts?: TransferableOutput[]
  outsLength: number
}

export type L1Validator = {
  validationId: string
  subnetId: string
  nodeId: string
  /** Compressed BLS public key hex. */
  publicKey: string
  remainingBalanceOwner: PChainOwner
  deactivationOwner: PChainOwner
  startTime: number
  weight: bigint
  minNonce: bigint
  /** 0 = inactive; else the accrued-fee total at which it runs out (balance = this − accruedFees). */
  endAccumulatedFee: bigint
}

export type UtxoOrigin = { chain: string; txId: string; height: number }

export type UtxoRecord = {
  utxo: Utxo
  created: UtxoOrigin
  /** Hex of owner addresses, for getUTXOs by address. */
  addresses: string[]
  /** Created by a RewardValidatorTx as a reward. */
  reward?: boolean
}

export type SpentUtxoRecord = UtxoRecord & { consumed: UtxoOrigin }

export type SubnetToL1Conversion = { conversionId: string; chainId: string; address: string }

export type Subnet = { id: string; owner: OutputOwners; createdAt: number; conversion?: SubnetToL1Conversion }

export type Blockchain = { id: string; subnetId: string; name: string; vmId: string; fxIds: string[]; genesisData: string; createdAt: number }

export type BlockKind = 'standard' | 'proposal' | 'commit' | 'abort'

export type PBlock = { height: number; id: string; parentId: string; timestamp: number; kind: BlockKind; txs: string[] }

export type StoredTx = {
  id: string
  type: string
  height: number
  /** Committed, Aborted (a RewardValidatorTx whose abort option was taken). */
  status: 'Committed' | 'Aborted'
  /** The signed tx, as given (opaque to the state). */
  tx: unknown
}

export type FeeState = { capacity: bigint; excess: bigint }

/** The whole state as plain data: what snapshot() freezes and serialize() writes. */
export type PChainStateData = {
  timestamp: number
  height: number
  lastBlockId: string
  utxos: Map<string, UtxoRecord>
  spent: Map<string, SpentUtxoRecord>
  subnets: Map<string, Subnet>
  blockchains: Map<string, Blockchain>
  /** key `${subnetId}/${nodeId}` */
  currentValidators: Map<string, Staker>
  pendingValidators: Map<string, Staker>
  /** key txId */
  currentDelegators: Map<string, Staker>
  pendingDelegators: Map<string, Staker>
  /** delegatee rewards accrued per validator, key `${subnetId}/${nodeId}` (StakingInfo.DelegateeReward). */
  delegateeRewards: Map<string, bigint>
  l1Validators: Map<string, L1Validator>
  /** `${expiry}/${validationId}` */
  expiries: Set<string>
  feeState: FeeState
  l1ValidatorExcess: bigint
  accruedFees: bigint
  /** current supply per subnet (primary network = EMPTY id) */
  supply: Map<string, bigint>
  blocks: PBlock[]
  txs: Map<string, StoredTx>
  /** Stakers that left the current set: by staker tx id. */
  endedStakers: Map<string, EndedStaker>
}

/** How a staker left: rewarded (`completed`, reward paid or not) or removed by RemoveSubnetValidatorTx / expiry. */
export type EndedStaker = { staker: Staker; status: 'completed' | 'removed'; height: number; endTxId?: string; rewarded?: boolean; reward?: bigint }

type Undo = () => void

const stakerKey = (subnetId: string, nodeId: string) => `${subnetId}/${nodeId}`

export class PChainState {
  d: PChainStateData
  #journal: Undo[] | undefined

  constructor(data: PChainStateData) {
    this.d = data
  }

  static empty(genesis: { timestamp: number; supply: bigint; primaryNetworkId: string; genesisBlockId?: string; feeCapacity?: bigint }): PChainState {
    const genesisId = genesis.genesisBlockId ?? showId(sha256(new TextEncoder().encode(`l1sim-pchain-genesis-${genesis.timestamp}`)))
    return new PChainState({
      timestamp: genesis.timestamp,
      height: 0,
      lastBlockId: genesisId,
      utxos: new Map(),
      spent: new Map(),
      subnets: new Map(),
      blockchains: new Map(),
      currentValidators: new Map(),
      pendingValidators: new Map(),
      currentDelegators: new Map(),
      pendingDelegators: new Map(),
      delegateeRewards: new Map(),
      l1Validators: new Map(),
      expiries: new Set(),
      feeState: { capacity: genesis.feeCapacity ?? 0n, excess: 0n },
      l1ValidatorExcess: 0n,
      accruedFees: 0n,
      supply: new Map([[genesis.primaryNetworkId, genesis.supply]]),
      blocks: [{ height: 0, id: genesisId, parentId: showId(new Uint8Array(32)), timestamp: genesis.timestamp, kind: 'standard', txs: [] }],
      txs: new Map(),
      endedStakers: new Map(),
    })
  }

  // --- journal -------------------------------------------------------------------------------

  /** Runs `fn`; when it throws, every mutation it made is undone and the error rethrown. */
  atomically<T>(fn: () => T): T {
    const outer = this.#journal
    const journal: Undo[] = []
    this.#journal = journal
    try {
      const result = fn()
      if (outer) outer.push(...journal)
      return result
    } catch (err) {
      for (let i = journal.length - 1; i >= 0; i--) journal[i]!()
      throw err
    } finally {
      this.#journal = outer
    }
  }

  #record(undo: Undo) {
    this.#journal?.push(undo)
  }

  #mapSet<K, V>(map: Map<K, V>, key: K, value: V | undefined) {
    const had = map.has(key)
    const prev = map.get(key)
    if (value === undefined) map.delete(key)
    else map.set(key, value)
    this.#record(() => (had ? map.set(key, prev as V) : map.delete(key)))
  }

  #field<K extends 'timestamp' | 'height' | 'lastBlockId' | 'feeState' | 'l1ValidatorExcess' | 'accruedFees'>(key: K, value: PChainStateData[K]) {
    const prev = this.d[key]
    this.d[key] = value
    this.#record(() => (this.d[key] = prev))
  }

  // --- scalars -------------------------------------------------------------------------------

  get timestamp() { return this.d.timestamp }
  setTimestamp(t: number) { this.#field('timestamp', t) }
  get feeState() { return this.d.feeState }
  setFeeState(s: FeeState) { this.#field('feeState', s) }
  get l1ValidatorExcess() { return this.d.l1ValidatorExcess }
  setL1ValidatorExcess(v: bigint) { this.#field('l1ValidatorExcess', v) }
  get accruedFees() { return this.d.accruedFees }
  setAccruedFees(v: bigint) { this.#field('accruedFees', v) }
  getSupply(subnetId: string): bigint { return this.d.supply.get(subnetId) ?? 0n }
  setSupply(subnetId: string, v: bigint) { this.#mapSet(this.d.supply, subnetId, v) }

  // --- UTXOs ---------------------------------------------------------------------------------

  getUtxo(key: string): UtxoRecord | undefined { return this.d.utxos.get(key) }
  addUtxo(key: string, rec: UtxoRecord) { this.#mapSet(this.d.utxos, key, rec) }
  consumeUtxo(key: string, consumed: UtxoOrigin) {
    const rec = this.d.utxos.get(key)
    if (!rec) return
    this.#mapSet(this.d.utxos, key, undefined)
    this.#mapSet(this.d.spent, key, { ...rec, consumed })
  }

  // --- subnets & chains ----------------------------------------------------------------------

  getSubnet(id: string) { return this.d.subnets.get(id) }
  putSubnet(s: Subnet) { this.#mapSet(this.d.subnets, s.id, s) }
  getBlockchain(id: string) { return this.d.blockchains.get(id) }
  putBlockchain(c: Blockchain) { this.#mapSet(this.d.blockchains, c.id, c) }

  // --- stakers -------------------------------------------------------------------------------

  getCurrentValidator(subnetId: string, nodeId: string) { return this.d.currentValidators.get(stakerKey(subnetId, nodeId)) }
  getPendingValidator(subnetId: string, nodeId: string) { return this.d.pendingValidators.get(stakerKey(subnetId, nodeId)) }
  putCurrentValidator(s: Staker) { this.#mapSet(this.d.currentValidators, stakerKey(s.subnetId, s.nodeId), s) }
  deleteCurrentValidator(s: Staker) { this.#mapSet(this.d.currentValidators, stakerKey(s.subnetId, s.nodeId), undefined) }
  putPendingValidator(s: Staker) { this.#mapSet(this.d.pendingValidators, stakerKey(s.subnetId, s.nodeId), s) }
  deletePendingValidator(s: Staker) { this.#mapSet(this.d.pendingValidators, stakerKey(s.subnetId, s.nodeId), undefined) }
  putCurrentDelegator(s: Staker) { this.#mapSet(this.d.currentDelegators, s.txId, s) }
  deleteCurrentDelegator(s: Staker) { this.#mapSet(this.d.currentDelegators, s.txId, undefined) }
  putPendingDelegator(s: Staker) { this.#mapSet(this.d.pendingDelegators, s.txId, s) }
  deletePendingDelegator(s: Staker) { this.#mapSet(this.d.pendingDelegators, s.txId, undefined) }
  getDelegateeReward(subnetId: string, nodeId: string) { return this.d.delegateeRewards.get(stakerKey(subnetId, nodeId)) ?? 0n }
  setDelegateeReward(subnetId: string, nodeId: string, v: bigint) { this.#mapSet(this.d.delegateeRewards, stakerKey(subnetId, nodeId), v === 0n ? undefined : v) }

  /** Delegators (current or pending) of one validator. */
  delegatorsOf(subnetId: string, nodeId: string, which: 'current' | 'pending'): Staker[] {
    const map = which === 'current' ? this.d.currentDelegators : this.d.pendingDelegators
    const out: Staker[] = []
    for (const s of map.values()) if (s.subnetId === subnetId && s.nodeId === nodeId) out.push(s)
    return out
  }

  /** The first staker of the current (or pending) iterator: least (NextTime, Priority, TxID). */
  firstStaker(which: 'current' | 'pending'): Staker | undefined {
    const maps = which === 'current' ? [this.d.currentValidators, this.d.currentDelegators] : [this.d.pendingValidators, this.d.pendingDelegators]
    let best: Staker | undefined
    for (const m of maps) for (const s of m.values()) if (!best || stakerLess(s, best)) best = s
    return best
  }

  /** All stakers of an iterator, sorted as Go iterates them. */
  sortedStakers(which: 'current' | 'pending'): Staker[] {
    const maps = which === 'current' ? [this.d.currentValidators, this.d.currentDelegators] : [this.d.pendingValidators, this.d.pendingDelegators]
    const all: Staker[] = []
    for (const m of maps) for (const s of m.values()) all.push(s)
    return all.sort((a, b) => (stakerLess(a, b) ? -1 : stakerLess(b, a) ? 1 : 0))
  }

  // --- L1 validators -------------------------------------------------------------------------

  getL1Validator(id: string) { return this.d.l1Validators.get(id) }
  /** `PutL1Validator`: weight 0 deletes it. */
  putL1Validator(v: L1Validator) { this.#mapSet(this.d.l1Validators, v.validationId, v.weight === 0n ? undefined : v) }
  l1ValidatorsOf(subnetId: string): L1Validator[] {
    const out: L1Validator[] = []
    for (const v of this.d.l1Validators.values()) if (v.subnetId === subnetId) out.push(v)
    return out
  }
  numActiveL1Validators(): number {
    let n = 0
    for (const v of this.d.l1Validators.values()) if (v.endAccumulatedFee !== 0n) n++
    return n
  }
  /** Active L1 validators by increasing EndAccumulatedFee (then validation id), as GetActiveL1ValidatorsIterator. */
  activeL1Validators(): L1Validator[] {
    return [...this.d.l1Validators.values()].filter((v) => v.endAccumulatedFee !== 0n).sort((a, b) => (a.endAccumulatedFee < b.endAccumulatedFee ? -1 : a.endAccumulatedFee > b.endAccumulatedFee ? 1 : a.validationId < b.validationId ? -1 : 1))
  }
  hasExpiry(key: string) { return this.d.expiries.has(key) }
  putExpiry(key: string) {
    if (this.d.expiries.has(key)) return
    this.d.expiries.add(key)
    this.#record(() => this.d.expiries.delete(key))
  }
  deleteExpiry(key: string) {
    if (!this.d.expiries.delete(key)) return
    this.#record(() => this.d.expiries.add(key))
  }

  // --- blocks & txs --------------------------------------------------------------------------

  get height() { return this.d.height }
  get lastBlockId() { return this.d.lastBlockId }
  addBlock(b: PBlock) {
    this.d.blocks.push(b)
    this.#record(() => this.d.blocks.pop())
    this.#field('height', b.height)
    this.#field('lastBlockId', b.id)
  }
  getTx(id: string) { return this.d.txs.get(id) }
  putTx(t: StoredTx) { this.#mapSet(this.d.txs, t.id, t) }
  getEndedStaker(txId: string) { return this.d.endedStakers.get(txId) }
  putEndedStaker(e: EndedStaker) { this.#mapSet(this.d.endedStakers, e.staker.txId, e) }

  // --- snapshot ------------------------------------------------------------------------------

  /** A deep, frozen copy of the state. */
  snapshot(): PChainSnapshot {
    return deepFreeze(structuredClone(this.d)) as PChainSnapshot
  }

  /** Replaces the state with a copy of `snap`. */
  restore(snap: PChainSnapshot) {
    this.d = structuredClone(snap) as PChainStateData
  }

  /** Deterministic JSON (sorted map keys; bigint as decimal strings; bytes as 0x-hex). */
  serialize(): string {
    return canonicalJson(this.d)
  }

  /** sha256 of {@link serialize}, hex. */
  hash(): string {
    return bytesToHex(sha256(new TextEncoder().encode(this.serialize())))
  }
}

export type PChainSnapshot = { readonly __pchainSnapshot?: never } & Readonly<PChainStateData>

export function stakerLess(a: Staker, b: Staker): boolean {
  if (a.nextTime !== b.nextTime) return a.nextTime < b.nextTime
  if (a.priority !== b.priority) return a.priority < b.priority
  return a.txIdHex < b.txIdHex
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    if (o instanceof Map || o instanceof Set || ArrayBuffer.isView(o)) {
      // Maps, Sets and typed arrays cannot be frozen in place; their entries are.
      if (o instanceof Map) for (const v of o.values()) deepFreeze(v)
      else if (o instanceof Set) for (const v of o.values()) deepFreeze(v)
      return o
    }
    Object.freeze(o)
    for (const v of Object.values(o as object)) deepFreeze(v)
  }
  return o
}

export function canonicalJson(value: unknown): string {
  const enc = (v: unknown): unknown => {
    if (typeof v === 'bigint') return `${v}n`
    if (v instanceof Uint8Array) return bytesToHex(v)
    if (v instanceof Map) {
      const keys = [...v.keys()].map(String).sort()
      const m = new Map([...v.entries()].map(([k, x]) => [String(k), x]))
      return Object.fromEntries(keys.map((k) => [k, enc(m.get(k))]))
    }
    if (v instanceof Set) return [...v].map(String).sort()
    if (Array.isArray(v)) return v.map(enc)
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {}
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k]
        if (x !== undefined) out[k] = enc(x)
      }
      return out
    }
    return v
  }
  return JSON.stringify(enc(value))
}
