import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { createServer, type L1simServer } from '../../src/api/server.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { inspectSnapshot, loadNetwork, saveNetwork } from '../../src/snapshot/index.js'
import { SUBNET_EVM_ID } from '../../src/network/version.js'
import { ERC20 } from '../fixtures/contracts/index.js'
import { testGenesis } from '../l1/helpers.js'
import { deploy, tempDir, transfer, withoutMeasurements } from './helpers.js'

const AVAX = 1_000_000_000n
const BOB: Hex = '0x00000000000000000000000000000000000b0b00'
const GHOST: Hex = '0x00000000000000000000000000000000000fee00'
const tmp = tempDir('roundtrip')
const file = `${tmp.dir}/net.l1sim`

let original: Network
let loaded: Network
let token: Hex
let gameSubnet: string

/** Both networks, each with one server per node (in-process: fastify inject). */
const servers = new Map<Network, L1simServer[]>()
async function serversOf(network: Network): Promise<L1simServer[]> {
  let list = servers.get(network)
  if (!list) {
    list = network.nodes.map((node) => createServer({ network, node }))
    for (const s of list) await s.ready()
    servers.set(network, list)
  }
  return list
}
async function get(network: Network, url: string, node = 0): Promise<{ status: number; body: unknown }> {
  const res = await (await serversOf(network))[node]!.inject({ method: 'GET', url })
  const body = url.startsWith('/ext/health') ? withoutMeasurements(res.body) : JSON.parse(res.body, (key, value) => (key === 'nextPageToken' ? 'token' : value))
  return { status: res.statusCode, body }
}
const rpc = (network: Network, chain: string, method: string, params: unknown[] = []) =>
  createEIP1193Provider({ network, chain: network.chain(chain)! }).request({ method, params })

