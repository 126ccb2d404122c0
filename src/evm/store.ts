import type { Hex } from '../core/hex.js'
import type { MinedTx, StoredBlock } from './types.js'

/**
 * The canonical chain as the RPC layer reads it: blocks by number and hash, transactions by hash.
 * Append-only per height, so truncating to a height (revert) drops only what came after it.
 */
export class ChainStore {
  readonly #blocks: StoredBlock[] = []
  readonly #byHash = new Map<Hex, StoredBlock>()
  readonly #txByHash = new Map<Hex, MinedTx>()

  append(block: StoredBlock): void {
    if (block.number !== BigInt(this.#blocks.length))
      throw new Error(`block ${block.number} appended at height ${this.#blocks.length}`)
    this.#blocks.push(block)
    this.#byHash.set(block.hash, block)
    for (const tx of block.txs) this.#txByHash.set(tx.hash, tx)
  }

  get head(): StoredBlock {
    return this.#blocks[this.#blocks.length - 1]!
  }

  get height(): bigint {
    return BigInt(this.#blocks.length - 1)
  }

  byNumber(number: bigint): StoredBlock | undefined {
    return number < 0n ? undefined : this.#blocks[Number(number)]
  }

  byHash(hash: Hex): StoredBlock | undefined {
    return this.#byHash.get(hash.toLowerCase() as Hex)
  }

  tx(hash: Hex): MinedTx | undefined {
    return this.#txByHash.get(hash.toLowerCase() as Hex)
  }

  /** Drops every block above `height`; returns the dropped blocks, lowest first. */
  truncate(height: bigint): StoredBlock[] {
    const dropped = this.#blocks.splice(Number(height) + 1)
    for (const b of dropped) {
      this.#byHash.delete(b.hash)
      for (const tx of b.txs) this.#txByHash.delete(tx.hash)
    }
    return dropped
  }

  /** Blocks `from..to` inclusive, clamped to the chain. */
  *range(from: bigint, to: bigint): Generator<StoredBlock> {
    const end = Math.min(Number(to), this.#blocks.length - 1)
    for (let i = Math.max(0, Number(from)); i <= end; i++) yield this.#blocks[i]!
  }
}
