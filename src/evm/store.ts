import type { Hex } from '../core/hex.js'
import type { MinedTx, StoredBlock } from './types.js'

/**
 * Blocks `1…count` held elsewhere (a loaded snapshot file) and built only when read: loading a
 * long history then costs its bytes, not a hundred thousand objects.
 */
export interface BlockSource {
  readonly count: number
  /** Block `number` (1…count), built on each call: the store keeps what it is given. */
  block(number: number): StoredBlock
  /** The number of the block with this hash (lowercase hex), if the source holds it. */
  numberOf(hash: Hex): number | undefined
  /** The block number and index of the transaction with this hash (lowercase hex). */
  txLocation(hash: Hex): [number: number, index: number] | undefined
}

/**
 * The canonical chain as the RPC layer reads it: blocks by number and hash, transactions by hash.
 * Append-only per height, so truncating to a height (revert) drops only what came after it. A
 * chain loaded from a file starts on a {@link BlockSource}: its blocks are built on first read
 * and kept, and the source's lookups stand in for the maps below while they are canonical.
 */
export class ChainStore {
  /** Holes where a source's block was not read yet. */
  readonly #blocks: (StoredBlock | undefined)[] = []
  readonly #byHash = new Map<Hex, StoredBlock>()
  readonly #txByHash = new Map<Hex, MinedTx>()
  #source: BlockSource | undefined
  /** The source's blocks still canonical: `1…#sourceCount` (a truncation below it lowers it). */
  #sourceCount = 0

  append(block: StoredBlock): void {
    if (block.number !== BigInt(this.#blocks.length))
      throw new Error(`block ${block.number} appended at height ${this.#blocks.length}`)
    this.#blocks.push(block)
    this.#byHash.set(block.hash, block)
    for (const tx of block.txs) this.#txByHash.set(tx.hash, tx)
  }

  /** Puts `source`'s blocks after the genesis block, which must be the only one stored. */
  attachSource(source: BlockSource): void {
    if (this.#blocks.length !== 1) throw new Error(`a block source goes after the genesis block alone, not after ${this.#blocks.length} blocks`)
    this.#source = source
    this.#sourceCount = source.count
    this.#blocks.length = 1 + source.count
  }

  get head(): StoredBlock {
    return this.#at(this.#blocks.length - 1)!
  }

  get height(): bigint {
    return BigInt(this.#blocks.length - 1)
  }

  byNumber(number: bigint): StoredBlock | undefined {
    return number < 0n || number >= BigInt(this.#blocks.length) ? undefined : this.#at(Number(number))
  }

  byHash(hash: Hex): StoredBlock | undefined {
    const key = hash.toLowerCase() as Hex
    const block = this.#byHash.get(key)
    if (block !== undefined || this.#source === undefined) return block
    const number = this.#source.numberOf(key)
    return number !== undefined && number <= this.#sourceCount ? this.#at(number) : undefined
  }

  tx(hash: Hex): MinedTx | undefined {
    const key = hash.toLowerCase() as Hex
    const tx = this.#txByHash.get(key)
    if (tx !== undefined || this.#source === undefined) return tx
    const location = this.#source.txLocation(key)
    return location !== undefined && location[0] <= this.#sourceCount ? this.#at(location[0])!.txs[location[1]] : undefined
  }

  /** Drops every block above `height`; returns the dropped blocks, lowest first. */
  truncate(height: bigint): StoredBlock[] {
    const from = Number(height) + 1
    for (let i = from; i < this.#blocks.length; i++) this.#at(i)
    const dropped = this.#blocks.splice(from) as StoredBlock[]
    this.#sourceCount = Math.min(this.#sourceCount, Number(height))
    for (const b of dropped) {
      this.#byHash.delete(b.hash)
      for (const tx of b.txs) this.#txByHash.delete(tx.hash)
    }
    return dropped
  }

  /** Blocks `from..to` inclusive, clamped to the chain. */
  *range(from: bigint, to: bigint): Generator<StoredBlock> {
    const end = Math.min(Number(to), this.#blocks.length - 1)
    for (let i = Math.max(0, Number(from)); i <= end; i++) yield this.#at(i)!
  }

  /**
   * Blocks `from..to` as {@link range} gives them, except that a source block not read before is
   * built for this pass only and not kept: one pass over a long loaded history (an indexer
   * building itself) then costs short-lived garbage instead of the whole history's objects.
   */
  *scan(from: bigint, to: bigint): Generator<StoredBlock> {
    const end = Math.min(Number(to), this.#blocks.length - 1)
    for (let i = Math.max(0, Number(from)); i <= end; i++) {
      const kept = this.#blocks[i]
      yield kept !== undefined || i < 1 || i > this.#sourceCount ? kept! : this.#source!.block(i)
    }
  }

  #at(index: number): StoredBlock | undefined {
    const block = this.#blocks[index]
    if (block !== undefined || index < 1 || index > this.#sourceCount) return block
    return (this.#blocks[index] = this.#source!.block(index))
  }
}