beforeAll(async () => {
  original = await createNetwork({ nodes: 3, l1s: [{ name: 'dex', genesis: testGenesis() }], node: { dataDir: `${tmp.dir}/data` } })
  const n = original
  const alice = n.devAccounts[0]!.address
  // C-chain: transfers, an ERC-20 with a transfer, its ABI registered for the data API's method names.
  await transfer(n, n.cChain, 0, BOB, 10n ** 18n)
  token = await deploy(n, n.cChain, 0, encodeDeployData({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', 1000n] }))
  n.registerAbi(ERC20.abi)
  await rpc(n, 'C', 'eth_sendTransaction', [{ from: alice, to: token, data: encodeFunctionData({ abi: ERC20.abi, functionName: 'transfer', args: [BOB, 10n] }) }])
  // An impersonated sender: its transactions carry a stand-in signature.
  await rpc(n, 'C', 'anvil_setBalance', [GHOST, '0xde0b6b3a7640000'])
  await rpc(n, 'C', 'anvil_impersonateAccount', [GHOST])
  await rpc(n, 'C', 'eth_sendTransaction', [{ from: GHOST, to: BOB, value: '0x5' }])
  // The option L1.
  await transfer(n, n.l1('dex')!.chain, 1, BOB, 7n)
  // P and X: atomic transfers, a subnet with a subnet-EVM chain the P-chain starts.
  await n.transfer({ from: 'X', to: 'P', amount: 50n * AVAX, account: 0 })
  await n.transfer({ from: 'C', to: 'X', amount: 3n * AVAX, account: 1 })
  const w = n.wallets(0)!
  const { subnetId } = w.p.createSubnet()
  const { blockchainId } = w.p.createChain({ subnetId, name: 'game', vmId: SUBNET_EVM_ID, genesis: JSON.stringify(testGenesis({ chainId: 77777 })) })
  await n.startChainFromP(blockchainId)
  await transfer(n, n.l1('game')!.chain, 2, BOB, 3n)
  // Converted to an L1 whose second validator runs out of balance (10 s at 1 nAVAX/s) before the save: inactive.
  w.p.convertSubnetToL1({
    subnetId, chainId: blockchainId, address: '0x0000000000000000000000000000000000000abc',
    validators: [{ node: n.nodes[0]!.identity, weight: 100n, balance: AVAX }, { node: n.nodes[1]!.identity, weight: 100n, balance: 10n }],
  })
  gameSubnet = subnetId
  // Pending: the dex chain stops automining and holds a transaction in its pool.
  await rpc(n, 'dex', 'evm_setAutomine', [false])
  await rpc(n, 'dex', 'eth_sendTransaction', [{ from: n.devAccounts[3]!.address, to: BOB, value: '0x9' }])
  // Node admin state and faults, then time for the health checks to see them.
  n.nodes[1]!.aliases.aliasChain('C', 'cee')
  n.nodes[1]!.loggers.setLogLevel('C', 'DEBUG')
  n.newValidatorIdentity()
  n.faults.disconnectNode(2)
  await n.advanceTime(65)

  await saveNetwork(original, file)
  loaded = await loadNetwork(file, { node: { dataDir: `${tmp.dir}/data-loaded` } })
})

afterAll(async () => {
  for (const list of servers.values()) for (const s of list) await s.close()
  await original?.close()
  await loaded?.close()
  tmp.cleanup()
})

/** What must read the same on both networks: chain heads, P/X state, data API and health answers. */
async function expectSameAnswers(): Promise<void> {
  for (const [i, chain] of original.chains.entries()) expect(loaded.chains[i]!.head.hash).toBe(chain.head.hash)
  expect(loaded.primary.pchain.serialize()).toBe(original.primary.pchain.serialize())
  expect(loaded.primary.xchain.serialize()).toBe(original.primary.xchain.serialize())
  expect(loaded.primary.sharedMemory.serialize()).toBe(original.primary.sharedMemory.serialize())
  expect(loaded.clock.nowMs()).toBe(original.clock.nowMs())
  // The registry keeps inactive L1 validators, marked, and each node's uptime view of them.
  const set = (n: Network) => n.validators.current(gameSubnet).map((v) => ({ nodeId: v.nodeId, weight: v.weight, isActive: v.isActive }))
  expect(set(original).find((v) => v.nodeId === original.nodes[1]!.nodeId)).toMatchObject({ weight: 100n, isActive: false })
  expect(set(loaded)).toEqual(set(original))
  expect(loaded.uptime.snapshot()).toEqual(original.uptime.snapshot())
  const c = String(original.cChain.chainId)
  const alice = original.devAccounts[0]!.address
  const urls = [
    `/v1/chains/${c}/blocks`,
    `/v1/chains/${c}/addresses/${alice}/transactions:listNative`,
    `/v1/chains/${c}/addresses/${alice}/transactions`,
    `/v1/chains/${c}/tokens/${token}/transfers`,
    `/v1/chains/${original.l1('game')!.chain.chainId}/blocks`,
    '/v1/networks/local/validators',
    `/v1/networks/local/blockchains/${original.preset.pChainId}/transactions`,
    `/v1/networks/local/blockchains/${original.preset.xChainId}/transactions`,
    '/ext/health',
    '/ext/health/readiness',
    '/ext/health/liveness',
  ]
  for (const url of urls)
    for (const node of [0, 2]) {
      const want = await get(original, url, node)
      expect(want.status, url).toBeLessThan(url.startsWith('/ext/health') ? 600 : 300)
      expect(await get(loaded, url, node), url).toEqual(want)
    }
  const levels = (n: Network) => n.nodes[1]!.loggers.levels(['C', 'P'])
  expect(levels(loaded)).toEqual(levels(original))
  expect(loaded.nodes[1]!.lookupChain('cee')).toBe(original.preset.cChainId)
  expect(loaded.nodes[0]!.lookupChain('cee')).toBeUndefined()
}

describe('save → load → continue', () => {
  it('answers as the original did', async () => {
    expect(loaded.chains.map((c) => c.alias)).toEqual(['C', 'dex', 'game'])
    expect(loaded.chains.map((c) => c.store.height)).toEqual(original.chains.map((c) => c.store.height))
    expect(loaded.l1('dex')!.chain.pool.size).toBe(1)
    await expectSameAnswers()
  })

  it('continues with the same blocks, state and answers', async () => {
    for (const n of [original, loaded]) {
      await rpc(n, 'dex', 'evm_mine')
      await transfer(n, n.cChain, 4, BOB, 11n)
      await rpc(n, 'C', 'eth_sendTransaction', [{ from: GHOST, to: BOB, value: '0x6' }])
      await transfer(n, n.l1('game')!.chain, 2, BOB, 13n)
      await n.transfer({ from: 'P', to: 'X', amount: 2n * AVAX, account: 0 })
      n.faults.connectNode(2)
      await n.advanceTime(95)
    }
    expect(loaded.newValidatorIdentity().nodeId).toBe(original.newValidatorIdentity().nodeId)
    await expectSameAnswers()
    // The trie's history came along: state at an early block reads the same.
    const early = '0x2'
    expect(await rpc(loaded, 'C', 'eth_getBalance', [BOB, early])).toBe(await rpc(original, 'C', 'eth_getBalance', [BOB, early]))
  })

  it('resets to the state it was loaded at', async () => {
    const height = (await inspectSnapshot(file)).chains.find((c) => c.name === 'C')!.height
    await loaded.reset()
    expect(loaded.cChain.store.height).toBe(BigInt(height))
  })
})

describe('inspectSnapshot', () => {
  it('reads the header without loading', async () => {
    const info = await inspectSnapshot(file)
    expect(info).toMatchObject({ formatVersion: 3, l1simVersion: '0.1.0', preset: 'local', networkId: 12345, nodes: 3, checksumOk: true })
    expect(info.chains.map((c) => [c.name, c.kind])).toEqual([['P', 'platform'], ['X', 'avm'], ['C', 'evm'], ['dex', 'evm'], ['game', 'evm']])
    expect(info.chains.find((c) => c.name === 'dex')!.height).toBeGreaterThan(0)
    expect(info.sizes.file).toBe(info.sizes.header + info.sizes.payload + 56)
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/)
  })
})
