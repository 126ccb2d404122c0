import { bytesToHex } from '../../core/hex.js'
import { InvalidStateError } from '../../core/errors.js'
import { idFromString } from '../../core/ids.js'
import type { PChainSignedTx, PChainUnsignedTx, TransferableOutput } from '../txs.js'
import { amountOf, showId } from '../txs.js'
import type { IssueResult, PChain, PackedBlock, PreparedTx } from './chain.js'
import { PChainTxError } from './errors.js'
import { utxoKey } from './executor.js'
import { toGas, txComplexity } from './fees.js'
import type { PBlock } from './state.js'

/**
 * A transaction the P-chain's mempool refused, with the text the node gives after its API's
 * `couldn't issue tx: ` (e.g. `failed verification: failed execution: standard tx <id> failed
 * execution: flow check failed: insufficient unlocked funds: …`). `code` is the innermost
 * sentinel's, as for {@link PChainTxError}.
 */
export class PChainIssueError extends PChainTxError {
  override name = 'PChainIssueError'
}

/** When the mempool builds: `auto` at once, `manual` only when {@link PChainMempool.build} is called (the network's next tick). */
export type BuildMode = 'auto' | 'manual'

export type PChainMempoolSnapshot = {
  txs: PreparedTx[]
  dropped: [string, { code: string; message: string }][]
}

type Entry = { tx: PreparedTx; gasPrice: number; inputs: string[] }

/** `txmempool` / `mempool.Mempool` errors. */
const CONFLICTS = 'tx conflicts with other tx'
/** `droppedTxIDs`: an LRU of the last 64 drop reasons. */
const DROPPED_CAPACITY = 64

/**
 * The P-chain's mempool and block builder, the single way a user's transaction enters the chain
 * (`platform.issueTx`, the `/ext/sim` operations and the library's wallets all call
 * {@link issue}), as avalanchego 1.14.2 runs it (`network.IssueTxFromRPC` → `gossipMempool.Add` →
 * `mempool.Mempool`, then `block/builder`):
 *
 * - a tx already in the mempool is taken again silently (the RPC's `ErrDuplicateTx` is ignored);
 * - a tx dropped before gets its recorded reason back, unverified (the last 64 reasons are kept);
 * - verification (`manager.VerifyTx`) runs the executor against the state the next block would
 *   start from, at the node clock's time, keeping nothing; a refusal is recorded as the tx's drop
 *   reason and thrown as `failed verification: <reason>`;
 * - a tx spending an input another mempool tx spends is refused (`tx conflicts with other tx`);
 * - blocks take the mempool's txs highest gas price first (the price is the AVAX burned per unit of
 *   gas), up to the block's gas capacity; a tx that fails there is dropped with `standard tx <id>
 *   failed execution: …` as its reason (`platform.getTxStatus` gives it as `Dropped`).
 *
 * In `auto` mode (the default) a block is built as soon as a tx is accepted, so `issue` returns
 * with the tx committed; in `manual` mode txs stay `Processing` until {@link build}.
 */
export class PChainMempool {
  readonly #chain: PChain
  readonly #txs = new Map<string, Entry>()
  /** Input UTXO (and imported UTXO) id → the mempool tx spending it. */
  readonly #consumed = new Map<string, string>()
  #dropped = new Map<string, { code: string; message: string }>()
  #now: () => number
  #mode: BuildMode = 'auto'

  constructor(chain: PChain) {
    this.#chain = chain
    this.#now = () => chain.timestamp
  }

  /** The node clock blocks are built at (unix seconds; default the chain's own time) and when to build. */
  configure(options: { now?: () => number; mode?: BuildMode }): void {
    if (options.now) this.#now = options.now
    if (options.mode) this.#mode = options.mode
  }

  get mode(): BuildMode {
    return this.#mode
  }

  /** Txs waiting for a block. */
  get size(): number {
    return this.#txs.size
  }

  /** Whether `txId` waits in the mempool (`Processing`). */
  has(txId: string): boolean {
    return this.#txs.has(txId)
  }

  /** Why `txId` was dropped (`Builder.GetDropReason`), if it was among the last 64 dropped. */
  dropReason(txId: string): string | undefined {
    const reason = this.#dropped.get(txId)
    if (!reason) return undefined
    // lru.Cache.Get refreshes the entry
    this.#dropped.delete(txId)
    this.#dropped.set(txId, reason)
    return reason.message
  }

