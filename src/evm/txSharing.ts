import type { Common } from '@ethereumjs/common'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Address } from '@ethereumjs/util'

/** Recipients remembered for sharing; past this many the memory is started afresh. */
const RECIPIENTS = 1024

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * Keeps each transaction the chain holds (pool, then its block for the chain's life) down to what
 * is its own. ethereumjs gives every transaction a copy of the chain's `Common` (~800 B), a fresh
 * empty array for no call data (~220 B with its buffer) and its own recipient `Address` (~270 B):
 * most of a transfer's memory in a long history. Here transactions share one `Common` per
 * hardfork, one empty data array, and the `Address` of a recent recipient. Owned by the chain.
 */
export class TxSharing {
  readonly #chainCommon: Common
  readonly #commons = new Map<string, Common>()
  readonly #noData = new Uint8Array(0)
  #recipients = new Map<string, Address>()

  constructor(chainCommon: Common) {
    this.#chainCommon = chainCommon
  }

  /**
   * The `Common` to build a kept transaction on: one copy of the chain's per hardfork, whose
   * `copy` returns itself, so it holds the rules of the head as a fresh copy would. Nothing may
   * move a shared copy's hardfork: l1sim runs every transaction with `skipHardForkValidation`
   * (without it runTx would set the transaction's rules to its block's); should one move all
   * the same, it is replaced here rather than handed to a new transaction.
   */
  common(): Common {
    const hardfork = this.#chainCommon.hardfork()
    const kept = this.#commons.get(hardfork)
    if (kept !== undefined && kept.hardfork() === hardfork) return kept
    const shared = this.#chainCommon.copy()
    Object.defineProperty(shared, 'copy', { value: () => shared })
    this.#commons.set(hardfork, shared)
    return shared
  }

  /**
   * Freezes `tx` (built with `freeze: false`, so a frozen one caches its hash as ethereumjs'
   * would) after pointing its empty data and its recipient at shared equal values. Transactions
   * are never written once built, so the sharing is invisible.
   */
  freeze<T extends TypedTransaction>(tx: T): T {
    const writable = tx as Writable<TypedTransaction>
    if (tx.data.length === 0) writable.data = this.#noData
    if (tx.to !== undefined) {
      const key = tx.to.toString()
      const known = this.#recipients.get(key)
      if (known !== undefined) writable.to = known
      else {
        if (this.#recipients.size >= RECIPIENTS) this.#recipients = new Map()
        this.#recipients.set(key, tx.to)
      }
    }
    return Object.freeze(tx)
  }
}
