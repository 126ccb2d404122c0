import { sha256 } from '../../core/sha256.js'
import { bytesToHex } from '../../core/hex.js'
import { PRIMARY_NETWORK_ID } from '../../core/ids.js'
import type { OutputOwners, PChainOwner, TransferableOutput, Utxo } from '../txs.js'

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

/**
 * An accepted block. `bytes` are its codec bytes (see `blocks.ts`), whose sha256 is `id`; blocks
 * restored from a snapshot file saved by an older l1sim have none (their ids were not hashes).
 * The genesis block (height 0) is an Apricot commit block.
 */
export type PBlock = { height: number; id: string; parentId: string; timestamp: number; kind: BlockKind; txs: string[]; bytes?: Uint8Array }

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

type MapFields = {
  [K in keyof PChainStateData as PChainStateData[K] extends Map<string, unknown> ? K : never]: PChainStateData[K]
}
type MapField = keyof MapFields
type ValueOf<F extends MapField> = MapFields[F] extends Map<string, infer V> ? V : never

/**
 * Indexes over {@link PChainStateData}, kept in step with every mutation (and its undo). They are
 * derived data: never serialized or hashed, rebuilt from the data when a snapshot without them is
 * restored. Every container is copy-on-write, as the data's maps are (see {@link PChainState.snapshot}).
 */
type Indexes = {
  /** Owner address hex (as in `UtxoRecord.addresses`, without 0x) → UTXO keys, in `utxos` order. */
  utxosByAddress: Map<string, Set<string>>
  /** subnetId → staker keys of its current validators, in `currentValidators` order. */
  validatorsBySubnet: Map<string, Set<string>>
  /** nodeId → subnets it currently validates. */
  subnetsByNode: Map<string, Set<string>>
  /** nodeId → tx ids of the current / pending delegators to it (any subnet), in map order. */
  currentDelegatorsOf: Map<string, Set<string>>
  pendingDelegatorsOf: Map<string, Set<string>>
  /** staker tx id → where it is. */
  stakerStatus: Map<string, 'current' | 'pending'>
  /** Current (validators + delegators) and pending stakers, sorted by {@link stakerLess}. */
  currentStakers: Staker[]
  pendingStakers: Staker[]
  /** subnetId → validation ids of its L1 validators, in `l1Validators` order. */
  l1BySubnet: Map<string, Set<string>>
  /** Active L1 validators by (EndAccumulatedFee, validationID). */
  activeL1: L1Validator[]
  /** Expiry keys by expiry time. */
  expiries: string[]
}

type MultiIndex = 'utxosByAddress' | 'validatorsBySubnet' | 'subnetsByNode' | 'currentDelegatorsOf' | 'pendingDelegatorsOf' | 'l1BySubnet'
type SortedIndex = 'currentStakers' | 'pendingStakers' | 'activeL1' | 'expiries'

/** What changed in the validator sets since the last {@link PChainState.takeValidatorSetChanges}. */
export type ValidatorSetChanges = {
  /** Everything may have changed (restore). */
  all: boolean
  /** Subnets to recompute whole (L1 validators, subnet records). */
  subnets: Set<string>
  /** Single (subnet, node) entries to recompute. */
  nodes: Map<string, Set<string>>
}

export const compareStakers = (a: Staker, b: Staker) => (stakerLess(a, b) ? -1 : stakerLess(b, a) ? 1 : 0)
const compareL1 = (a: L1Validator, b: L1Validator) =>
  a.endAccumulatedFee < b.endAccumulatedFee ? -1 : a.endAccumulatedFee > b.endAccumulatedFee ? 1 : a.validationId < b.validationId ? -1 : a.validationId > b.validationId ? 1 : 0
export const expiryTime = (key: string) => Number(key.slice(0, key.indexOf('/')))
const compareExpiry = (a: string, b: string) => expiryTime(a) - expiryTime(b) || (a < b ? -1 : a > b ? 1 : 0)
const stripHex = (a: string) => a.replace(/^0x/, '')

