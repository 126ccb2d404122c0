import { describe, expect, it } from 'vitest'
import type { Hex } from '../../src/core/hex.js'
import { ChainStore, type BlockSource } from '../../src/evm/store.js'
import type { MinedTx, StoredBlock } from '../../src/evm/types.js'

const hash = (prefix: string, n: number): Hex => `0x${prefix}${n.toString(16).padStart(63, '0')}` as Hex

/** A stored block with two transactions; `block` (the ethereumjs block) is not read here. */
function makeBlock(n: number, tag = 'a'): StoredBlock {
  const blockHash = hash(tag === 'a' ? 'b' : 'c', n)
  const txs = [0, 1].map((index) => ({ hash: hash(tag === 'a' ? 'd' : 'e', n * 2 + index), index, blockNumber: BigInt(n), blockHash }) as unknown as MinedTx)
  return { hash: blockHash, number: BigInt(n), txs } as unknown as StoredBlock
}

/** Blocks 1…count built on demand, counting the builds. */
function source(count: number): BlockSource & { built: number[] } {
  const built: number[] = []
  return {
    count,
    built,
    block: (n) => {
      built.push(n)
      return makeBlock(n)
    },
    numberOf: (h) => {
      for (let n = 1; n <= count; n++) if (makeBlock(n).hash === h) return n
      return undefined
    },
    txLocation: (h) => {
      for (let n = 1; n <= count; n++) {
        const index = makeBlock(n).txs.findIndex((t) => t.hash === h)
        if (index >= 0) return [n, index]
      }
      return undefined
    },
  }
}

function storeOn(blocks: BlockSource): ChainStore {
  const store = new ChainStore()
  store.append(makeBlock(0))
  store.attachSource(blocks)
  return store
}

describe('ChainStore on a block source', () => {
  it('builds a block when it is first read, once, by number, hash or transaction', () => {
    const blocks = source(5)
    const store = storeOn(blocks)
    expect(store.height).toBe(5n)
    expect(blocks.built).toEqual([])
    expect(store.byNumber(3n)!.hash).toBe(makeBlock(3).hash)
    expect(store.byNumber(3n)).toBe(store.byNumber(3n))
    expect(store.byHash(makeBlock(2).hash.toUpperCase().replace('0X', '0x') as Hex)!.number).toBe(2n)
    expect(store.tx(makeBlock(4).txs[1]!.hash)!.index).toBe(1)
    expect(blocks.built).toEqual([3, 2, 4])
    expect(store.head.number).toBe(5n)
    expect(store.byNumber(6n)).toBeUndefined()
    expect(store.byNumber(-1n)).toBeUndefined()
    expect(store.byHash(hash('f', 1))).toBeUndefined()
    expect([...store.range(0n, 9n)].map((b) => b.number)).toEqual([0n, 1n, 2n, 3n, 4n, 5n])
  })

  it('scans the source without keeping what it built, and gives kept blocks as they are', () => {
    const blocks = source(4)
    const store = storeOn(blocks)
    const kept = store.byNumber(2n)!
    const scanned = [...store.scan(0n, 9n)]
    expect(scanned.map((b) => b.number)).toEqual([0n, 1n, 2n, 3n, 4n])
    expect(scanned[2]).toBe(kept)
    expect(blocks.built).toEqual([2, 1, 3, 4])
    // Not kept: the next read builds block 3 again (and keeps it then).
    expect(store.byNumber(3n)!.hash).toBe(makeBlock(3).hash)
    expect(blocks.built).toEqual([2, 1, 3, 4, 3])
    expect([...store.scan(3n, 3n)][0]).toBe(store.byNumber(3n))
    expect([...store.scan(5n, 9n)]).toEqual([])
  })

  it('truncating below the source returns its blocks and stops answering for them; new blocks take their heights', () => {
    const store = storeOn(source(5))
    const dropped = store.truncate(2n)
    expect(dropped.map((b) => b.number)).toEqual([3n, 4n, 5n])
    expect(store.height).toBe(2n)
    expect(store.byHash(makeBlock(4).hash)).toBeUndefined()
    expect(store.tx(makeBlock(3).txs[0]!.hash)).toBeUndefined()
    expect(store.tx(makeBlock(2).txs[0]!.hash)!.blockNumber).toBe(2n)
    const replacement = makeBlock(3, 'other')
    store.append(replacement)
    expect(store.byNumber(3n)).toBe(replacement)
    expect(store.byHash(makeBlock(3).hash)).toBeUndefined()
    expect(store.byHash(replacement.hash)).toBe(replacement)
    expect(store.tx(replacement.txs[1]!.hash)).toBe(replacement.txs[1])
  })

  it('takes a source only after the genesis block alone', () => {
    const store = storeOn(source(1))
    expect(() => store.attachSource(source(1))).toThrow('a block source goes after the genesis block alone, not after 2 blocks')
  })
})
