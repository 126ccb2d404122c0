import type { Hex } from '../../core/hex.js'
import type { XChainSignedTx } from '../txs.js'
import { hexKey, inputId } from './bytes.js'
import { XChainTxError } from './errors.js'

/**
 * The X-chain's mempool, after avalanchego's `vms/txs/mempool` as the avm wraps it (`gossipMempool`):
 * the txs verified and waiting for a block (oldest first, none spending an input another one
 * spends), and the last {@link DROPPED_CACHE_SIZE} txs refused, with their reason. A tx refused
 * once is refused again with the same reason, without being verified again, until the cache
 * forgets it (the node's `GetDropReason` check comes before verification).
 */

/** `mempool.MaxTxSize`: 64 KiB. */
export const MAX_TX_SIZE = 64 * 1024
/** `maxMempoolSize`: 64 MiB of tx bytes. */
export const MAX_MEMPOOL_SIZE = 64 * 1024 * 1024
/** `droppedTxIDsCacheSize`. */
export const DROPPED_CACHE_SIZE = 64

export type MempoolTx = { txId: string; tx: XChainSignedTx; bytes: Uint8Array }

/** `InputIDs()` of an avm tx: its inputs, imported inputs and the UTXOs its operations consume. */
export function txInputIds(tx: XChainSignedTx): Hex[] {
  const u = tx.unsigned
  const refs = [...u.base.inputs]
  if (u.type === 'ImportTx') refs.push(...u.importedInputs)
  const ids = refs.map((i) => hexKey(inputId(i.txId, i.outputIndex)))
  if (u.type === 'OperationTx') for (const op of u.operations) for (const r of op.utxoIds) ids.push(hexKey(inputId(r.txId, r.outputIndex)))
  return ids
}

export class XMempool {
  readonly #txs = new Map<string, MempoolTx & { inputs: Hex[] }>()
  /** input id → the mempool tx spending it. */
  readonly #spenders = new Map<Hex, string>()
  /** tx id → why it was dropped; Map order is the LRU order (oldest first). */
  readonly #dropped = new Map<string, XChainTxError>()
  #bytesAvailable = MAX_MEMPOOL_SIZE

  get size(): number {
    return this.#txs.size
  }

  has(txId: string): boolean {
    return this.#txs.has(txId)
  }

  /** The waiting txs, oldest first. */
  txs(): MempoolTx[] {
    return [...this.#txs.values()]
  }

  /**
   * `mempool.Add`: refuses a tx larger than {@link MAX_TX_SIZE}, one that does not fit, or one
   * spending an input a waiting tx spends, with the node's messages (the caller has checked for
   * duplicates and verified it).
   */
  add(entry: MempoolTx): void {
    const size = entry.bytes.length
    if (size > MAX_TX_SIZE) throw new XChainTxError('txTooLarge', `tx too large: ${entry.txId} size (${size}) > max size (${MAX_TX_SIZE})`)
    if (size > this.#bytesAvailable)
      throw new XChainTxError('mempoolFull', `mempool is full: ${entry.txId} size (${size}) > available space (${this.#bytesAvailable})`)
    const inputs = txInputIds(entry.tx)
    if (inputs.some((i) => this.#spenders.has(i))) throw new XChainTxError('conflictsWithOtherTx', `tx conflicts with other tx: ${entry.txId}`)
    this.#bytesAvailable -= size
    this.#txs.set(entry.txId, { ...entry, inputs })
    for (const i of inputs) this.#spenders.set(i, entry.txId)
    // An added tx must not be marked as dropped.
    this.#dropped.delete(entry.txId)
  }

  /** Removes a waiting tx (taken into a block, or dropped by the builder). */
  remove(txId: string): void {
    const entry = this.#txs.get(txId)
    if (!entry) return
    this.#txs.delete(txId)
    this.#bytesAvailable += entry.bytes.length
    for (const i of entry.inputs) this.#spenders.delete(i)
  }

  /** `MarkDropped`: remembers why `txId` was refused (not for a full mempool, nor for a waiting tx). */
  markDropped(txId: string, reason: XChainTxError): void {
    if (reason.code === 'mempoolFull' || this.#txs.has(txId)) return
    this.#dropped.delete(txId)
    this.#dropped.set(txId, reason)
    if (this.#dropped.size > DROPPED_CACHE_SIZE) this.#dropped.delete(this.#dropped.keys().next().value!)
  }

  /** `GetDropReason`: the refusal remembered for `txId` (reading it makes it the most recent). */
  dropReason(txId: string): XChainTxError | undefined {
    const reason = this.#dropped.get(txId)
    if (reason) {
      this.#dropped.delete(txId)
      this.#dropped.set(txId, reason)
    }
    return reason
  }

  /** Forgets everything (the chain's state was restored: what waited or failed may not any more). */
  clear(): void {
    this.#txs.clear()
    this.#spenders.clear()
    this.#dropped.clear()
    this.#bytesAvailable = MAX_MEMPOOL_SIZE
  }
}
