import { createHash } from 'node:crypto'
import { open, readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Hex } from '../../src/core/hex.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { writeTrie } from '../../src/snapshot/codec.js'
import { PayloadWriter } from '../../src/snapshot/format.js'
import { FrozenTrie } from '../../src/snapshot/frozen.js'
import { loadNetwork, saveNetwork } from '../../src/snapshot/index.js'
import { HashSet32 } from '../../src/snapshot/prune.js'
import { tempDir, transfer } from './helpers.js'

const tmp = tempDir('frozen')

/** A trie section as `writeTrie` writes it into a file. */
async function trieSection(nodes: [string, string | Uint8Array][]): Promise<Buffer> {
  const path = `${tmp.dir}/trie-${Math.random().toString(16).slice(2)}`
  const handle = await open(path, 'w+')
  const out = new PayloadWriter(handle, 0)
  await writeTrie(out, nodes)
  await out.finish()
  await handle.close()
  return readFile(path)
}

afterAll(() => tmp.cleanup())

describe('FrozenTrie (a trie section read in place)', () => {
  const key = (n: number) => n.toString(16).padStart(64, '0')
  const nodes: [string, string | Uint8Array][] = [
    ...Array.from({ length: 300 }, (_, i): [string, Uint8Array] => [key(i * 7919), Uint8Array.from([i & 0xff, 1, 2])]),
    [`63${key(5)}`, Uint8Array.of(0x60, 0x00)],
    [key(99999), 'abcdef'],
    ['00ff', 'plain text'],
  ]

  it('finds every node by its key, one object per node, and iterates them all', async () => {
    const trie = new FrozenTrie(await trieSection(nodes))
    expect(trie.size).toBe(nodes.length)
    for (const [k, v] of nodes) {
      const expected = v === 'abcdef' ? Uint8Array.of(0xab, 0xcd, 0xef) : v
      expect(trie.get(k)).toEqual(expected)
    }
    expect(trie.get(key(7919))).toBe(trie.get(key(7919)))
    expect(trie.get(key(1))).toBeUndefined()
    expect(trie.get('abc')).toBeUndefined()
    expect(trie.get('zz')).toBeUndefined()
    expect([...trie.entries()].map(([k]) => k)).toEqual(nodes.map(([k]) => k))
  })

  it('refuses a section whose node count or lengths do not add up', async () => {
    const section = await trieSection(nodes.slice(0, 3))
    const miscounted = Buffer.from(section)
    miscounted.writeUInt32BE(4, miscounted.length - 4)
    expect(() => new FrozenTrie(miscounted)).toThrow('the trie section has 3 nodes, 4 written')
    const overlong = Buffer.from(section)
    overlong.writeUInt32BE(1000, 2)
    expect(() => new FrozenTrie(overlong)).toThrow('a trie node runs past its section')
    expect(() => new FrozenTrie(Buffer.alloc(2))).toThrow('the trie section is cut short')
  })
})

describe('a loaded chain reads its blocks in place', () => {
  let network: Network
  let loaded: Network
  const hashes: Hex[] = []

  beforeAll(async () => {
    network = await createNetwork({ nodes: 1, node: { dataDir: `${tmp.dir}/data` } })
    for (let i = 0; i < 70; i++) await transfer(network, network.cChain, i % 5, `0x${(0xb0b00 + i).toString(16).padStart(40, '0')}` as Hex, 1n)
    for (const block of network.cChain.store.range(1n, 70n)) hashes.push(block.txs[0]!.hash)
    await saveNetwork(network, `${tmp.dir}/lazy.l1sim`)
    loaded = await loadNetwork(`${tmp.dir}/lazy.l1sim`)
  })

  afterAll(async () => {
    await network?.close()
    await loaded?.close()
  })

  it('answers every transaction and block by hash, across block batches, as the original', async () => {
    const rpc = (n: Network, method: string, params: unknown[]) => createEIP1193Provider({ network: n, chain: n.cChain }).request({ method, params })
    // Backwards, so lookups by hash come before any read by number.
    for (const hash of [...hashes].reverse()) {
      const receipt = (await rpc(loaded, 'eth_getTransactionReceipt', [hash])) as { blockHash: Hex }
      expect(receipt).toEqual(await rpc(network, 'eth_getTransactionReceipt', [hash]))
      expect(await rpc(loaded, 'eth_getBlockByHash', [receipt.blockHash, true])).toEqual(await rpc(network, 'eth_getBlockByHash', [receipt.blockHash, true]))
    }
    expect(await rpc(loaded, 'eth_getTransactionByHash', [`0x${'ab'.repeat(32)}`])).toBeNull()
    expect(await rpc(loaded, 'eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false])).toBeNull()
  })

  it('a revert below the loaded head drops the loaded blocks from every lookup', async () => {
    const id = await loaded.snapshot()
    await transfer(loaded, loaded.cChain, 0, '0x00000000000000000000000000000000000c0c00', 1n)
    expect(loaded.cChain.store.height).toBe(71n)
    await loaded.revert(id)
    expect(loaded.cChain.store.height).toBe(70n)
    expect(loaded.cChain.store.tx(hashes[69]!)?.blockNumber).toBe(70n)
    // Back to the state as loaded, and below it: reset goes to the loaded head, truncate below it.
    await loaded.reset()
    const dropped = loaded.cChain.store.truncate(60n)
    expect(dropped.map((b) => b.number)).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(61 + i)))
    expect(loaded.cChain.store.tx(hashes[65]!)).toBeUndefined()
    expect(loaded.cChain.store.tx(hashes[59]!)?.blockNumber).toBe(60n)
  })
})

describe('HashSet32 (the snapshot walk\'s set of node references)', () => {
  it('adds each 32-byte hash once, wherever it sits in a buffer, across growth', () => {
    const set = new HashSet32()
    const hashes = Array.from({ length: 5000 }, (_, i) => createHash('sha256').update(String(i)).digest())
    for (const hash of hashes) expect(set.add(hash, 0)).toBe(true)
    expect(set.size).toBe(5000)
    const shifted = Buffer.concat([Buffer.alloc(7), hashes[1234]!])
    expect(set.add(shifted, 7)).toBe(false)
    for (const hash of hashes) expect(set.add(hash, 0)).toBe(false)
    expect(set.size).toBe(5000)
  })
})
