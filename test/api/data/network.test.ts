import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { testGenesis } from '../../l1/helpers.js'

const alice = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 0 })

describe('/v1 on a running network', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, nodes: 2, l1s: [{ name: 'dex', genesis: testGenesis() }], node: { dataDir: 'test/.tmp/data-api' } })
    for (let nonce = 0; nonce < 3; nonce++) {
      const raw = await alice.signTransaction({ chainId: 43112, type: 'eip1559', nonce, to: '0x00000000000000000000000000000000000000cc', value: parseEther('1'), gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
      await fetch(devnet.rpcUrl('C'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }) })
    }
  })
  afterAll(async () => {
    await devnet.close()
    rmSync('test/.tmp/data-api', { recursive: true, force: true })
  })

  it('GET /v1/chains lists the C-chain and the L1, on every node', async () => {
    for (const node of devnet.nodes) {
      const body = (await (await fetch(`${node.url}/v1/chains`)).json()) as { chains: Array<Record<string, unknown>> }
      expect(body.chains.map((c) => c.chainId)).toEqual(['43112', '99999'])
      expect(body.chains[0]).toMatchObject({ chainName: 'C-Chain', platformChainId: devnet.network.preset.cChainId, rpcUrl: `${node.url}/ext/bc/${devnet.network.preset.cChainId}/rpc` })
    }
  })

  it('GET /v1/chains/{chainId}/blocks pages the indexed blocks newest first, with stable tokens', async () => {
    const first = (await (await fetch(`${devnet.url}/v1/chains/43112/blocks?pageSize=2`)).json()) as { blocks: Array<Record<string, unknown>>; nextPageToken?: string }
    expect(first.blocks.map((b) => b.blockNumber)).toEqual(['3', '2'])
    expect(first.blocks[0]).toMatchObject({ txCount: 1, cumulativeTransactions: '3', gasUsed: '21000' })
    expect(first.nextPageToken).toBeDefined()
    const second = (await (await fetch(`${devnet.url}/v1/chains/43112/blocks?pageSize=2&pageToken=${first.nextPageToken}`)).json()) as { blocks: Array<Record<string, unknown>>; nextPageToken?: string }
    expect(second.blocks.map((b) => b.blockNumber)).toEqual(['1', '0'])
    expect(second.nextPageToken).toBeUndefined()
    // After the chain goes back to block 1 and two empty blocks follow, the counts follow the new history.
    const rpc = (method: string, params: unknown[] = []) => fetch(devnet.rpcUrl('C'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    const cut = devnet.network.cChain.store.byNumber(1n)!
    await devnet.network.cChain.revert({ ...(await devnet.network.cChain.snapshot()), height: 1n, stateRoot: cut.block.header.stateRoot })
    await rpc('evm_mine')
    await rpc('evm_mine')
    const after = (await (await fetch(`${devnet.url}/v1/chains/43112/blocks?pageSize=3`)).json()) as { blocks: Array<Record<string, unknown>> }
    expect(after.blocks.map((b) => [b.blockNumber, b.txCount, b.cumulativeTransactions])).toEqual([['3', 0, '1'], ['2', 0, '1'], ['1', 1, '1']])
    const bad = await fetch(`${devnet.url}/v1/chains/43112/blocks?pageSize=101`)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ message: ['pageSize must not be greater than 100'], statusCode: 400, error: 'Bad Request' })
  })
})

describe('/v1 list operations on a running network', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, nodes: 2, node: { dataDir: 'test/.tmp/data-api-2' } })
    const raw = await alice.signTransaction({ chainId: 43112, type: 'eip1559', nonce: 0, to: '0x00000000000000000000000000000000000000cc', value: parseEther('1'), gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
    await fetch(devnet.rpcUrl('C'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }) })
  })
  afterAll(async () => {
    await devnet.close()
    rmSync('test/.tmp/data-api-2', { recursive: true, force: true })
  })

  it('transactions:listNative and /networks/{network}/validators answer on every node', async () => {
    for (const node of devnet.nodes) {
      const native = (await (await fetch(`${node.url}/v1/chains/43112/addresses/${alice.address}/transactions:listNative`)).json()) as { transactions: Array<Record<string, any>> }
      expect(native.transactions).toHaveLength(1)
      expect(native.transactions[0]!.value).toBe(parseEther('1').toString())
      const validators = (await (await fetch(`${node.url}/v1/networks/local/validators`)).json()) as { validators: Array<Record<string, any>> }
      expect(validators.validators.map((v) => v.nodeId).sort()).toEqual(devnet.network.nodes.map((n) => n.nodeId).sort())
    }
  })
})