  /**
   * Verifies `signed` and adds it (built at once in `auto` mode); returns its id. Throws
   * {@link PChainIssueError} with the node's text when the mempool refuses it.
   */
  issue(signed: PChainSignedTx): string {
    const txId = this.#add(signed)
    if (this.#mode === 'auto') this.build()
    return txId
  }

  /**
   * {@link issue}, then builds blocks until the tx is in one, whatever the mode (what a wallet or a
   * network-control operation needs: the tx's block). Returns where it landed.
   */
  issueNow(signed: PChainSignedTx): IssueResult {
    const txId = this.#add(signed)
    for (;;) {
      const packed = this.#build()
      const mine = packed?.accepted.find((a) => a.txId === txId)
      if (mine) return mine
      const drop = packed?.dropped.find((d) => d.txId === txId)
      if (drop) throw new PChainIssueError(drop.error.code, this.dropReason(txId)!)
      if (!packed?.block) {
        if (this.#chain.state.getTx(txId)) throw new InvalidStateError(`tx ${txId} was accepted in an earlier block`)
        throw new InvalidStateError(`the P-chain's next block is full: tx ${txId} waits in the mempool`)
      }
    }
  }

  /** Builds one block from the mempool at the clock's time (the chain catches up to it first); undefined when nothing was accepted. */
  build(): PBlock | undefined {
    return this.#build()?.block
  }

  #add(signed: PChainSignedTx): string {
    const tx = this.#chain.prepare(signed)
    if (this.#txs.has(tx.txId)) return tx.txId
    const dropped = this.#dropped.get(tx.txId)
    if (dropped) {
      this.dropReason(tx.txId)
      throw new PChainIssueError(dropped.code, dropped.message)
    }
    try {
      this.#chain.verifyTx(tx, Math.max(this.#now(), this.#chain.timestamp))
    } catch (err) {
      if (!(err instanceof PChainTxError)) throw err
      this.#markDropped(tx.txId, err.code, err.shortMessage)
      throw new PChainIssueError(err.code, `failed verification: ${err.shortMessage}`)
    }
    const inputs = inputIds(tx.signed.unsigned)
    if (inputs.some((id) => this.#consumed.has(id))) {
      this.#markDropped(tx.txId, 'conflictsWithOtherTx', CONFLICTS)
      throw new PChainIssueError('conflictsWithOtherTx', CONFLICTS)
    }
    this.#put({ tx, gasPrice: gasPrice(this.#chain, tx.signed.unsigned), inputs })
    return tx.txId
  }

  #build(): PackedBlock | undefined {
    if (this.#txs.size === 0) return undefined
    this.#chain.catchUp(this.#now())
    const order = [...this.#txs.values()].sort(byPriceThenId)
    for (const e of order) this.#remove(e.tx.txId)
    const packed = this.#chain.buildBlock(order.map((e) => e.tx))
    for (const { txId, error } of packed.dropped) {
      const message = error.code === 'conflictingBlockTxs' ? error.shortMessage : `standard tx ${txId} failed execution: ${error.shortMessage}`
      this.#markDropped(txId, error.code, message)
    }
    // a full block leaves the rest for the next one
    const left = new Set(packed.leftover.map((t) => t.txId))
    for (const e of order) if (left.has(e.tx.txId)) this.#put(e)
    return packed
  }

  #put(entry: Entry): void {
    this.#txs.set(entry.tx.txId, entry)
    for (const id of entry.inputs) this.#consumed.set(id, entry.tx.txId)
    this.#dropped.delete(entry.tx.txId)
  }

  #remove(txId: string): void {
    const entry = this.#txs.get(txId)
    if (!entry) return
    this.#txs.delete(txId)
    for (const id of entry.inputs) if (this.#consumed.get(id) === txId) this.#consumed.delete(id)
  }

  #markDropped(txId: string, code: string, message: string): void {
    if (this.#txs.has(txId)) return
    this.#dropped.delete(txId)
    this.#dropped.set(txId, { code, message })
    if (this.#dropped.size > DROPPED_CAPACITY) this.#dropped.delete(this.#dropped.keys().next().value!)
  }

  snapshot(): PChainMempoolSnapshot {
    return { txs: [...this.#txs.values()].map((e) => e.tx), dropped: [...this.#dropped] }
  }

  /** Back to a snapshot's txs and drop reasons (none: empty). */
  restore(snapshot: PChainMempoolSnapshot | undefined): void {
    for (const id of [...this.#txs.keys()]) this.#remove(id)
    this.#dropped = new Map(snapshot?.dropped ?? [])
    for (const tx of snapshot?.txs ?? []) this.#put({ tx, gasPrice: gasPrice(this.#chain, tx.signed.unsigned), inputs: inputIds(tx.signed.unsigned) })
  }
}

/** `tx.InputIDs()`: the UTXOs the tx spends, imported ones included. */
function inputIds(u: PChainUnsignedTx): string[] {
  const ids = 'base' in u ? u.base.inputs.map((i) => utxoKey(i.txId, i.outputIndex)) : []
  if (u.type === 'ImportTx') for (const i of u.importedInputs) ids.push(utxoKey(i.txId, i.outputIndex))
  return ids
}

/** `meter`: AVAX burned (consumed − produced, balances and stake counted as produced) per unit of gas. */
function gasPrice(chain: PChain, u: PChainUnsignedTx): number {
  if (!('base' in u)) return 0
  const avax = chain.config.avaxAssetId
  const sum = (outs: readonly TransferableOutput[]) => outs.reduce((s, o) => (showId(o.assetId) === avax ? s + amountOf(o.output) : s), 0n)
  let consumed = 0n
  for (const i of [...u.base.inputs, ...(u.type === 'ImportTx' ? u.importedInputs : [])]) if (showId(i.assetId) === avax) consumed += amountOf(i.input)
  let produced = sum(u.base.outputs)
  if ('stakeOuts' in u) produced += sum(u.stakeOuts)
  if (u.type === 'ExportTx') produced += sum(u.exportedOutputs)
  if (u.type === 'ConvertSubnetToL1Tx') for (const v of u.validators) produced += v.balance
  if (u.type === 'RegisterL1ValidatorTx' || u.type === 'IncreaseL1ValidatorBalanceTx') produced += u.balance
  const complexity = txComplexity(u)
  const gas = complexity ? toGas(complexity, chain.config.dynamicFee.weights) : 0n
  return gas > 0n && consumed > produced ? Number(consumed - produced) / Number(gas) : 0
}

/** The mempool's btree order, highest first: gas price, then tx id bytes. */
function byPriceThenId(a: Entry, b: Entry): number {
  if (a.gasPrice !== b.gasPrice) return b.gasPrice - a.gasPrice
  const x = bytesToHex(idFromString(a.tx.txId)), y = bytesToHex(idFromString(b.tx.txId))
  return x < y ? 1 : x > y ? -1 : 0
}
