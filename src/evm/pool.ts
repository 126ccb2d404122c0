import type { TypedTransaction } from '@ethereumjs/tx'
import type { Hex } from '../core/hex.js'

export type PoolTx = {
  tx: TypedTransaction
  hash: Hex
  from: Hex
  nonce: bigint
  /** Arrival order: the tie-breaker between equal tips, and the key of deterministic ordering. */
  seq: number
}

/** Max fee and tip of any transaction type (legacy and 2930 pay `gasPrice` for both). */
export function txFees(tx: TypedTransaction): { feeCap: bigint; tipCap: bigint } {
  if ('maxFeePerGas' in tx) return { feeCap: tx.maxFeePerGas, tipCap: tx.maxPriorityFeePerGas }
  return { feeCap: tx.gasPrice, tipCap: tx.gasPrice }
}

export function effectiveTip(tx: TypedTransaction, baseFee: bigint): bigint {
  const { feeCap, tipCap } = txFees(tx)
  const room = feeCap - baseFee
  return room < tipCap ? room : tipCap
}

/**
 * Transactions waiting for a block, per sender and nonce. Only the pool knows what is pending;
 * validation against state lives in the chain (admission), ordering for a block lives here.
 */
export class TxPool {
  readonly #bySender = new Map<Hex, Map<bigint, PoolTx>>()
  readonly #byHash = new Map<Hex, PoolTx>()
  #seq = 0

  get size(): number {
    return this.#byHash.size
  }

  get(from: Hex, nonce: bigint): PoolTx | undefined {
    return this.#bySender.get(from)?.get(nonce)
  }

  byHash(hash: Hex): PoolTx | undefined {
    return this.#byHash.get(hash)
  }

  /** Adds or replaces (same sender and nonce) a transaction; returns the replaced one. */
  add(entry: Omit<PoolTx, 'seq'>): PoolTx | undefined {
    let txs = this.#bySender.get(entry.from)
    if (!txs) this.#bySender.set(entry.from, (txs = new Map()))
    const replaced = txs.get(entry.nonce)
    if (replaced) this.#byHash.delete(replaced.hash)
    const stored = { ...entry, seq: this.#seq++ }
    txs.set(entry.nonce, stored)
    this.#byHash.set(entry.hash, stored)
    return replaced
  }

  remove(hash: Hex): void {
    const entry = this.#byHash.get(hash)
    if (!entry) return
    this.#byHash.delete(hash)
    const txs = this.#bySender.get(entry.from)!
    txs.delete(entry.nonce)
    if (txs.size === 0) this.#bySender.delete(entry.from)
  }

  /** The nonce the sender's next transaction should carry, counting its contiguous pending run. */
  nextNonce(from: Hex, stateNonce: bigint): bigint {
    const txs = this.#bySender.get(from)
    let n = stateNonce
    while (txs?.has(n)) n++
    return n
  }

  /** Sum of the maximum cost of the sender's pending transactions (for balance admission). */
  pendingCost(from: Hex): bigint {
    let sum = 0n
    for (const { tx } of this.#bySender.get(from)?.values() ?? []) {
      sum += tx.gasLimit * txFees(tx).feeCap + tx.value
    }
    return sum
  }

  /** Drops transactions whose nonce is below the sender's state nonce (mined or superseded). */
  prune(stateNonce: (from: Hex) => bigint): PoolTx[] {
    const dropped: PoolTx[] = []
    for (const [from, txs] of this.#bySender) {
      const n = stateNonce(from)
      for (const entry of txs.values()) if (entry.nonce < n) dropped.push(entry)
    }
    for (const e of dropped) this.remove(e.hash)
    return dropped
  }

  /**
   * Executable transactions in block order: each sender's contiguous run from its state nonce;
   * across senders the higher effective tip first, then arrival order.
   */
  executable(stateNonce: (from: Hex) => bigint, baseFee: bigint): PoolTx[] {
    const queues: PoolTx[][] = []
    for (const [from, txs] of this.#bySender) {
      const run: PoolTx[] = []
      for (let n = stateNonce(from); txs.has(n); n++) run.push(txs.get(n)!)
      if (run.length) queues.push(run)
    }
    const out: PoolTx[] = []
    const better = (a: PoolTx, b: PoolTx) => {
      const ta = effectiveTip(a.tx, baseFee)
      const tb = effectiveTip(b.tx, baseFee)
      return ta !== tb ? ta > tb : a.seq < b.seq
    }
    // Few senders per block in practice: a linear pick per step is simpler than a heap and fast enough.
    for (;;) {
      let best = -1
      for (let i = 0; i < queues.length; i++) {
        const head = queues[i]![0]
        if (head && (best < 0 || better(head, queues[best]![0]!))) best = i
      }
      if (best < 0) return out
      out.push(queues[best]!.shift()!)
    }
  }

  /** Pending (executable) and queued (nonce gap) transactions per sender, for txpool_*. */
  content(stateNonce: (from: Hex) => bigint): { pending: PoolTx[]; queued: PoolTx[] } {
    const pending: PoolTx[] = []
    const queued: PoolTx[] = []
    for (const [from, txs] of this.#bySender) {
      let next = stateNonce(from)
      for (const entry of [...txs.values()].sort((a, b) => (a.nonce < b.nonce ? -1 : 1))) {
        if (entry.nonce === next) {
          pending.push(entry)
          next++
        } else queued.push(entry)
      }
    }
    return { pending, queued }
  }

  all(): PoolTx[] {
    return [...this.#byHash.values()]
  }

  clear(): void {
    this.#bySender.clear()
    this.#byHash.clear()
  }

  /** Re-adds entries in their original order (revert, load). */
  restore(entries: PoolTx[]): void {
    this.clear()
    for (const e of [...entries].sort((a, b) => a.seq - b.seq)) this.add(e)
  }
}
