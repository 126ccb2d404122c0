import type { Common } from '@ethereumjs/common'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'

/** Recipients (and senders) remembered for sharing; past this many the memory is started afresh. */
const RECIPIENTS = 1024

/** Values a transaction or receipt repeats from others (fee caps, gas, value, chain id), by value. */
const SHARED_FIELDS = ['chainId', 'gasLimit', 'value', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'v'] as const

/** A signed transaction's sender: one `Address` and one hex string per account, shared. */
type Sender = { readonly address: Address; readonly hex: Hex }
/** The transaction cache's entry {@link TxSharing.keepSender} adds. */
type SenderCache = { senderPubKey?: Uint8Array; sender?: Sender; serialized?: Uint8Array }

/**
 * `serialize` of a kept transaction: its bytes are made once while it waits (its hash, then the
 * block's transactions root, each serialised it) and let go once it is mined ({@link TxSharing.mined}).
 */
function keptSerialize(this: TypedTransaction): Uint8Array {
  const cache = this.cache as SenderCache
  return cache.serialized ?? (Object.getPrototypeOf(this) as TypedTransaction).serialize.call(this)
}

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
  readonly #noAccessList: [] = []
  /** Each transaction type's capability list (ethereumjs builds one array per transaction), by content. */
  readonly #capabilities = new Map<string, number[]>()
  /** The options each transaction keeps (`txOptions`), one object per shared `Common`. */
  readonly #options = new WeakMap<Common, { common: Common; freeze: false }>()
  #recipients = new Map<string, Address>()
  #senders = new Map<string, Sender>()
  /** Recent bigint values, one instance each (a bigint is an object of its own, ~28 B). */
  #values = new Map<bigint, bigint>()
  /**
   * `getSenderAddress` of a transaction given {@link keepSender}: one function for all of them
   * (a closure per transaction cost ~400 B for the chain's life).
   */
  readonly #senderAddress: (this: TypedTransaction) => Address

  constructor(chainCommon: Common) {
    this.#chainCommon = chainCommon
    const sharing = this
    this.#senderAddress = function (this: TypedTransaction) {
      return sharing.#sender(this).address
    }
  }

  /** The instance of `value` the chain's kept transactions and receipts share. */
  value(value: bigint): bigint {
    const known = this.#values.get(value)
    if (known !== undefined) return known
    if (this.#values.size >= RECIPIENTS) this.#values = new Map()
    this.#values.set(value, value)
    return value
  }

  /** Options to build a kept transaction with (unfrozen, see {@link freeze}), one object shared by every transaction on that `Common`. */
  options(): { common: Common; freeze: false } {
    const common = this.common()
    let options = this.#options.get(common)
    if (options === undefined) this.#options.set(common, (options = { common, freeze: false }))
    return options
  }

  /**
   * Makes a signed transaction (not frozen yet) keep its sender, derived once with the chain's
   * keccak: ethereumjs hashes the recovered public key in JavaScript on every `getSenderAddress`
   * (admission, then the block's run), a tenth of sender recovery's time. The sender's `Address`
   * and hex are shared with its other transactions, and the 64-byte public key is let go once
   * the address is known (`getSenderPublicKey` would recover it again).
   */
  keepSender<T extends TypedTransaction>(tx: T): T {
    if (tx.common.customCrypto.keccak256 === undefined) return tx
    Object.defineProperty(tx, 'getSenderAddress', { value: this.#senderAddress })
    return tx
  }

  /**
   * Lets go of what a mined transaction kept only to run: its data fee cache (an object and a
   * bigint) and its serialisation, made again should they be needed.
   */
  mined(tx: TypedTransaction): void {
    const cache = tx.cache as SenderCache & { dataFee?: unknown }
    cache.dataFee = undefined
    cache.serialized = undefined
  }

  /** Keeps `tx`'s serialisation until it is mined (see {@link keptSerialize}); call on a frozen transaction. */
  keepSerialized(tx: TypedTransaction): void {
    if (tx.serialize !== keptSerialize) return
    const cache = tx.cache as SenderCache
    cache.serialized ??= (Object.getPrototypeOf(tx) as TypedTransaction).serialize.call(tx)
  }

  /** The lowercase hex of a transaction's sender (shared when {@link keepSender} was applied); throws on a bad signature. */
  senderHex(tx: TypedTransaction): Hex {
    return tx.getSenderAddress === this.#senderAddress ? this.#sender(tx).hex : (tx.getSenderAddress().toString() as Hex)
  }

  #sender(tx: TypedTransaction): Sender {
    const cache = tx.cache as SenderCache
    if (cache.sender !== undefined) return cache.sender
    const hex = bytesToHex(tx.common.customCrypto.keccak256!(tx.getSenderPublicKey()).subarray(12)) as Hex
    let sender = this.#senders.get(hex)
    if (sender === undefined) {
      if (this.#senders.size >= RECIPIENTS) this.#senders = new Map()
      sender = { address: new Address(Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))), hex }
      this.#senders.set(hex, sender)
    }
    cache.sender = sender
    cache.senderPubKey = undefined
    return sender
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
   * would) after pointing its empty data and access list, its capability list, its recipient and
   * its common values (fee caps, gas limit, value, chain id) at shared equal values. Transactions are never written once built, so the sharing is
   * invisible.
   */
  freeze<T extends TypedTransaction>(tx: T): T {
    const writable = tx as Writable<TypedTransaction>
    if (tx.data.length === 0) writable.data = this.#noData
    Object.defineProperty(tx, 'serialize', { value: keptSerialize })
    const shared = tx as unknown as { accessList?: unknown[]; activeCapabilities?: number[] } & Partial<Record<(typeof SHARED_FIELDS)[number], bigint>>
    for (const field of SHARED_FIELDS) {
      const value = shared[field]
      if (typeof value === 'bigint') shared[field] = this.value(value)
    }
    if (shared.accessList?.length === 0) shared.accessList = this.#noAccessList
    const capabilities = shared.activeCapabilities
    if (Array.isArray(capabilities)) {
      const key = capabilities.join()
      const known = this.#capabilities.get(key)
      if (known !== undefined) shared.activeCapabilities = known
      else this.#capabilities.set(key, capabilities)
    }
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
