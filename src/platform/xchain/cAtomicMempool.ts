import type { Hex } from '../../core/hex.js'
import type { CAtomicSignedTx } from './cAtomicCodec.js'
import { XChainTxError } from './errors.js'

/**
 * The C-chain's atomic mempool, after coreth's `atomic/txpool`: txs are pending (waiting for a
 * block, the highest effective gas price first), current (in the block being built) or discarded
 * (refused by the block builder; the last {@link DISCARDED_CACHE_SIZE} are remembered, so
 * `avax.getAtomicTxStatus` answers `Dropped`). A pending tx conflicting with a new one (a shared
 * input) stays unless the new one pays a higher gas price, and then it is removed.
 */

/** `discardedTxsCacheSize`. */
export const DISCARDED_CACHE_SIZE = 50
/** `defaultMempoolSize`: txs, pending and current together. */
export const ATOMIC_MEMPOOL_SIZE = 4096

export type AtomicPoolTx = {
  txId: string
  tx: CAtomicSignedTx
  bytes: Uint8Array
  /** `EffectiveGasPrice`, wei per gas. */
  gasPrice: bigint
  inputs: Hex[]
}

export class CAtomicMempool {
  readonly #pending = new Map<string, AtomicPoolTx & { seq: number }>()
  readonly #current = new Map<string, AtomicPoolTx>()
  /** input id → the pending or current tx spending it. */
  readonly #spenders = new Map<Hex, string>()
  /** Map order is the LRU order (oldest first). */
  readonly #discarded = new Map<string, { tx: CAtomicSignedTx; bytes: Uint8Array; reason?: string }>()
  #seq = 0

