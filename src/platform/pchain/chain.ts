import { sha256 } from '../../core/sha256.js'
import { BaseError } from '../../core/errors.js'
import { TypedEmitter } from '../../core/events.js'
import { PRIMARY_NETWORK_ID, idFromString } from '../../core/ids.js'
import type { ValidatorEntry } from '../../core/validatorEntry.js'
import type { OutputOwners, PChainSignedTx, Utxo } from '../txs.js'
import { showId } from '../txs.js'
import { encodeSignedTx } from '../codec.js'
import type { PChainConfig } from './config.js'
import { PChainTxError, fail, wrap } from './errors.js'
import { toGas, txComplexity } from './fees.js'
import { PChainMempool } from './mempool.js'
import { PChainValidatorSets } from './validatorSets.js'
import { verifyTxWarpMessages } from './warpVerifier.js'
import { createPopVerifier } from './proofOfPossession.js'
import type { AtomicMemory, ExecContext, ExecResult, TxAuth } from './executor.js'
import { executeStandardTx, produceUtxo, txFee, utxoKey } from './executor.js'
import { applyGenesis, genesisBlock, type PChainGenesis } from './genesis.js'
import { blockIdOf, encodeBanffBlock } from './blocks.js'
import { advanceGasState, advanceValidatorFeeState, calculateReward, splitReward, validatorFeeCostOf, validatorFeeSecondsRemaining } from './feeMath.js'
import type { L1Validator, PBlock, PChainSnapshot, Staker } from './state.js'
import { PChainState, PENDING_TO_CURRENT, Priority, isPermissionedValidator } from './state.js'

/** Pushes validator sets out (the network's ValidatorRegistry satisfies it). */
export interface ValidatorSetListener {
  /** A subnet's new set, as of chain time `at` (unix seconds). */
  set(subnetId: string, entries: readonly ValidatorEntry[], at?: number): void
}

/** Uptime of `nodeId` on `subnetId` since `startTime`, as a fraction in [0, 1]. */
export type UptimeFn = (nodeId: string, subnetId: string, startTime: number, endTime: number) => number

/** Turns a signed tx into its id and the signer addresses of each credential (codec + secp256k1 recovery). */
export type Authenticator = (tx: PChainSignedTx) => TxAuth

export type PChainOptions = {
  config: PChainConfig
  /** The P-chain's blockchain id (cb58); the empty id on every real network. */
  chainId?: string
  genesisTimestamp: number
  /** Initial AVAX supply (for the reward formula). */
  initialSupply: bigint
  /** Genesis subnets: id → owner. */
  genesisSubnets?: { id: string; owner: OutputOwners }[]
  /** UTXOs, initial stakers and chains at genesis, and the genesis block's parent (see {@link PChainGenesis}). */
  genesis?: PChainGenesis
  authenticate: Authenticator
  atomic: AtomicMemory
  uptime?: UptimeFn
  listener?: ValidatorSetListener
}

export type IssueResult = { txId: string; height: number; blockId: string; fee: bigint }

/** A signed tx with its id and the signers of its credentials ({@link PChain.prepare}). */
export type PreparedTx = { signed: PChainSignedTx; txId: string; auth: TxAuth }

/** What {@link PChain.buildBlock} did with each tx: accepted in `block`, dropped, or left for a later block (the block was full). */
export type PackedBlock = {
  block?: PBlock
  accepted: IssueResult[]
  dropped: { txId: string; error: PChainTxError }[]
  leftover: (PreparedTx & { gas: bigint })[]
}

export type ValidationStatus = 'pending' | 'active' | 'completed' | 'removed' | 'unknown'

/**
 * The P-chain: state + executor + block building on a virtual clock. Every accepted tx lands in
 * its own Banff standard block; time moves by {@link advanceTo}, which cuts the blocks the real
 * builder would (one per staker-set change or L1 eviction, one proposal + option block per
 * RewardValidatorTx).
 */
export class PChain {
  state: PChainState
  readonly config: PChainConfig
  readonly chainId: string
  #auth: Authenticator
  #atomic: AtomicMemory
  /** Proofs of possession accepted already (a tx is verified in the mempool and again in its block). */
  readonly #verifyPop = createPopVerifier()
  #uptime: UptimeFn
  /** The validator sets the state implies, pushed to the listener as they change. */
  readonly #sets: PChainValidatorSets
  /** The one way users' transactions enter the chain: verified, held, built into blocks. */
  readonly mempool: PChainMempool

