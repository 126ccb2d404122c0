import { statSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Hex } from '../../src/core/hex.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { inspectSnapshot, loadNetwork, saveNetwork } from '../../src/snapshot/index.js'
import { tempDir, transfer } from './helpers.js'

const BOB: Hex = '0x00000000000000000000000000000000000b0b00'
const tmp = tempDir('history')
let network: Network
const balanceAt = (n: Network, block: string) => createEIP1193Provider({ network: n, chain: n.cChain }).request({ method: 'eth_getBalance', params: [BOB, block] })

beforeAll(async () => {
  network = await createNetwork({ nodes: 1, node: { dataDir: `${tmp.dir}/data` } })
  // Bob's balance is 1 only in block 1's state, which is more than 128 blocks old at the end.
  await transfer(network, network.cChain, 0, BOB, 1n)
  await transfer(network, network.cChain, 0, BOB, 1n)
  await createEIP1193Provider({ network, chain: network.cChain }).request({ method: 'anvil_mine', params: ['0x82'] })
  await transfer(network, network.cChain, 0, BOB, 1n)
})

afterAll(async () => {
  await network?.close()
  tmp.cleanup()
})

describe('state history in the file', () => {
  it('recent (default): the live state and the last 128 blocks', async () => {
    await saveNetwork(network, `${tmp.dir}/recent.l1sim`)
    expect((await inspectSnapshot(`${tmp.dir}/recent.l1sim`)).history).toBe('recent')
    const loaded = await loadNetwork(`${tmp.dir}/recent.l1sim`)
    expect(await balanceAt(loaded, 'latest')).toBe('0x3')
    expect(await balanceAt(loaded, '0x2')).toBe(await balanceAt(network, '0x2'))
    await expect(balanceAt(loaded, '0x1')).rejects.toThrow()
    // Block 0's state is the genesis, which the recreated network has anyway.
    expect(await balanceAt(loaded, '0x0')).toBe('0x0')
    await loaded.close()
  })

  it('full: every block\'s state', async () => {
    await saveNetwork(network, `${tmp.dir}/full.l1sim`, { history: 'full' })
    expect(statSync(`${tmp.dir}/full.l1sim`).size).toBeGreaterThan(statSync(`${tmp.dir}/recent.l1sim`).size)
    const loaded = await loadNetwork(`${tmp.dir}/full.l1sim`)
    expect(await balanceAt(network, '0x1')).toBe('0x1')
    expect(await balanceAt(loaded, '0x1')).toBe('0x1')
    await loaded.close()
  })
})
