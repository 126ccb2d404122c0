/**
 * `loadFixture` (l1sim/testing): the setup runs once per network, later calls revert to its
 * snapshot; fixtures nest; a network or a devnet can be the target; a lost snapshot is an error.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createEIP1193Provider, createNetwork, startDevnet, type Network } from '../../src/index.js'
import { clearFixtures, FixtureAnonymousFunctionError, FixtureSnapshotError, loadFixture } from '../../src/testing/index.js'

const RECEIVER = '0x000000000000000000000000000000000000bEEF'
const OTHER = '0x000000000000000000000000000000000000cAFE'

async function pay(network: Network, to: string, value: bigint): Promise<void> {
  const from = network.devAccounts[0]!.address
  await createEIP1193Provider({ network }).request({ method: 'eth_sendTransaction', params: [{ from, to, value: `0x${value.toString(16)}` }] })
}

async function balance(network: Network, address: string): Promise<bigint> {
  return (await network.cChain.getAccountFields(address as `0x${string}`, 'latest')).balance
}

const networks: Network[] = []
async function freshNetwork(): Promise<Network> {
  const network = await createNetwork({ nodes: 1, accounts: 2 })
  networks.push(network)
  return network
}
afterEach(async () => {
  for (const network of networks.splice(0)) await network.close()
})

describe('loadFixture', () => {
  it('runs the setup once, then returns to the state it left and the value it returned', async () => {
    const network = await freshNetwork()
    let runs = 0
    async function paid(target: Network) {
      runs++
      await pay(target, RECEIVER, 5n)
      return { height: target.cChain.head.number }
    }
    const first = await loadFixture(network, paid)
    expect(await balance(network, RECEIVER)).toBe(5n)
    await pay(network, RECEIVER, 7n)
    await pay(network, OTHER, 1n)
    expect(await balance(network, RECEIVER)).toBe(12n)

    const second = await loadFixture(network, paid)
    expect(second).toBe(first)
    expect(runs).toBe(1)
    expect(await balance(network, RECEIVER)).toBe(5n)
    expect(await balance(network, OTHER)).toBe(0n)
    expect(network.cChain.head.number).toBe(first.height)

    // Reverting used the snapshot up; the helper took it again, so a third call still works.
    await pay(network, RECEIVER, 1n)
    await loadFixture(network, paid)
    expect(await balance(network, RECEIVER)).toBe(5n)
    expect(runs).toBe(1)
  })

  it('keeps fixtures apart per function and per network', async () => {
    const [a, b] = [await freshNetwork(), await freshNetwork()]
    const runs: string[] = []
    async function payFive(target: Network) {
      runs.push('five')
      await pay(target, RECEIVER, 5n)
    }
    async function payNine(target: Network) {
      runs.push('nine')
      await pay(target, OTHER, 9n)
    }
    await loadFixture(a, payFive)
    await loadFixture(b, payFive)
    expect(runs).toEqual(['five', 'five'])
    expect(await balance(b, RECEIVER)).toBe(5n)
    await loadFixture(a, payNine) // on top of payFive's state
    expect(await balance(a, RECEIVER)).toBe(5n)
    expect(await balance(a, OTHER)).toBe(9n)
    expect(runs).toEqual(['five', 'five', 'nine'])
  })

  it('drops the fixtures loaded after the one it returns to: their snapshots are used up, so they run again', async () => {
    const network = await freshNetwork()
    const runs: string[] = []
    async function base(target: Network) {
      runs.push('base')
      await pay(target, RECEIVER, 1n)
    }
    async function extended(target: Network) {
      runs.push('extended')
      await loadFixture(target, base)
      await pay(target, OTHER, 2n)
    }
    await loadFixture(network, extended)
    expect(runs).toEqual(['extended', 'base'])
    await loadFixture(network, base)
    expect(await balance(network, OTHER)).toBe(0n)
    await loadFixture(network, extended)
    expect(runs).toEqual(['extended', 'base', 'extended'])
    expect(await balance(network, RECEIVER)).toBe(1n)
    expect(await balance(network, OTHER)).toBe(2n)
    // base was not run again by extended: it reverted to base's snapshot.
    await loadFixture(network, base)
    expect(runs).toEqual(['extended', 'base', 'extended'])
    expect(await balance(network, OTHER)).toBe(0n)
  })

  it('takes a devnet and hands it to the setup', async () => {
    const devnet = await startDevnet({ port: 0, nodes: 1, accounts: 1 })
    try {
      async function viaHttp(target: typeof devnet) {
        const res = await fetch(target.rpcUrl(), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [RECEIVER, '0x64'] }),
        })
        expect(res.status).toBe(200)
        return target.url
      }
      expect(await loadFixture(devnet, viaHttp)).toBe(devnet.url)
      await pay(devnet.network, RECEIVER, 1n)
      expect(await balance(devnet.network, RECEIVER)).toBe(101n)
      await loadFixture(devnet, viaHttp)
      expect(await balance(devnet.network, RECEIVER)).toBe(100n)
    } finally {
      await devnet.close()
    }
  })

  it('refuses an anonymous function, which would be a new fixture on every call', async () => {
    const network = await freshNetwork()
    await expect(loadFixture(network, async () => 1)).rejects.toThrow(FixtureAnonymousFunctionError)
    expect(await network.snapshot()).toBe(1n) // the refused call took no snapshot
  })

  it('reports a snapshot that a reset used up, and runs again after clearFixtures', async () => {
    const network = await freshNetwork()
    let runs = 0
    async function paid(target: Network) {
      runs++
      await pay(target, RECEIVER, 3n)
    }
    await loadFixture(network, paid)
    await network.reset()
    await expect(loadFixture(network, paid)).rejects.toThrow(FixtureSnapshotError)
    clearFixtures(network)
    await loadFixture(network, paid)
    expect(runs).toBe(2)
    expect(await balance(network, RECEIVER)).toBe(3n)
  })

  it('records nothing when the setup throws', async () => {
    const network = await freshNetwork()
    let runs = 0
    async function failing() {
      runs++
      throw new Error('setup failed')
    }
    await expect(loadFixture(network, failing)).rejects.toThrow('setup failed')
    await expect(loadFixture(network, failing)).rejects.toThrow('setup failed')
    expect(runs).toBe(2)
  })
})
