import { describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, encodeDeployData, encodeFunctionData, getContract, parseAbiItem, parseEther, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createNetwork } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { ERC20 } from '../fixtures/contracts/index.js'

async function setup() {
  const network = await createNetwork()
  const provider = createEIP1193Provider({ network })
  const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<any>
  const [alice, bob] = network.devAccounts.map((a) => a.address)
  return { network, rpc, alice: alice!, bob: bob! }
}

describe('polling filters', () => {
  it('block, pending-transaction and log filters report what arrived since the last poll', async () => {
    const { rpc, alice, bob } = await setup()
    const blocks = await rpc('eth_newBlockFilter')
    const pending = await rpc('eth_newPendingTransactionFilter')
    expect(blocks).toMatch(/^0x[1-9a-f][0-9a-f]*$/)
    const deploy = await rpc('eth_sendTransaction', [{ from: alice, data: encodeDeployData({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['T', 'T', parseEther('10')] }) }])
    const token = (await rpc('eth_getTransactionReceipt', [deploy])).contractAddress
    const logs = await rpc('eth_newFilter', [{ address: token, topics: [[null, '0x' + '00'.repeat(32)]] }])
    const transfer = await rpc('eth_sendTransaction', [{ from: alice, to: token, data: encodeFunctionData({ abi: ERC20.abi, functionName: 'transfer', args: [bob, 1n] }) }])

    const blockHashes = await rpc('eth_getFilterChanges', [blocks])
    expect(blockHashes).toHaveLength(2)
    expect(await rpc('eth_getFilterChanges', [blocks])).toEqual([])
    expect(await rpc('eth_getFilterChanges', [pending])).toEqual([deploy, transfer])
    // A null among a position's alternatives makes the position match anything (coreth).
    const changes = await rpc('eth_getFilterChanges', [logs])
    expect(changes.map((l: { transactionHash: string }) => l.transactionHash)).toEqual([transfer])
    // No range: coreth's GetFilterLogs reads latest..latest, the transfer's block only.
    expect((await rpc('eth_getFilterLogs', [logs])).map((l: { transactionHash: string }) => l.transactionHash)).toEqual([transfer])

    expect(await rpc('eth_uninstallFilter', [blocks])).toBe(true)
    expect(await rpc('eth_uninstallFilter', [blocks])).toBe(false)
    await expect(rpc('eth_getFilterChanges', [blocks])).rejects.toMatchObject({ code: -32000, message: 'filter not found' })
  })

  it('a filter not polled for 5 minutes of network time is removed', async () => {
    const { network, rpc } = await setup()
    const id = await rpc('eth_newBlockFilter')
    await network.advanceTime(301)
    await expect(rpc('eth_getFilterChanges', [id])).rejects.toMatchObject({ code: -32000, message: 'filter not found' })
  })

  it('a log filter keeps its block range: eth_getFilterLogs reads it, eth_getFilterChanges drops new logs past it (viem)', async () => {
    const { network } = await setup()
    const provider = createEIP1193Provider({ network })
    const client = createPublicClient({ transport: custom(provider) })
    const account = privateKeyToAccount(network.devAccounts[0]!.privateKey)
    const wallet = createWalletClient({ account, chain: { id: await client.getChainId(), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [] } } }, transport: custom(provider) })
    const deploy = await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['T', 'T', parseEther('10')] })
    const address = (await client.getTransactionReceipt({ hash: deploy })).contractAddress!
    const token = getContract({ address, abi: ERC20.abi, client: { public: client, wallet } })
    const bob = network.devAccounts[1]!.address as Hex
    const heights: bigint[] = []
    for (let i = 1n; i <= 3n; i++) {
      const hash = await token.write.transfer([bob, i])
      heights.push((await client.getTransactionReceipt({ hash })).blockNumber)
    }
    const event = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
    const middle = await client.createEventFilter({ address, event, fromBlock: heights[1], toBlock: heights[1] })
    const fromSecond = await client.createEventFilter({ address, event, fromBlock: heights[1] })
    const values = (logs: { args: { value?: bigint } }[]) => logs.map((l) => l.args.value)
    expect(values(await client.getFilterLogs({ filter: middle }))).toEqual([2n])
    expect(values(await client.getFilterLogs({ filter: fromSecond }))).toEqual([2n, 3n])

    await token.write.transfer([bob, 4n])
    expect(await client.getFilterChanges({ filter: middle })).toEqual([])
    expect(values(await client.getFilterChanges({ filter: fromSecond }))).toEqual([4n])
    // From past the head to a block before it: coreth refuses the combination when the filter is made.
    await expect(provider.request({ method: 'eth_newFilter', params: [{ fromBlock: '0x5', toBlock: '0x4' }] })).rejects.toMatchObject({
      code: -32000,
      message: 'invalid from and to block combination: from > to',
    })
  })
})
