/**
 * Interval mining (`--block-time`, `mining: { mode: 'interval' }`) on the network's clock: blocks
 * at the slots the clock has reached, never ahead of it, whatever else mines in between, and a
 * bounded amount of work for any jump in time. The clock is manual and advanced by hand; the
 * realtime timer does nothing but call `tick()` as these tests do.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestClient, custom, publicActions } from 'viem'
import { MAX_TIME } from '../../src/core/clock.js'
import { createEIP1193Provider, createNetwork, type Network } from '../../src/index.js'
import { MAX_INTERVAL_CATCH_UP_BLOCKS } from '../../src/network/intervalMining.js'

const networks: Network[] = []
afterEach(async () => {
  for (const n of networks.splice(0)) await n.close()
})

async function start(interval: number) {
  const network = await createNetwork({ nodes: 1, accounts: 1, mining: { mode: 'interval', interval } })
  networks.push(network)
  const client = createTestClient({ mode: 'anvil', cacheTime: 0, transport: custom(createEIP1193Provider({ network })) }).extend(publicActions)
  const chain = network.cChain
  const start = network.clock.now()
  /** Seconds since the network started, of the clock and of every block after genesis. */
  const times = () => ({
    clock: network.clock.now() - start,
    blocks: [...chain.store.range(1n, chain.store.height)].map((b) => Number(b.block.header.timestamp) - start),
  })
  return { network, client, chain, times }
}

describe('interval mining', () => {
  it('keeps block timestamps on the clock after an evm_mine (`--block-time 1`)', async () => {
    const { network, client, times } = await start(1)
    await network.advanceTime(3)
    // The C-chain's minimum block delay is 2 s (Granite): slot 2 is too close to slot 1.
    expect(times()).toEqual({ clock: 3, blocks: [1, 3] })
    await client.mine({ blocks: 1 })
    // evm_mine itself waits out the minimum delay, and the clock follows the block: 2 s, once.
    expect(times()).toEqual({ clock: 5, blocks: [1, 3, 5] })

    // The realtime timer ticks four times a second: ticks with no time passing build nothing.
    for (let i = 0; i < 20; i++) await network.tick()
    expect(times()).toEqual({ clock: 5, blocks: [1, 3, 5] })

    for (let i = 0; i < 10; i++) {
      await network.advanceTime(1)
      await network.tick()
    }
    expect(times()).toEqual({ clock: 15, blocks: [1, 3, 5, 7, 9, 11, 13, 15] })
  })

  it('builds one block per interval, at the interval, however the clock gets there', async () => {
    const { network, client, times } = await start(3)
    await network.advanceTime(7)
    expect(times()).toEqual({ clock: 7, blocks: [3, 6] })
    await client.mine({ blocks: 1 })
    expect(times()).toEqual({ clock: 8, blocks: [3, 6, 8] })
    await client.increaseTime({ seconds: 4 })
    expect(times()).toEqual({ clock: 12, blocks: [3, 6, 8, 12] })
    await network.advanceTime(0.5)
    await network.advanceTime(0.5)
    await network.advanceTime(2)
    expect(times()).toEqual({ clock: 15, blocks: [3, 6, 8, 12, 15] })
  })

  it('a cheat code\'s timestamp applies to the next interval block, and the grid restarts from it', async () => {
    const { network, client, times } = await start(2)
    await network.advanceTime(2)
    await client.setNextBlockTimestamp({ timestamp: BigInt(network.clock.now() + 100) })
    await network.advanceTime(2)
    expect(times()).toEqual({ clock: 102, blocks: [2, 102] })
    for (let i = 0; i < 20; i++) await network.tick()
    expect(times()).toEqual({ clock: 102, blocks: [2, 102] })
    await network.advanceTime(2)
    expect(times()).toEqual({ clock: 104, blocks: [2, 102, 104] })

    // Every block 10 s after its parent, one block per 2 s tick of the clock: no more than that.
    await client.request({ method: 'anvil_setBlockTimestampInterval', params: [10] } as never)
    await network.advanceTime(2)
    expect(times()).toEqual({ clock: 114, blocks: [2, 102, 104, 114] })
    for (let i = 0; i < 20; i++) await network.tick()
    expect(times().blocks).toHaveLength(4)
  })

  it('a jump to the last second the network keeps builds at most the last blocks due', async () => {
    const { network, chain } = await start(1)
    await network.advanceTime(MAX_TIME - network.clock.now())
    expect(network.clock.now()).toBe(MAX_TIME)
    // Slots 1 s apart, blocks 2 s apart (the minimum delay): the last block is at the last slot or the one before.
    expect(chain.head.block.header.timestamp).toBeGreaterThanOrEqual(BigInt(MAX_TIME - 1))
    expect(chain.head.block.header.timestamp).toBeLessThanOrEqual(BigInt(MAX_TIME))
    expect(chain.store.height).toBeGreaterThan(0n)
    expect(chain.store.height).toBeLessThanOrEqual(BigInt(MAX_INTERVAL_CATCH_UP_BLOCKS))
    // Health ran once at the end of the jump (its last due period), not once per period crossed.
    expect(network.nodes[0]!.health.health.lastRunAt).toBeGreaterThan(MAX_TIME - 30)
  })
})
