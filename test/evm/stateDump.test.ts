import { gunzipSync, gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem'
import type { Hex } from '../../src/core/hex.js'
import { dumpState, loadState, type StateDumpJson } from '../../src/evm/stateDump.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEthDispatcher } from '../../src/rpc/dispatcher.js'
import { createEthMethods } from '../../src/rpc/methods/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const dispatcher = createEthDispatcher({ methods: createEthMethods() })
const networks: Network[] = []

async function open(options: Parameters<typeof createNetwork>[0] = {}) {
  const network = await createNetwork(options)
  networks.push(network)
  const ctx = { network, chain: network.cChain }
  const rpc = async (method: string, params: unknown[] = []) =>
    JSON.parse((await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), ctx))!) as {
      result?: any
      error?: { code: number; message: string }
    }
  const ok = async (method: string, params: unknown[] = []) => {
    const res = await rpc(method, params)
    expect(res.error, `${method} failed`).toBeUndefined()
    return res.result
  }
  return { network, chain: network.cChain, rpc, ok }
}

afterEach(async () => {
  for (const n of networks.splice(0)) await n.close()
})

const abi = ERC20.abi as Abi
const SLOT = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const CODE_ONLY: Hex = '0x00000000000000000000000000000000000c0de0'
const STORAGE_HEAVY: Hex = '0x00000000000000000000000000000000005107a6'

