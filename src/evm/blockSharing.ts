import type { Block, BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { equalsBytes } from '@ethereumjs/util'
import type { LogEntry } from './types.js'

/** Header fields of bytes that consecutive blocks often hold equal (empty tries and blooms, an unchanged state root). */
const BYTE_FIELDS = [
  'uncleHash', 'stateRoot', 'transactionsTrie', 'receiptTrie', 'logsBloom', 'mixHash', 'nonce', 'withdrawalsRoot',
  'parentBeaconBlockRoot', 'extraData',
] as const satisfies readonly (keyof BlockHeader)[]

/** Header fields of integers that consecutive blocks often hold equal (a bigint is an object of its own). */
const BIGINT_FIELDS = ['difficulty', 'gasLimit', 'gasUsed', 'baseFeePerGas', 'blobGasUsed', 'excessBlobGas'] as const satisfies readonly (keyof BlockHeader)[]

const NO_UNCLES: BlockHeader[] = Object.freeze([]) as unknown as BlockHeader[]
const NO_WITHDRAWALS = Object.freeze([]) as unknown as NonNullable<Block['withdrawals']>
const NO_TRANSACTIONS = Object.freeze([]) as unknown as Block['transactions']

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * Keeps each sealed block down to what is its own. ethereumjs gives every header a copy of the
 * chain's `Common` (its parameter tables, sets, event emitter: ~2.5 KB) and every field its own
 * buffer, so an empty block cost ~6 KB of heap and `anvil_mine` of 100,000 blocks most of a
 * gigabyte. Here a header shares one `Common` per hardfork with every other block of the chain,
 * and any field equal to its parent's (the empty tries, the bloom, an unchanged state root, the
 * coinbase, the gas limit…) shares the parent's value. Blocks are immutable once sealed (ethereumjs
 * freezes them; the miner builds them unfrozen, `freeze: false`, and {@link seal} freezes them), so
 * sharing is safe. Owned by the chain's miner: the shared commons are that chain's.
 */
export class BlockSharing {
  readonly #commons = new Map<string, Common>()
  /**
   * The bloom of every receipt without logs (all zero: any log sets bits), shared by those
   * receipts instead of a 256-byte array each. Read only, like every sealed block's bytes.
   */
  readonly noLogsBloom = new Uint8Array(256)
  /** The return value of every transaction that returned nothing (a transfer's). */
  readonly noBytes = new Uint8Array(0)
  /** The logs of every receipt without any (frozen: an array each was ~50 B a transaction). */
  readonly noLogs: readonly LogEntry[] = Object.freeze([])

  /**
   * Makes `block` (built with `freeze: false`) share what it has in common with `parent`, then
   * freezes it as ethereumjs would have (a frozen header caches its hash).
   */
  seal(block: Block, parent: Block): void {
    const header = block.header as Writable<BlockHeader>
    const before = parent.header
    for (const field of BYTE_FIELDS) {
      const mine = header[field]
      const theirs = before[field]
      if (mine !== undefined && theirs !== undefined && mine !== theirs && equalsBytes(mine, theirs)) header[field] = theirs
    }
    for (const field of BIGINT_FIELDS) if (header[field] === before[field]) (header as Record<string, unknown>)[field] = before[field]
    const parentHash = parent.hash()
    if (equalsBytes(header.parentHash, parentHash)) header.parentHash = parentHash
    if (header.coinbase.equals(before.coinbase)) header.coinbase = before.coinbase
    const hardfork = header.common.hardfork()
    const common = this.#commons.get(hardfork)
    if (common === undefined) this.#commons.set(hardfork, header.common)
    else header.common = common
    const writable = block as Writable<Block>
    writable.common = header.common
    if (block.uncleHeaders.length === 0) writable.uncleHeaders = NO_UNCLES
    if (block.withdrawals?.length === 0) writable.withdrawals = NO_WITHDRAWALS
    if (block.transactions.length === 0) writable.transactions = NO_TRANSACTIONS
    Object.freeze(header)
    Object.freeze(block)
  }
}