/** Index of the first element of sorted `arr` not less than `x`. */
function lowerBound<T>(arr: readonly T[], x: T, cmp: (a: T, b: T) => number): number {
  let lo = 0, hi = arr.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (cmp(arr[mid]!, x) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

const emptyIndexes = (): Indexes => ({
  utxosByAddress: new Map(), validatorsBySubnet: new Map(), subnetsByNode: new Map(), currentDelegatorsOf: new Map(), pendingDelegatorsOf: new Map(),
  stakerStatus: new Map(), currentStakers: [], pendingStakers: [], l1BySubnet: new Map(), activeL1: [], expiries: [],
})

/** The indexes a snapshot was taken with (a snapshot that came from elsewhere has none: rebuilt on restore). */
const snapshotIndexes = new WeakMap<object, Indexes>()

export class PChainState {
  #d!: PChainStateData
  #ix!: Indexes
  #journal: Undo[] | undefined
  /**
   * Containers (data maps, sets, arrays and index containers) this state may mutate in place. A
   * snapshot shares every container with the live state and empties this set, so the next write to
   * a container copies it first (copy-on-write); records themselves are never mutated in place.
   */
  #owned = new WeakSet<object>()
  #changes: ValidatorSetChanges = { all: true, subnets: new Set(), nodes: new Map() }

  constructor(data: PChainStateData) {
    this.d = data
  }

  /** The state's data. Read it through `state.d.…` each time: a write after a snapshot may replace a map. */
  get d(): PChainStateData { return this.#d }
  set d(data: PChainStateData) {
    this.#d = data
    this.#owned = new WeakSet()
    this.#ix = buildIndexes(data)
    this.#changes.all = true
  }

  /** A state at genesis: nothing but `genesisBlock` (see `encodeGenesisBlock`), the time, supply and fee capacity. */
  static empty(genesis: { timestamp: number; supply: bigint; primaryNetworkId: string; genesisBlock: PBlock; feeCapacity?: bigint }): PChainState {
    const genesisId = genesis.genesisBlock.id
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
      blocks: [genesis.genesisBlock],
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

  /**
   * Runs `fn` and undoes every mutation it made, whether it returns or throws: a check against the
   * state as it would be (the mempool's verification against a diff of the preferred state).
   */
  tentatively<T>(fn: () => T): T {
    const outer = this.#journal
    const journal: Undo[] = []
    this.#journal = journal
    try {
      return fn()
    } finally {
      for (let i = journal.length - 1; i >= 0; i--) journal[i]!()
      this.#journal = outer
    }
  }

  #record(undo: Undo) {
    this.#journal?.push(undo)
  }

  // --- copy-on-write -------------------------------------------------------------------------

  #own<T extends object>(c: T, copy: (c: T) => T): T {
    if (this.#owned.has(c)) return c
    const mine = copy(c)
    this.#owned.add(mine)
    return mine
  }

  #dataMap<F extends MapField>(f: F): Map<string, ValueOf<F>> {
    const d = this.#d as unknown as Record<F, Map<string, ValueOf<F>>>
    return (d[f] = this.#own(d[f], (m) => new Map(m)))
  }

  #sorted<I extends SortedIndex>(f: I): Indexes[I] {
    const ix = this.#ix as Record<I, Indexes[I]>
    return (ix[f] = this.#own(ix[f], (a) => a.slice() as Indexes[I]))
  }

  #sortedInsert<I extends SortedIndex>(f: I, x: Indexes[I][number], cmp: (a: Indexes[I][number], b: Indexes[I][number]) => number) {
    const arr = this.#sorted(f) as Indexes[I][number][]
    arr.splice(lowerBound(arr, x, cmp), 0, x)
  }

  #sortedRemove<I extends SortedIndex>(f: I, x: Indexes[I][number], cmp: (a: Indexes[I][number], b: Indexes[I][number]) => number) {
    const ro = this.#ix[f] as Indexes[I][number][]
    const i = lowerBound(ro, x, cmp)
    if (i >= ro.length || cmp(ro[i]!, x) !== 0) return
    ;(this.#sorted(f) as Indexes[I][number][]).splice(i, 1)
  }

  #multiAdd(f: MultiIndex, key: string, v: string) {
    const cur = this.#ix[f].get(key)
    if (cur?.has(v)) return
    const outer = (this.#ix[f] = this.#own(this.#ix[f], (m) => new Map(m)))
    let set = cur
    if (!set) { set = new Set(); this.#owned.add(set); outer.set(key, set) }
    else if (!this.#owned.has(set)) { set = new Set(set); this.#owned.add(set); outer.set(key, set) }
    set.add(v)
  }

  #multiDelete(f: MultiIndex, key: string, v: string) {
    const cur = this.#ix[f].get(key)
    if (!cur?.has(v)) return
    const outer = (this.#ix[f] = this.#own(this.#ix[f], (m) => new Map(m)))
    if (cur.size === 1) { outer.delete(key); return }
    const set = this.#own(cur, (s) => new Set(s))
    outer.set(key, set)
    set.delete(v)
  }

  #statusSet(txId: string, where: 'current' | 'pending' | undefined) {
    const m = (this.#ix.stakerStatus = this.#own(this.#ix.stakerStatus, (x) => new Map(x)))
    if (where) m.set(txId, where)
    else m.delete(txId)
  }

  // --- mutations -----------------------------------------------------------------------------

  /** Sets (or, with `undefined`, deletes) a data map entry, keeping the indexes in step; journaled. */
  #mapSet<F extends MapField>(f: F, key: string, value: ValueOf<F> | undefined) {
    const cur = this.#d[f] as Map<string, ValueOf<F>>
    const had = cur.has(key)
    const prev = cur.get(key)
    if (!had && value === undefined) return
    this.#apply(f, key, prev, value)
    this.#record(() => this.#apply(f, key, value, had ? prev : undefined))
  }

  #apply<F extends MapField>(f: F, key: string, prev: ValueOf<F> | undefined, value: ValueOf<F> | undefined) {
    const map = this.#dataMap(f)
    if (value === undefined) map.delete(key)
    else map.set(key, value)
    switch (f) {
      case 'utxos': this.#indexUtxo(key, prev as UtxoRecord | undefined, value as UtxoRecord | undefined); break
      case 'currentValidators': case 'pendingValidators': case 'currentDelegators': case 'pendingDelegators':
        this.#indexStaker(f, key, prev as Staker | undefined, value as Staker | undefined); break
      case 'l1Validators': this.#indexL1(key, prev as L1Validator | undefined, value as L1Validator | undefined); break
      case 'subnets': this.#changes.subnets.add(key); break
    }
  }

  #indexUtxo(key: string, prev: UtxoRecord | undefined, value: UtxoRecord | undefined) {
    const next = value ? value.addresses.map(stripHex) : []
    if (prev) for (const a of prev.addresses.map(stripHex)) if (!next.includes(a)) this.#multiDelete('utxosByAddress', a, key)
    for (const a of next) this.#multiAdd('utxosByAddress', a, key)
  }

  #indexStaker(f: 'currentValidators' | 'pendingValidators' | 'currentDelegators' | 'pendingDelegators', key: string, prev: Staker | undefined, value: Staker | undefined) {
    const current = f === 'currentValidators' || f === 'currentDelegators'
    const sorted = current ? 'currentStakers' : 'pendingStakers'
    if (prev) {
      this.#sortedRemove(sorted, prev, compareStakers)
      if (this.#ix.stakerStatus.get(prev.txId) === (current ? 'current' : 'pending')) this.#statusSet(prev.txId, undefined)
    }
    if (value) {
      this.#sortedInsert(sorted, value, compareStakers)
      this.#statusSet(value.txId, current ? 'current' : 'pending')
    }
    if (f === 'currentValidators') {
      if (prev && !value) {
        this.#multiDelete('validatorsBySubnet', prev.subnetId, key)
        this.#multiDelete('subnetsByNode', prev.nodeId, prev.subnetId)
      }
      if (value) {
        this.#multiAdd('validatorsBySubnet', value.subnetId, key)
        this.#multiAdd('subnetsByNode', value.nodeId, value.subnetId)
      }
    }
    if (f === 'currentDelegators' || f === 'pendingDelegators') {
      const idx = f === 'currentDelegators' ? 'currentDelegatorsOf' : 'pendingDelegatorsOf'
      if (prev && (!value || prev.nodeId !== value.nodeId)) this.#multiDelete(idx, prev.nodeId, prev.txId)
      if (value) this.#multiAdd(idx, value.nodeId, value.txId)
    }
    if (current) for (const s of [prev, value]) if (s) this.#validatorSetChanged(s.subnetId, s.nodeId)
  }

  #validatorSetChanged(subnetId: string, nodeId: string) {
    const mark = (subnet: string) => {
      let nodes = this.#changes.nodes.get(subnet)
      if (!nodes) this.#changes.nodes.set(subnet, (nodes = new Set()))
      nodes.add(nodeId)
    }
    mark(subnetId)
    // subnet validators without a BLS key of their own show their primary validator's
    if (subnetId === PRIMARY_NETWORK_ID) for (const s of this.#ix.subnetsByNode.get(nodeId) ?? []) mark(s)
  }

  #indexL1(key: string, prev: L1Validator | undefined, value: L1Validator | undefined) {
    if (prev && (!value || value.subnetId !== prev.subnetId)) this.#multiDelete('l1BySubnet', prev.subnetId, key)
    if (value) this.#multiAdd('l1BySubnet', value.subnetId, key)
    if (prev && prev.endAccumulatedFee !== 0n) this.#sortedRemove('activeL1', prev, compareL1)
    if (value && value.endAccumulatedFee !== 0n) this.#sortedInsert('activeL1', value, compareL1)
    for (const v of [prev, value]) if (v) this.#changes.subnets.add(v.subnetId)
  }

  #field<K extends 'timestamp' | 'height' | 'lastBlockId' | 'feeState' | 'l1ValidatorExcess' | 'accruedFees'>(key: K, value: PChainStateData[K]) {
    const prev = this.#d[key]
    this.#d[key] = value
    this.#record(() => (this.#d[key] = prev))
  }

  /** What changed in the validator sets since the last call (the P-chain refreshes only those). */
  takeValidatorSetChanges(): ValidatorSetChanges {
    const out = this.#changes
    this.#changes = { all: false, subnets: new Set(), nodes: new Map() }
    return out
  }

  // --- scalars -------------------------------------------------------------------------------

  get timestamp() { return this.#d.timestamp }
  setTimestamp(t: number) { this.#field('timestamp', t) }
  get feeState() { return this.#d.feeState }
  setFeeState(s: FeeState) { this.#field('feeState', s) }
  get l1ValidatorExcess() { return this.#d.l1ValidatorExcess }
  setL1ValidatorExcess(v: bigint) { this.#field('l1ValidatorExcess', v) }
  get accruedFees() { return this.#d.accruedFees }
  setAccruedFees(v: bigint) { this.#field('accruedFees', v) }
  getSupply(subnetId: string): bigint { return this.#d.supply.get(subnetId) ?? 0n }
  setSupply(subnetId: string, v: bigint) { this.#mapSet('supply', subnetId, v) }

  // --- UTXOs ---------------------------------------------------------------------------------

  getUtxo(key: string): UtxoRecord | undefined { return this.#d.utxos.get(key) }
  addUtxo(key: string, rec: UtxoRecord) { this.#mapSet('utxos', key, rec) }
  consumeUtxo(key: string, consumed: UtxoOrigin) {
    const rec = this.#d.utxos.get(key)
    if (!rec) return
    this.#mapSet('utxos', key, undefined)
    this.#mapSet('spent', key, { ...rec, consumed })
  }
  /** Unspent UTXOs with `addressHex` (with or without 0x) among their owners, in UTXO set order. */
  utxosByAddress(addressHex: string): UtxoRecord[] {
    const out: UtxoRecord[] = []
    for (const k of this.#ix.utxosByAddress.get(stripHex(addressHex)) ?? []) out.push(this.#d.utxos.get(k)!)
    return out
  }

  // --- subnets & chains ----------------------------------------------------------------------

  getSubnet(id: string) { return this.#d.subnets.get(id) }
  putSubnet(s: Subnet) { this.#mapSet('subnets', s.id, s) }
  getBlockchain(id: string) { return this.#d.blockchains.get(id) }
  putBlockchain(c: Blockchain) { this.#mapSet('blockchains', c.id, c) }

  // --- stakers -------------------------------------------------------------------------------

  getCurrentValidator(subnetId: string, nodeId: string) { return this.#d.currentValidators.get(stakerKey(subnetId, nodeId)) }
  getPendingValidator(subnetId: string, nodeId: string) { return this.#d.pendingValidators.get(stakerKey(subnetId, nodeId)) }
  putCurrentValidator(s: Staker) { this.#mapSet('currentValidators', stakerKey(s.subnetId, s.nodeId), s) }
  deleteCurrentValidator(s: Staker) { this.#mapSet('currentValidators', stakerKey(s.subnetId, s.nodeId), undefined) }
  putPendingValidator(s: Staker) { this.#mapSet('pendingValidators', stakerKey(s.subnetId, s.nodeId), s) }
  deletePendingValidator(s: Staker) { this.#mapSet('pendingValidators', stakerKey(s.subnetId, s.nodeId), undefined) }
  putCurrentDelegator(s: Staker) { this.#mapSet('currentDelegators', s.txId, s) }
  deleteCurrentDelegator(s: Staker) { this.#mapSet('currentDelegators', s.txId, undefined) }
  putPendingDelegator(s: Staker) { this.#mapSet('pendingDelegators', s.txId, s) }
  deletePendingDelegator(s: Staker) { this.#mapSet('pendingDelegators', s.txId, undefined) }
  getDelegateeReward(subnetId: string, nodeId: string) { return this.#d.delegateeRewards.get(stakerKey(subnetId, nodeId)) ?? 0n }
  setDelegateeReward(subnetId: string, nodeId: string, v: bigint) { this.#mapSet('delegateeRewards', stakerKey(subnetId, nodeId), v === 0n ? undefined : v) }

  /** Current validators of one subnet, in `currentValidators` order. */
  currentValidatorsOf(subnetId: string): Staker[] {
    const out: Staker[] = []
    for (const k of this.#ix.validatorsBySubnet.get(subnetId) ?? []) out.push(this.#d.currentValidators.get(k)!)
    return out
  }

  /** Delegators (current or pending) of one validator. */
  delegatorsOf(subnetId: string, nodeId: string, which: 'current' | 'pending'): Staker[] {
    const map = which === 'current' ? this.#d.currentDelegators : this.#d.pendingDelegators
    const ids = (which === 'current' ? this.#ix.currentDelegatorsOf : this.#ix.pendingDelegatorsOf).get(nodeId)
    const out: Staker[] = []
    if (ids) for (const id of ids) { const s = map.get(id)!; if (s.subnetId === subnetId) out.push(s) }
    return out
  }

  /** Whether the staker created by `txId` is current or pending (undefined once it left, or never). */
  stakerStatus(txId: string): 'current' | 'pending' | undefined { return this.#ix.stakerStatus.get(txId) }

  /** The first staker of the current (or pending) iterator: least (NextTime, Priority, TxID). */
  firstStaker(which: 'current' | 'pending'): Staker | undefined {
    return (which === 'current' ? this.#ix.currentStakers : this.#ix.pendingStakers)[0]
  }

  /** All stakers of an iterator, sorted as Go iterates them. */
  sortedStakers(which: 'current' | 'pending'): Staker[] {
    return (which === 'current' ? this.#ix.currentStakers : this.#ix.pendingStakers).slice()
  }

  /** The leading stakers of an iterator (in order) while `pred` holds: a copy, safe to mutate the state while walking it. */
  stakersWhile(which: 'current' | 'pending', pred: (s: Staker) => boolean): Staker[] {
    const all = which === 'current' ? this.#ix.currentStakers : this.#ix.pendingStakers
    let n = 0
    while (n < all.length && pred(all[n]!)) n++
    return all.slice(0, n)
  }

  // --- L1 validators -------------------------------------------------------------------------

  getL1Validator(id: string) { return this.#d.l1Validators.get(id) }
  /** `PutL1Validator`: weight 0 deletes it. */
  putL1Validator(v: L1Validator) { this.#mapSet('l1Validators', v.validationId, v.weight === 0n ? undefined : v) }
  l1ValidatorsOf(subnetId: string): L1Validator[] {
    const out: L1Validator[] = []
    for (const id of this.#ix.l1BySubnet.get(subnetId) ?? []) out.push(this.#d.l1Validators.get(id)!)
    return out
  }
  numActiveL1Validators(): number {
    return this.#ix.activeL1.length
  }
  /** Active L1 validators by increasing EndAccumulatedFee (then validation id), as GetActiveL1ValidatorsIterator. */
  activeL1Validators(): L1Validator[] {
    return this.#ix.activeL1.slice()
  }
  /** The active L1 validator that runs out first. */
  firstActiveL1Validator(): L1Validator | undefined { return this.#ix.activeL1[0] }
  /** The leading active L1 validators while `pred` holds (a copy). */
  activeL1ValidatorsWhile(pred: (v: L1Validator) => boolean): L1Validator[] {
    const all = this.#ix.activeL1
    let n = 0
    while (n < all.length && pred(all[n]!)) n++
    return all.slice(0, n)
  }
  hasExpiry(key: string) { return this.#d.expiries.has(key) }
  putExpiry(key: string) {
    if (this.#d.expiries.has(key)) return
    this.#expiry(key, true)
    this.#record(() => this.#expiry(key, false))
  }
  deleteExpiry(key: string) {
    if (!this.#d.expiries.has(key)) return
    this.#expiry(key, false)
    this.#record(() => this.#expiry(key, true))
  }
  #expiry(key: string, add: boolean) {
    const set = (this.#d.expiries = this.#own(this.#d.expiries, (s) => new Set(s)))
    if (add) { set.add(key); this.#sortedInsert('expiries', key, compareExpiry) }
    else { set.delete(key); this.#sortedRemove('expiries', key, compareExpiry) }
  }
  /** Expiry keys whose time is at most `time` (a copy). */
  expiriesUpTo(time: number): string[] {
    const all = this.#ix.expiries
    let n = 0
    while (n < all.length && expiryTime(all[n]!) <= time) n++
    return all.slice(0, n)
  }

  // --- blocks & txs --------------------------------------------------------------------------

  get height() { return this.#d.height }
  get lastBlockId() { return this.#d.lastBlockId }
  addBlock(b: PBlock) {
    this.#blocks().push(b)
    this.#record(() => this.#blocks().pop())
    this.#field('height', b.height)
    this.#field('lastBlockId', b.id)
  }
  #blocks(): PBlock[] {
    return (this.#d.blocks = this.#own(this.#d.blocks, (a) => a.slice()))
  }
  getTx(id: string) { return this.#d.txs.get(id) }
  /** Every accepted tx, in the order they were accepted. */
  txs(): IterableIterator<StoredTx> { return this.#d.txs.values() }
  putTx(t: StoredTx) { this.#mapSet('txs', t.id, t) }
  getEndedStaker(txId: string) { return this.#d.endedStakers.get(txId) }
  putEndedStaker(e: EndedStaker) { this.#mapSet('endedStakers', e.staker.txId, e) }

  // --- snapshot ------------------------------------------------------------------------------

  /**
   * A frozen copy of the state, taken in O(1): its maps, sets and arrays are shared with the live
   * state, which copies each one before its next write to it (copy-on-write). Records (UTXOs,
   * stakers, blocks…) are immutable values, shared too: treat the snapshot as read-only.
   */
  snapshot(): PChainSnapshot {
    const snap = Object.freeze({ ...this.#d }) as PChainSnapshot
    this.#owned = new WeakSet()
    snapshotIndexes.set(snap, { ...this.#ix })
    return snap
  }

  /** Replaces the state with (a copy-on-write copy of) `snap`. */
  restore(snap: PChainSnapshot) {
    const ix = snapshotIndexes.get(snap)
    if (!ix) { this.d = { ...(snap as PChainStateData) }; return }
    this.#d = { ...(snap as PChainStateData) }
    this.#owned = new WeakSet()
    this.#ix = { ...ix }
    this.#changes.all = true
  }

  /** Deterministic JSON (sorted map keys; bigint as decimal strings; bytes as 0x-hex). */
  serialize(): string {
    return canonicalJson(this.#d)
  }

  /** sha256 of {@link serialize}, hex. */
  hash(): string {
    return bytesToHex(sha256(new TextEncoder().encode(this.serialize())))
  }
}

/** Builds every index from the data (a new state, or a snapshot restored without its indexes). */
function buildIndexes(d: PChainStateData): Indexes {
  const ix = emptyIndexes()
  const multi = (m: Map<string, Set<string>>, k: string, v: string) => {
    let s = m.get(k)
    if (!s) m.set(k, (s = new Set()))
    s.add(v)
  }
  for (const [k, rec] of d.utxos) for (const a of rec.addresses) multi(ix.utxosByAddress, stripHex(a), k)
  for (const [k, s] of d.currentValidators) { multi(ix.validatorsBySubnet, s.subnetId, k); multi(ix.subnetsByNode, s.nodeId, s.subnetId) }
  for (const s of d.currentDelegators.values()) multi(ix.currentDelegatorsOf, s.nodeId, s.txId)
  for (const s of d.pendingDelegators.values()) multi(ix.pendingDelegatorsOf, s.nodeId, s.txId)
  for (const m of [d.pendingValidators, d.pendingDelegators]) for (const s of m.values()) { ix.pendingStakers.push(s); ix.stakerStatus.set(s.txId, 'pending') }
  for (const m of [d.currentValidators, d.currentDelegators]) for (const s of m.values()) { ix.currentStakers.push(s); ix.stakerStatus.set(s.txId, 'current') }
  ix.currentStakers.sort(compareStakers)
  ix.pendingStakers.sort(compareStakers)
  for (const [k, v] of d.l1Validators) { multi(ix.l1BySubnet, v.subnetId, k); if (v.endAccumulatedFee !== 0n) ix.activeL1.push(v) }
  ix.activeL1.sort(compareL1)
  ix.expiries = [...d.expiries].sort(compareExpiry)
  return ix
}

export type PChainSnapshot = { readonly __pchainSnapshot?: never } & Readonly<PChainStateData>

export function stakerLess(a: Staker, b: Staker): boolean {
  if (a.nextTime !== b.nextTime) return a.nextTime < b.nextTime
  if (a.priority !== b.priority) return a.priority < b.priority
  return a.txIdHex < b.txIdHex
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
