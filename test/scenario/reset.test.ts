/**
 * Reset after heavy activity (issue 7): every EVM chain (head, state root, pool), the P-chain, the
 * X-chain, shared memory, the clock and the data API's answers (the indexers) are back to the
 * state the scenario left, hash for hash.
 */
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataRoutes } from '../../src/api/routes/data/index.js'
import { networkDataRoutes } from '../../src/api/routes/index.js'
import { formatAddress, hrpForNetworkId } from '../../src/core/address.js'
import type { Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { createScenarioNetwork, readScenario } from '../../src/scenario/index.js'

const AVAX = 1_000_000_000n
let network: Network
let app: ReturnType<typeof Fastify>

/** What must come back: chain heads and roots, pools, platform states, the clock, /v1 answers. */
async function fingerprint(): Promise<unknown> {
  const chains = await Promise.all(
    network.chains.map(async (chain) => ({
      alias: chain.alias,
      height: chain.store.height,
      head: chain.store.head.hash,
      root: Buffer.from(await chain.stateManager.getStateRoot()).toString('hex'),
      pool: chain.pool.all().map((t) => t.hash),
    })),
  )
  const pAddress = formatAddress('P', hrpForNetworkId(network.preset.networkId), network.wallets(0)!.address)
  const cId = String(network.cChain.chainId)
  const urls = [
    `/v1/chains/${cId}/blocks?pageSize=5`,
    `/v1/chains/${cId}/addresses/${network.devAccounts[1]!.address}/transactions?pageSize=20`,
    ...network.l1s.map((l1) => `/v1/chains/${l1.chain.chainId}/blocks?pageSize=5`),
    `/v1/networks/local/blockchains/p-chain/transactions?addresses=${pAddress}&pageSize=20`,
    '/v1/networks/local/validators?pageSize=20',
    '/v1/networks/local/l1Validators?pageSize=20',
  ]
  // Page tokens are cursors into the history, so equal answers mean equal tokens too.
  const answers = await Promise.all(urls.map(async (url) => (await app.inject({ method: 'GET', url })).body))
  return {
    chains,
    p: network.primary.pchain.serialize(),
    x: network.primary.xchain.serialize(),
    shared: network.primary.sharedMemory.serialize(),
    clock: network.clock.now(),
    faults: network.faults.list(),
    answers,
  }
}

beforeAll(async () => {
  ;({ network } = await createScenarioNetwork(await readScenario('scenarios/default.yaml')))
  app = Fastify()
  await app.register(dataRoutes, networkDataRoutes(network))
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await network.close()
})

describe('reset', () => {
  it('returns every chain, the platform and the indexers to the post-scenario state after heavy activity', async () => {
    const before = await fingerprint()
    // Heavy activity on every chain: C-chain and L1 transfers (one left pending), P-chain and
    // X-chain transactions, an atomic transfer, a new validator, a fault, and a day of time.
    const [alice, bob] = [network.devAccounts[1]!.address, network.devAccounts[2]!.address]
    const c = createEIP1193Provider({ network, chain: network.cChain })
    for (let i = 0; i < 30; i++) await c.request({ method: 'eth_sendTransaction', params: [{ from: alice, to: bob, value: '0x1' }] })
    const l1 = network.l1s[0]!
    const dex = createEIP1193Provider({ network, chain: l1.chain })
    for (let i = 0; i < 10; i++) await dex.request({ method: 'eth_sendTransaction', params: [{ from: alice, to: bob, value: '0x2' }] })
    await c.request({ method: 'evm_setAutomine', params: [false] })
    await c.request({ method: 'eth_sendTransaction', params: [{ from: alice, to: bob, value: '0x3' }] })
    const w = network.wallets(0)!
    w.p.send([{ address: network.wallets(3)!.address, amount: 2n * AVAX }])
    network.primary.xchain.issueTx(w.x.send([{ address: network.wallets(3)!.address, amount: 3n * AVAX }]))
    await network.transfer({ account: 0, from: 'X', to: 'P', amount: 5n * AVAX })
    const node = network.newValidatorIdentity()
    w.p.addValidator({ node, stake: 2_000n * AVAX, end: network.clock.now() + 30 * 24 * 3600, delegationFee: 20_000 })
    network.faults.disconnectNode(1)
    await network.advanceTime(24 * 3600)
    const during = await fingerprint()
    expect(during).not.toEqual(before)

    await network.reset()
    expect(await fingerprint()).toEqual(before)
    // And the network goes on from there: automine is back, and a new block builds on the scenario's head.
    await c.request({ method: 'eth_sendTransaction', params: [{ from: alice, to: bob, value: '0x4' }] })
    expect(network.cChain.store.height).toBe((before as { chains: { height: bigint }[] }).chains[0]!.height + 1n)
  })
})