/** A state with a deployed contract, transfers, cheat-code storage and code: everything a dump must carry. */
async function buildState(node: Awaited<ReturnType<typeof open>>) {
  const [alice, bob, carol] = node.network.devAccounts.map((a) => a.address.toLowerCase() as Hex)
  const deployHash = await node.ok('eth_sendTransaction', [
    { from: alice, data: encodeDeployData({ abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TKN', 10n ** 24n] }) },
  ])
  const token = (await node.ok('eth_getTransactionReceipt', [deployHash])).contractAddress as Hex
  await node.ok('eth_sendTransaction', [{ from: alice, to: token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [bob, 12345n] }) }])
  await node.ok('eth_sendTransaction', [{ from: alice, to: token, data: encodeFunctionData({ abi, functionName: 'approve', args: [carol, 77n] }) }])
  await node.ok('eth_sendTransaction', [{ from: bob, to: carol, value: '0xde0b6b3a7640000' }])
  await node.ok('eth_sendTransaction', [{ from: carol, to: '0x00000000000000000000000000000000000000ee', value: '0x1' }])
  await node.ok('anvil_setCode', [CODE_ONLY, '0x6001600055'])
  await node.ok('anvil_setNonce', [CODE_ONLY, '0x7'])
  // Many small slots: a deep storage trie whose short leaves are embedded in their parents.
  await node.ok('anvil_setCode', [STORAGE_HEAVY, '0x00'])
  for (let i = 0; i < 300; i++) await node.ok('anvil_setStorageAt', [STORAGE_HEAVY, SLOT(i), SLOT(i % 7 === 0 ? 0 : i + 1)])
  await node.ok('anvil_setBalance', [STORAGE_HEAVY, '0x3039'])
  return { token, accounts: [alice!, bob!, carol!, token, CODE_ONLY, STORAGE_HEAVY, '0x00000000000000000000000000000000000000ee' as Hex, '0x0100000000000000000000000000000000000000' as Hex] }
}

async function readAccounts(node: Awaited<ReturnType<typeof open>>, accounts: Hex[], slots: string[]) {
  const out: Record<string, unknown> = {}
  for (const a of accounts) {
    out[a] = {
      balance: await node.ok('eth_getBalance', [a, 'latest']),
      nonce: await node.ok('eth_getTransactionCount', [a, 'latest']),
      code: await node.ok('eth_getCode', [a, 'latest']),
      storage: await Promise.all(slots.map((s) => node.ok('eth_getStorageAt', [a, s, 'latest']))),
    }
  }
  return out
}

const SLOTS = [SLOT(0), SLOT(1), SLOT(2), SLOT(3), SLOT(5), SLOT(7), SLOT(150), SLOT(299)]

describe('state dump and load', () => {
  it('a dump loaded into a fresh network gives the same accounts, code, storage and state root', async () => {
    const source = await open()
    const { token, accounts } = await buildState(source)
    const dumped = await source.ok('anvil_dumpState')
    expect(dumped).toMatch(/^0x1f8b/) // gzip magic, as anvil returns it
    const json = JSON.parse(gunzipSync(Buffer.from(dumped.slice(2), 'hex')).toString()) as StateDumpJson
    expect(json).toMatchObject({ version: 1, chainId: '0xa868', blockNumber: '0x5' })
    expect(json.accounts).toBe(27) // 20 dev accounts, ewoq (the local genesis'), the warp precompile's (activated at Durango), the token, two cheat-code accounts, 0x…ee and the fee coinbase

    const target = await open()
    await target.ok('evm_mine')
    const before = await target.chain.stateManager.getStateRoot()
    expect(await target.ok('anvil_loadState', [dumped])).toBe(true)
    expect(await target.chain.stateManager.getStateRoot()).toEqual(await source.chain.stateManager.getStateRoot())
    expect(await target.chain.stateManager.getStateRoot()).not.toEqual(before)
    expect(await readAccounts(target, accounts, SLOTS)).toEqual(await readAccounts(source, accounts, SLOTS))
    // Only the state moved: the target keeps its own (empty) chain and its history.
    expect(await target.ok('eth_blockNumber')).toBe('0x1')
    expect(await target.ok('eth_getCode', [CODE_ONLY, '0x0'])).toBe('0x')
    expect(await target.ok('eth_getCode', [CODE_ONLY, 'latest'])).toBe('0x6001600055')

    // The loaded contract runs, and the chain goes on from the loaded state.
    const balanceOf = (who: Hex) => ({ to: token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [who] }) })
    const [alice, bob] = accounts
    expect(BigInt(await target.ok('eth_call', [balanceOf(bob!), 'latest']))).toBe(12345n)
    await target.ok('eth_sendTransaction', [{ from: bob, to: token, data: encodeFunctionData({ abi, functionName: 'transfer', args: [alice, 45n] }) }])
    expect(BigInt(await target.ok('eth_call', [balanceOf(bob!), 'latest']))).toBe(12300n)
    expect(await target.ok('eth_getTransactionCount', [bob, 'latest'])).toBe('0x2')
  })

  it('dumps round-trip through the evm functions, and an empty-storage state dumps too', async () => {
    const source = await open()
    const dump = await dumpState(source.chain)
    const target = await open({ accounts: 1 })
    await loadState(target.chain, dump)
    expect(await target.chain.stateManager.getStateRoot()).toEqual(await source.chain.stateManager.getStateRoot())
    expect(await target.ok('eth_getBalance', [source.network.devAccounts[19]!.address, 'latest'])).toBe('0x21e19e0c9bab2400000')
  })

  it('drops pool transactions whose nonce the loaded state has passed', async () => {
    const source = await open()
    const [alice] = source.network.devAccounts.map((a) => a.address.toLowerCase() as Hex)
    await source.ok('eth_sendTransaction', [{ from: alice, to: alice, value: '0x1' }])
    const dump = await source.ok('anvil_dumpState')
    const target = await open()
    await target.ok('evm_setAutomine', [false])
    await target.ok('eth_sendTransaction', [{ from: alice, to: alice, value: '0x2' }])
    expect(await target.ok('txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
    await target.ok('anvil_loadState', [dump])
    expect(await target.ok('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
  })

  describe('refuses a corrupt or foreign dump and changes nothing', () => {
    const cases: [string, (good: StateDumpJson) => Uint8Array | string, RegExp | string][] = [
      ['not gzip', () => '0xdeadbeef', 'invalid state dump: not gzip data'],
      ['gzip of text', () => gzipSync('hello'), 'invalid state dump: not JSON'],
      ['a JSON array', () => gzipSync('[]'), 'invalid state dump: not a JSON object'],
      ['an anvil-style dump', () => gzipSync(JSON.stringify({ block: {}, accounts: {} })), 'invalid state dump: unsupported version null, expected 1'],
      ['another version', (g) => gzipSync(JSON.stringify({ ...g, version: 2 })), 'invalid state dump: unsupported version 2, expected 1'],
      ['another chain id', (g) => gzipSync(JSON.stringify({ ...g, chainId: '0xa869' })), 'invalid state dump: dumped from chain id 43113, this chain is 43112'],
      ['a missing trie node', (g) => gzipSync(JSON.stringify({ ...g, nodes: g.nodes.slice(1) })), /^invalid state dump: missing trie node 0x[0-9a-f]{64}$/],
      ['a missing storage node', (g) => gzipSync(JSON.stringify({ ...g, nodes: g.nodes.slice(0, -1) })), /^invalid state dump: missing trie node 0x[0-9a-f]{64}$/],
      ['missing code', (g) => gzipSync(JSON.stringify({ ...g, code: [] })), /^invalid state dump: missing code 0x[0-9a-f]{64}$/],
      ['a bad root', (g) => gzipSync(JSON.stringify({ ...g, stateRoot: '0x12' })), 'invalid state dump: stateRoot missing'],
      ['non-hex nodes', (g) => gzipSync(JSON.stringify({ ...g, nodes: ['0xzz'] })), 'invalid state dump: nodes must be hex strings'],
    ]
    for (const [name, make, message] of cases) {
      it(name, async () => {
        const source = await open()
        await buildState(source)
        const good = JSON.parse(gunzipSync(await dumpState(source.chain)).toString()) as StateDumpJson
        const target = await open()
        const alice = target.network.devAccounts[0]!.address
        await target.ok('eth_sendTransaction', [{ from: alice, to: '0x00000000000000000000000000000000000000aa', value: '0x5' }])
        const root = await target.chain.stateManager.getStateRoot()
        const balance = await target.ok('eth_getBalance', [alice, 'latest'])
        const made = make(good)
        const param = typeof made === 'string' ? made : `0x${Buffer.from(made).toString('hex')}`
        const res = await target.rpc('anvil_loadState', [param])
        expect(res.error?.code).toBe(-32602)
        if (typeof message === 'string') expect(res.error?.message).toBe(message)
        else expect(res.error?.message).toMatch(message)
        expect(await target.chain.stateManager.getStateRoot()).toEqual(root)
        expect(await target.ok('eth_getBalance', [alice, 'latest'])).toBe(balance)
        expect(await target.ok('eth_getTransactionCount', [alice, 'latest'])).toBe('0x1')
        expect(await target.ok('eth_getBalance', ['0x00000000000000000000000000000000000000aa', 'latest'])).toBe('0x5')
        expect(await target.ok('eth_blockNumber')).toBe('0x1')
      })
    }
  })

  it('is served under hardhat_ names too, and refuses a non-hex argument as geth would', async () => {
    const node = await open()
    const dump = await node.ok('hardhat_dumpState')
    expect(await node.ok('hardhat_loadState', [dump])).toBe(true)
    expect(await node.rpc('anvil_loadState', ['zz'])).toMatchObject({
      error: { code: -32602, message: 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes' },
    })
  })
})