  constructor(o: PChainOptions) {
    this.config = o.config
    this.chainId = o.chainId ?? PRIMARY_NETWORK_ID
    this.#auth = o.authenticate
    this.#atomic = o.atomic
    this.#uptime = o.uptime ?? (() => 1)
    this.#sets = new PChainValidatorSets(() => this.state, o.listener)
    this.mempool = new PChainMempool(this)
    const genesis = o.genesis ?? {}
    this.state = PChainState.empty({
      timestamp: o.genesisTimestamp, supply: o.initialSupply, primaryNetworkId: PRIMARY_NETWORK_ID,
      genesisBlock: genesisBlock(genesis, o.genesisTimestamp), feeCapacity: o.config.dynamicFee.maxCapacity,
    })
    applyGenesis(this.#ctx(0), genesis, this.chainId)
    for (const s of o.genesisSubnets ?? []) this.state.putSubnet({ id: s.id, owner: s.owner, createdAt: o.genesisTimestamp })
  }

  #ctx(height: number): ExecContext {
    return { config: this.config, state: this.state, atomic: this.#atomic, chainId: this.chainId, height, verifyPop: this.#verifyPop }
  }

  /** The fee `signed.unsigned` would pay now (dynamic, Etna). */
  fee(unsigned: PChainSignedTx['unsigned']): bigint {
    if (unsigned.type === 'AddValidatorTx' || unsigned.type === 'AddDelegatorTx') return 0n
    return txFee(this.#ctx(this.state.height + 1), unsigned).fee
  }

  setListener(l: ValidatorSetListener | undefined) {
    this.#sets.setListener(l)
  }
  setUptime(fn: UptimeFn) { this.#uptime = fn }

  get timestamp() { return this.state.timestamp }
  get height() { return this.state.height }

  /**
   * Verifies and accepts one tx in a new standard block at `timestamp` (default: the chain time).
   * Time is advanced first (with the blocks that implies). A refused tx throws {@link PChainTxError}
   * with the executor's own message (the `%w` chain below `StandardTx`) and changes nothing (the
   * time advance included). This is the chain's primitive: transactions users issue go through its
   * {@link mempool}, which verifies them as the node does and builds with {@link buildBlock}.
   */
  issueTx(signed: PChainSignedTx, options: { timestamp?: number } = {}): IssueResult {
    const before = this.state.height
    const tx = this.prepare(signed)
    const result = this.state.atomically(() => {
      if (options.timestamp !== undefined && options.timestamp > this.state.timestamp) this.#advance(options.timestamp)
      const packed = this.#pack([tx])
      if (packed.dropped[0]) throw packed.dropped[0].error
      const waiting = packed.leftover[0]
      if (waiting) throw new PChainTxError('insufficientCapacity', `insufficient capacity: capacity (${this.state.feeState.capacity}) < gas (${waiting.gas})`)
      return packed.accepted[0]!
    })
    this.#emitFrom(before)
    return result
  }

  /** The tx's id and the signers of its credentials, as the chain's authenticator finds them. */
  prepare(signed: PChainSignedTx): PreparedTx {
    const auth = this.#auth(signed)
    return { signed, txId: showId(auth.txId), auth }
  }

  /**
   * `manager.VerifyTx`: checks `tx` against the state the next block would start from at
   * `timestamp` (chain time advanced to it, as `AdvanceTimeTo` on a diff), keeping nothing. Throws
   * a {@link PChainTxError} whose message is the node's: `failed execution: standard tx <id> failed
   * execution: …`, `tx exceeds current gas capacity: <gas> > <capacity>`, or `failed to calculate
   * tx complexity: …` after Etna, or `failed verifying warp messages: …` (checked first).
   */
  verifyTx(tx: PreparedTx, timestamp: number): void {
    this.state.tentatively(() => {
      if (timestamp > this.state.timestamp) this.#advance(timestamp)
      const ctx = this.#ctx(this.state.height + 1)
      try {
        this.#verifyWarp(tx)
      } catch (err) {
        throw wrap(err, (m) => `failed verifying warp messages: ${m}`)
      }
      if (this.state.timestamp >= this.config.upgrades.etnaTime) {
        const complexity = txComplexity(tx.signed.unsigned)
        if (!complexity) throw new PChainTxError('unsupportedTx', 'failed to calculate tx complexity: unsupported transaction type')
        const gas = toGas(complexity, this.config.dynamicFee.weights)
        const capacity = this.state.feeState.capacity
        if (gas > capacity) throw new PChainTxError('insufficientCapacity', `tx exceeds current gas capacity: ${gas} > ${capacity}`)
      }
      try {
        executeStandardTx(ctx, tx.signed, tx.auth)
      } catch (err) {
        throw wrap(err, (m) => `failed execution: standard tx ${tx.txId} failed execution: ${m}`)
      }
    })
  }

  /**
   * Builds one standard block at the chain time from `txs`, in order, as the real builder packs
   * its mempool: each tx executes on the state the earlier ones left; one that fails is dropped
   * (with the executor's error), one that conflicts with an earlier import of the block is dropped
   * with `block contains conflicting transactions`, and once a tx's gas exceeds the capacity left
   * the block is full: it and every later tx are `leftover`. No block when nothing was accepted.
   */
  buildBlock(txs: readonly PreparedTx[]): PackedBlock {
    const before = this.state.height
    const packed = this.state.atomically(() => this.#pack(txs))
    this.#emitFrom(before)
    return packed
  }

  /** Accepted blocks, in order, once their state is in place (the indexer listens). */
  readonly events = new TypedEmitter<{ block: PBlock }>()

  #emitFrom(height: number): void {
    if (this.events.listenerCount('block') === 0) return
    for (const block of this.state.d.blocks.slice(height + 1)) this.events.emit('block', block)
  }

  /** Packs `txs` into the next block (inside the caller's `atomically`); see {@link buildBlock}. */
  #pack(txs: readonly PreparedTx[]): PackedBlock {
    const height = this.state.height + 1
    const ctx = this.#ctx(height)
    const accepted: { tx: PreparedTx; res: ExecResult }[] = []
    const dropped: PackedBlock['dropped'] = []
    const leftover: PackedBlock['leftover'] = []
    const imported = new Set<string>()
    for (const tx of txs) {
      if (leftover.length > 0) {
        leftover.push({ ...tx, gas: this.#gasOf(tx.signed.unsigned) })
        continue
      }
      try {
        const res = this.state.atomically(() => {
          this.#verifyWarp(tx)
          const r = executeStandardTx(ctx, tx.signed, tx.auth)
          // The block is full once a tx's gas exceeds what is left (checked after execution, which
          // prices the tx anyway: one that would also fail is dropped rather than left waiting).
          if (r.gas > this.state.feeState.capacity) throw new BlockFull(r.gas)
          if (this.state.getTx(tx.txId)) throw new PChainTxError('duplicateTx', `tx ${tx.txId} already accepted`)
          if (r.atomicKeys?.some((k) => imported.has(`${r.importedFrom}/${k}`))) throw new PChainTxError('conflictingBlockTxs', 'block contains conflicting transactions')
          // the block consumes the tx's gas from the fee state (gas.State.ConsumeGas)
          if (r.gas > 0n) {
            const fs = this.state.feeState
            this.state.setFeeState({ capacity: fs.capacity - r.gas, excess: fs.excess + r.gas })
          }
          this.state.putTx({ id: tx.txId, type: tx.signed.unsigned.type, height, status: 'Committed', tx: tx.signed })
          return r
        })
        for (const k of res.atomicKeys ?? []) imported.add(`${res.importedFrom}/${k}`)
        accepted.push({ tx, res })
      } catch (err) {
        if (err instanceof BlockFull) leftover.push({ ...tx, gas: err.gas })
        else if (err instanceof PChainTxError) dropped.push({ txId: tx.txId, error: err })
        else throw err
      }
    }
    if (accepted.length === 0) return { accepted: [], dropped, leftover }
    const block = this.#addBlock('standard', accepted.map((a) => a.tx.txId), accepted.map((a) => encodeSignedTx('P', a.tx.signed)))
    // atomic requests apply on accept: last, once the block is in place (they are not journaled)
    for (const { res } of accepted) {
      if (res.importedFrom && res.atomicKeys) this.#atomic.consume(res.importedFrom, res.atomicKeys)
      if (res.exported) this.#atomic.export(res.exported.to, res.exported.utxos)
    }
    this.#sets.publish()
    return { block, accepted: accepted.map(({ tx, res }) => ({ txId: tx.txId, height, blockId: block.id, fee: res.burned })), dropped, leftover }
  }

  /** The tx's warp message checked against its source subnet's current validators ({@link verifyTxWarpMessages}). */
  #verifyWarp(tx: PreparedTx): void {
    verifyTxWarpMessages(this.state, (subnetId) => this.#sets.canonicalOf(subnetId), this.config.networkId, tx.signed.unsigned)
  }

  /** The gas a tx uses (0 before Etna, and for the pre-Etna staker txs the fee rules do not price). */
  #gasOf(unsigned: PChainSignedTx['unsigned']): bigint {
    if (unsigned.type === 'AddValidatorTx' || unsigned.type === 'AddDelegatorTx' || this.state.timestamp < this.config.upgrades.etnaTime) return 0n
    const complexity = txComplexity(unsigned)
    return complexity ? toGas(complexity, this.config.dynamicFee.weights) : 0n
  }

  /**
   * Moves chain time to `now` one block at a time: each staker change and L1 eviction gets its own
   * advance, so each new validator set is announced at the time it took effect.
   */
  catchUp(now: number): void {
    while (now > this.state.timestamp) {
      const next = this.nextChangeTime(now)
      this.advanceTo(Math.min(now, Math.max(next, this.state.timestamp + 1)))
    }
  }

  /** Moves chain time to `timestamp`, cutting every block the real chain would on the way. */
  advanceTo(timestamp: number): PBlock[] {
    const before = this.state.height
    this.state.atomically(() => this.#advance(timestamp))
    this.#sets.publish()
    this.#emitFrom(before)
    return this.state.d.blocks.slice(before + 1)
  }

  #advance(target: number) {
    if (target < this.state.timestamp) throw new PChainTxError('timeBackwards', `proposed timestamp before current chain time: proposed timestamp (${target}), chain time (${this.state.timestamp})`)
    for (;;) {
      this.#rewardDue()
      if (this.state.timestamp >= target) break
      // The builder cuts a block only when the staker set or the active L1 validators change
      // (a staker starts or ends, an L1 validator runs out of balance); otherwise chain time just
      // moves, and the next block carries it.
      let next = this.#nextStakerChangeTime(target + 1)
      if (next <= this.state.timestamp) next = Math.min(target, this.state.timestamp + 1)
      if (next > target) {
        this.#advanceTimeTo(target)
        break
      }
      this.#advanceTimeTo(next)
      this.#addBlock('standard', [], [])
    }
  }

  /**
   * When the next block on the way to `cap` would be cut (a staker starts or ends, an L1 validator
   * runs out of balance), or `cap` when none is due before it.
   */
  nextChangeTime(cap: number): number {
    return this.#nextStakerChangeTime(cap)
  }

  /** `GetNextStakerChangeTime` (+ L1 eviction time), capped at `cap`. */
  #nextStakerChangeTime(cap: number): number {
    let next = cap
    for (const which of ['current', 'pending'] as const) {
      const s = this.state.firstStaker(which)
      if (s && s.nextTime < next) next = s.nextTime
    }
    const first = this.state.firstActiveL1Validator()
    if (first) {
      const now = this.state.timestamp
      const remaining = first.endAccumulatedFee - this.state.accruedFees
      const secs = validatorFeeSecondsRemaining({ current: BigInt(this.state.numActiveL1Validators()), excess: this.state.l1ValidatorExcess }, this.config.validatorFee, BigInt(Math.max(0, next - now)), remaining < 0n ? 0n : remaining)
      const t = now + Number(secs)
      if (t < next) next = t
    }
    return next
  }

  /** `advanceTimeTo`: promote pending stakers, drop expired permissioned ones, charge L1 fees. */
  #advanceTimeTo(newTime: number) {
    const st = this.state
    const height = st.height + 1
    // pending stakers are ordered by start time (their NextTime): the due ones lead the iterator
    const promotions = st.stakersWhile('pending', (s) => s.nextTime <= newTime).filter((s) => s.startTime <= newTime)
    const promoted: Staker[] = []
    for (const p of promotions) {
      const cur: Staker = { ...p, nextTime: p.endTime, priority: PENDING_TO_CURRENT[p.priority]! }
      if (p.priority !== Priority.SubnetPermissionedValidatorPending) {
        const supply = st.getSupply(p.subnetId)
        cur.potentialReward = calculateReward(this.config.staking.rewardConfig, BigInt(p.endTime - p.startTime), p.weight, supply)
        st.setSupply(p.subnetId, supply + cur.potentialReward)
      }
      promoted.push(cur)
    }
    for (const cur of promoted.filter((s) => s.kind === 'validator')) { st.deletePendingValidator(cur); st.putCurrentValidator(cur) }
    for (const cur of promoted.filter((s) => s.kind === 'delegator')) { st.deletePendingDelegator(cur); st.putCurrentDelegator(cur) }
    for (const s of st.stakersWhile('current', (x) => x.endTime <= newTime && x.priority === Priority.SubnetPermissionedValidatorCurrent)) {
      st.deleteCurrentValidator(s)
      st.putEndedStaker({ staker: s, status: 'completed', height })
    }
    if (newTime < this.config.upgrades.etnaTime) { st.setTimestamp(newTime); return }
    for (const key of st.expiriesUpTo(newTime)) st.deleteExpiry(key)
    const seconds = BigInt(newTime - st.timestamp)
    const df = this.config.dynamicFee
    st.setFeeState(advanceGasState(st.feeState, df.maxCapacity, df.maxPerSecond, df.targetPerSecond, seconds))
    const vfs = { current: BigInt(st.numActiveL1Validators()), excess: st.l1ValidatorExcess }
    const accrued = st.accruedFees + validatorFeeCostOf(vfs, this.config.validatorFee, seconds)
    for (const v of st.activeL1ValidatorsWhile((x) => x.endAccumulatedFee <= accrued)) st.putL1Validator({ ...v, endAccumulatedFee: 0n })
    st.setL1ValidatorExcess(advanceValidatorFeeState(vfs, this.config.validatorFee.target, seconds).excess)
    st.setAccruedFees(accrued)
    st.setTimestamp(newTime)
  }

  /** Issues a RewardValidatorTx (proposal block + commit/abort block) for each staker whose end time is now. */
  #rewardDue() {
    for (;;) {
      const s = this.state.firstStaker('current')
      if (!s || s.endTime > this.state.timestamp || isPermissionedValidator(s.priority)) return
      this.#reward(s)
    }
  }