  /** Where `txId` is: `pending` or `current` (processing), `discarded`, or undefined. */
  state(txId: string): 'pending' | 'current' | 'discarded' | undefined {
    if (this.#pending.has(txId)) return 'pending'
    if (this.#current.has(txId)) return 'current'
    return this.#discarded.has(txId) ? 'discarded' : undefined
  }

  /** A tx the mempool holds or discarded, with why it was discarded. */
  get(txId: string): { tx: CAtomicSignedTx; bytes: Uint8Array; reason?: string } | undefined {
    return this.#pending.get(txId) ?? this.#current.get(txId) ?? this.#discarded.get(txId)
  }

  get pendingCount(): number {
    return this.#pending.size
  }

  /**
   * `addTx` after verification: an already known tx is refused with `already known: …` (the API
   * takes that as issued); a conflict with pending txs paying at least as much is refused with
   * coreth's `conflict present: …`; cheaper conflicts are removed; a full mempool evicts its
   * cheapest pending tx for a dearer one.
   */
  add(entry: AtomicPoolTx): void {
    const { txId } = entry
    if (this.#current.has(txId)) throw new XChainTxError('alreadyKnown', `already known: tx ${txId} is being built into a block`)
    if (this.#pending.has(txId)) throw new XChainTxError('alreadyKnown', `already known: tx ${txId} is pending`)
    const conflicts = [...new Set(entry.inputs.map((i) => this.#spenders.get(i)).filter((t): t is string => t !== undefined))]
    if (conflicts.length > 0) {
      let highest = { price: 0n, txId: EMPTY_TX_ID }
      for (const id of conflicts) {
        const price = (this.#pending.get(id) ?? this.#current.get(id))!.gasPrice
        if (price > highest.price) highest = { price, txId: id }
      }
      if (entry.gasPrice <= highest.price)
        throw new XChainTxError(
          'conflict',
          `conflict present: issued tx (${txId}) gas price ${entry.gasPrice} <= conflict tx (${highest.txId}) gas price ${highest.price} (${conflicts.length} total conflicts in mempool)`,
        )
      for (const id of conflicts) this.discard(id)
    }
    if (this.#pending.size + this.#current.size >= ATOMIC_MEMPOOL_SIZE) {
      const cheapest = this.#cheapestPending()
      if (!cheapest) throw new XChainTxError('mempoolFull', 'mempool full')
      if (entry.gasPrice <= cheapest.gasPrice)
        throw new XChainTxError('insufficientFee', `insufficient fee currentMin=${cheapest.gasPrice} provided=${entry.gasPrice}`)
      this.discard(cheapest.txId)
    }
    // A tx discarded before may be valid now (an atomic UTXO arrived): it leaves the discarded set.
    this.#discarded.delete(txId)
    this.#pending.set(txId, { ...entry, seq: this.#seq++ })
    for (const i of entry.inputs) this.#spenders.set(i, txId)
  }

  /** `NextTx`: moves the dearest pending tx (the oldest among equals) to current. */
  next(): AtomicPoolTx | undefined {
    let best: (AtomicPoolTx & { seq: number }) | undefined
    for (const tx of this.#pending.values()) if (!best || tx.gasPrice > best.gasPrice || (tx.gasPrice === best.gasPrice && tx.seq < best.seq)) best = tx
    if (!best) return undefined
    this.#pending.delete(best.txId)
    this.#current.set(best.txId, best)
    return best
  }

  /** `CancelCurrentTx`: back to pending (it did not fit in the block). */
  cancel(txId: string): void {
    const tx = this.#current.get(txId)
    if (!tx) return
    this.#current.delete(txId)
    this.#pending.set(txId, { ...tx, seq: this.#seq++ })
  }

  /**
   * `removeTx(tx, discard = true)`: the tx leaves and is remembered as discarded (`Dropped`): the
   * block builder refused it (`reason`), or a dearer conflicting tx or a full mempool pushed it out.
   */
  discard(txId: string, reason?: string): void {
    const tx = this.#pending.get(txId) ?? this.#current.get(txId)
    if (!tx) return
    this.#remove(tx)
    this.#discarded.delete(txId)
    this.#discarded.set(txId, { tx: tx.tx, bytes: tx.bytes, ...(reason === undefined ? {} : { reason }) })
    if (this.#discarded.size > DISCARDED_CACHE_SIZE) this.#discarded.delete(this.#discarded.keys().next().value!)
  }

  /** The current txs were accepted in a block: they leave the mempool. */
  removeCurrent(): AtomicPoolTx[] {
    const txs = [...this.#current.values()]
    for (const tx of txs) this.#remove(tx)
    return txs
  }

  /** Every pending and current tx back to pending (a block was not built after all). */
  cancelCurrent(): void {
    for (const txId of [...this.#current.keys()]) this.cancel(txId)
  }

  snapshot(): CAtomicMempoolSnapshot {
    return {
      pending: [...this.#pending.values()].sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...tx }) => tx),
      discarded: [...this.#discarded.entries()],
    }
  }

  restore(s: CAtomicMempoolSnapshot | undefined): void {
    this.#pending.clear()
    this.#current.clear()
    this.#spenders.clear()
    this.#discarded.clear()
    for (const tx of s?.pending ?? []) {
      this.#pending.set(tx.txId, { ...tx, seq: this.#seq++ })
      for (const i of tx.inputs) this.#spenders.set(i, tx.txId)
    }
    for (const [txId, entry] of s?.discarded ?? []) this.#discarded.set(txId, entry)
  }

  #remove(tx: AtomicPoolTx): void {
    this.#pending.delete(tx.txId)
    this.#current.delete(tx.txId)
    for (const i of tx.inputs) if (this.#spenders.get(i) === tx.txId) this.#spenders.delete(i)
  }

  #cheapestPending(): AtomicPoolTx | undefined {
    let min: AtomicPoolTx | undefined
    for (const tx of this.#pending.values()) if (!min || tx.gasPrice < min.gasPrice) min = tx
    return min
  }
}

export type CAtomicMempoolSnapshot = {
  pending: AtomicPoolTx[]
  discarded: Array<[string, { tx: CAtomicSignedTx; bytes: Uint8Array; reason?: string }]>
}

const EMPTY_TX_ID = '11111111111111111111111111111111LpoYY'
