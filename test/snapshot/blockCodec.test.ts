import { encodeDeployData, encodeFunctionData } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Hex } from '../../src/core/hex.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { ByteReader, ByteWriter, decodeBlock, encodeBlock } from '../../src/snapshot/blockCodec.js'
import { blockFromRecord } from '../../src/snapshot/codec.js'
import { Reverter } from '../fixtures/contracts/index.js'
import { deploy, tempDir } from './helpers.js'

const tmp = tempDir('block-codec')
let network: Network

beforeAll(async () => {
  network = await createNetwork({ nodes: 1, node: { dataDir: `${tmp.dir}/data` } })
  const rpc = (method: string, params: unknown[]) => createEIP1193Provider({ network, chain: network.cChain }).request({ method, params })
  const [alice, bob] = network.devAccounts.map((a) => a.address)
  await rpc('eth_sendTransaction', [{ from: alice, to: bob, value: '0x1', type: '0x0', gasPrice: '0xba43b7400' }])
  await rpc('eth_sendTransaction', [{ from: alice, to: bob, value: '0x2', type: '0x1', gasPrice: '0xba43b7400', accessList: [{ address: bob, storageKeys: [`0x${'01'.repeat(32)}`] }] }])
  const reverter = await deploy(network, network.cChain, 1, encodeDeployData({ abi: Reverter.abi, bytecode: Reverter.bytecode as Hex }))
  // Logs, then a reverted transaction with its reason, then an impersonated sender's transaction.
  await rpc('eth_sendTransaction', [{ from: alice, to: reverter, data: encodeFunctionData({ abi: Reverter.abi, functionName: 'ping', args: [7n, 'hello'] }) }])
  await rpc('eth_sendTransaction', [{ from: alice, to: reverter, gas: '0x30000', data: encodeFunctionData({ abi: Reverter.abi, functionName: 'revertWithReason' }) }])
  const ghost = '0x000000000000000000000000000000000000dead'
  await rpc('anvil_setBalance', [ghost, '0xde0b6b3a7640000'])
  await rpc('anvil_impersonateAccount', [ghost])
  await rpc('eth_sendTransaction', [{ from: ghost, to: bob, value: '0x3' }])
  // Two transactions in one block.
  await rpc('evm_setAutomine', [false])
  await rpc('eth_sendTransaction', [{ from: alice, to: bob, value: '0x4' }])
  await rpc('eth_sendTransaction', [{ from: bob, to: alice, value: '0x5' }])
  await rpc('evm_mine', [])
})

afterAll(async () => {
  await network?.close()
  tmp.cleanup()
})

describe('blocks in binary (snapshot format 3)', () => {
  it('decodes every kind of block to the same block, transactions and receipts', () => {
    const chain = network.cChain
    const out = new ByteWriter()
    const blocks = [...chain.store.range(0n, chain.store.height)]
    for (const block of blocks) encodeBlock(out, block)
    const input = new ByteReader(out.buffer, 0, out.at)
    const statuses = new Set<number>()
    for (const original of blocks) {
      const decoded = blockFromRecord(chain, decodeBlock(input), original.number, true)
      expect(decoded.hash).toBe(original.hash)
      expect(decoded.block.hash()).toEqual(original.block.hash())
      expect(decoded.extras).toEqual(original.extras)
      expect(decoded.preStateRoot).toEqual(original.preStateRoot)
      expect(decoded.txs.length).toBe(original.txs.length)
      for (const [i, tx] of original.txs.entries()) {
        const copy = decoded.txs[i]!
        expect(copy.tx.hash()).toEqual(tx.tx.hash())
        expect(copy.tx.type).toBe(tx.tx.type)
        expect(copy.from).toBe(tx.from)
        expect(copy.innerCalls).toBe(tx.innerCalls)
        expect(copy.receipt).toEqual(tx.receipt)
        statuses.add(tx.receipt.status)
      }
    }
    expect(input.at).toBe(out.at)
    expect(statuses).toEqual(new Set([0, 1]))
    expect(new Set(blocks.flatMap((b) => b.txs.map((t) => t.tx.type)))).toEqual(new Set([0, 1, 2]))
  })

  it('a record cut anywhere is an error, never a wrong block', () => {
    const out = new ByteWriter()
    const block = network.cChain.store.byNumber(4n)!
    encodeBlock(out, block)
    for (let end = 0; end < out.at; end += 7) expect(() => decodeBlock(new ByteReader(out.buffer, 0, end))).toThrow()
  })
})
