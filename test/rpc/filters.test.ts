import { describe, expect, it } from 'vitest'
import { encodeDeployData, encodeFunctionData, parseEther, type Hex } from 'viem'
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
    expect(await rpc('eth_getFilterLogs', [logs])).toHaveLength(2)

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
})