  #reward(s: Staker) {
    const st = this.state
    // RewardValidatorTx bytes: codec version, type id 20, staker tx id, zero credentials.
    const bytes = new Uint8Array(2 + 4 + 32 + 4)
    bytes[5] = 20
    bytes.set(idFromString(s.txId), 6)
    const rewardTxId = showId(sha256(bytes))
    const validatorStart = s.kind === 'validator' ? s.startTime : (st.getCurrentValidator(s.subnetId, s.nodeId)?.startTime ?? s.startTime)
    const up = this.#uptime(s.nodeId, s.subnetId, validatorStart, s.endTime)
    const commit = up >= this.config.staking.uptimeRequirement
    this.#addBlock('proposal', [rewardTxId], [bytes])
    const height = st.height + 1
    const origin = { chain: this.chainId, txId: rewardTxId, height }
    const ctx = this.#ctx(height)
    const stakerTxId = idFromString(s.txId)
    const stake = s.stakeOuts ?? []
    stake.forEach((o, i) => produceUtxo(ctx, { txId: stakerTxId, outputIndex: s.outsLength + i, assetId: o.assetId, output: o.output }, origin))
    const asset = stake[0]?.assetId ?? idFromString(this.config.avaxAssetId)
    const pay = (amount: bigint, owner: OutputOwners, index: number) =>
      produceUtxo(ctx, { txId: stakerTxId, outputIndex: index, assetId: asset, output: { type: 'TransferOutput', amount, owners: owner } }, origin, true)
    let paid = 0n
    if (s.kind === 'validator') {
      let offset = 0
      if (commit && s.potentialReward > 0n) { pay(s.potentialReward, s.rewardsOwner!, s.outsLength + stake.length); offset = 1; paid += s.potentialReward }
      const delegatee = st.getDelegateeReward(s.subnetId, s.nodeId)
      if (delegatee > 0n) { pay(delegatee, s.delegationRewardsOwner ?? s.rewardsOwner!, s.outsLength + stake.length + offset); paid += delegatee }
      st.setDelegateeReward(s.subnetId, s.nodeId, 0n)
      st.deleteCurrentValidator(s)
    } else {
      const validator = st.getCurrentValidator(s.subnetId, s.nodeId)
      if (!validator) throw fail('notFound', (m) => `failed to get whether ${s.nodeId} is a validator: ${m}`)
      if (commit) {
        const [delegateeReward, delegatorReward] = splitReward(s.potentialReward, validator.delegationShares ?? 0)
        if (delegatorReward > 0n) { pay(delegatorReward, s.rewardsOwner!, s.outsLength + stake.length); paid += delegatorReward }
        if (delegateeReward > 0n) st.setDelegateeReward(s.subnetId, s.nodeId, st.getDelegateeReward(s.subnetId, s.nodeId) + delegateeReward)
      }
      st.deleteCurrentDelegator(s)
    }
    if (!commit) st.setSupply(s.subnetId, st.getSupply(s.subnetId) - s.potentialReward)
    st.putTx({ id: rewardTxId, type: 'RewardValidatorTx', height: height - 1, status: commit ? 'Committed' : 'Aborted', tx: { unsigned: { type: 'RewardValidatorTx', txId: stakerTxId }, credentials: [] } })
    st.putEndedStaker({ staker: s, status: 'completed', height, endTxId: rewardTxId, rewarded: commit, reward: paid })
    this.#addBlock(commit ? 'commit' : 'abort', [], [])
  }

  /** Accepts the next Banff block: `txBytes` are the signed bytes of `txs` (see `encodeBanffBlock`). */
  #addBlock(kind: PBlock['kind'], txs: string[], txBytes: Uint8Array[]): PBlock {
    const height = this.state.height + 1
    const parentId = this.state.lastBlockId
    const timestamp = this.state.timestamp
    const bytes = encodeBanffBlock({ kind, parentId, height, timestamp, txs: txBytes })
    const block: PBlock = { height, id: blockIdOf(bytes), parentId, timestamp, kind, txs, bytes }
    this.state.addBlock(block)
    return block
  }

  // --- reads ---------------------------------------------------------------------------------

  /** pending → active → completed (rewarded / expired) or removed (RemoveSubnetValidatorTx). */
  validationStatus(stakerTxId: string): ValidationStatus {
    const st = this.state
    const ended = st.getEndedStaker(stakerTxId)
    if (ended) return ended.status
    const where = st.stakerStatus(stakerTxId)
    return where === 'pending' ? 'pending' : where === 'current' ? 'active' : 'unknown'
  }

  /** Remaining balance of an L1 validator (0 when inactive). */
  l1ValidatorBalance(v: L1Validator): bigint {
    return v.endAccumulatedFee === 0n ? 0n : v.endAccumulatedFee - this.state.accruedFees
  }

  /** UTXOs owned (among others) by `address` (20 bytes). */
  utxosOf(address: Uint8Array): Utxo[] {
    return this.state.utxosByAddress(Buffer.from(address).toString('hex')).map((rec) => rec.utxo)
  }

  getUtxo(txId: string, index: number) { return this.state.getUtxo(utxoKey(txId, index)) }

  /**
   * The validator sets as the node's validator manager holds them: primary (validators +
   * delegations), permissioned subnets, L1s (active validators, and the inactive ones' weight
   * under the empty node id); each sorted by node id. The sets pushed to the listener hold the
   * inactive L1 validators themselves (`isActive: false`).
   */
  validatorSets(): Map<string, ValidatorEntry[]> {
    return this.#sets.active()
  }

  // --- snapshots -----------------------------------------------------------------------------

  /** A snapshot of the state (copy-on-write, see {@link PChainState.snapshot}), with the validator sets it implies. */
  snapshot(): PChainSnapshot {
    const snap = this.state.snapshot()
    this.#sets.remember(snap)
    return snap
  }

  /**
   * Back to `snap`; its validator sets are pushed to the listener again, every one unless
   * `listenerRestored` says the listener was itself restored to the moment `snap` was taken.
   */
  restore(snap: PChainSnapshot, listenerRestored = false) {
    this.state.restore(snap)
    this.#sets.restore(snap, listenerRestored)
  }
  serialize(): string { return this.state.serialize() }
  hash(): string { return this.state.hash() }
}

/** A tx that does not fit in the block's remaining gas: it waits for the next block. */
class BlockFull extends BaseError {
  override name = 'BlockFull'
  constructor(readonly gas: bigint) {
    super('block full')
  }
}
