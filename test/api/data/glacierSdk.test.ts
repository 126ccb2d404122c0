/**
 * The hosted data API's own client, @avalabs/glacier-sdk 3.0.2, pointed at a devnet's `/v1`: it
 * must read chains, blocks, native transactions, ERC-20 transfers and validators, and page with
 * the tokens it gets back. (The SDK does not validate responses, so the test checks the data.)
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Glacier } from '@avalabs/glacier-sdk'
import { parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../../src/index.js'

const alice = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 0 })

describe('@avalabs/glacier-sdk against /v1', () => {
  let devnet: Devnet
  let glacier: Glacier
  beforeAll(async () => {
    // The SDK sends a key; a network refuses keys it was not given (401).
    devnet = await startDevnet({ port: 0, nodes: 2, node: { dataDir: 'test/.tmp/glacier-sdk' }, dataApi: { apiKeys: { 'test-key': 'free' } } })
    for (let nonce = 0; nonce < 5; nonce++) {
      const raw = await alice.signTransaction({ chainId: 43112, type: 'eip1559', nonce, to: '0x00000000000000000000000000000000000000cc', value: parseEther('1'), gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
      await fetch(devnet.rpcUrl('C'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }) })
    }
    glacier = new Glacier({ BASE: devnet.url, HEADERS: { 'x-data-api-key': 'test-key' } })
  })
  afterAll(async () => {
    await devnet.close()
    rmSync('test/.tmp/glacier-sdk', { recursive: true, force: true })
  })

  it('lists chains and pages blocks and native transactions with its own tokens', async () => {
    const chains = await glacier.evmChains.supportedChains({})
    expect(chains.chains.map((c) => c.chainId)).toEqual(['43112'])
    const info = await glacier.evmChains.getChainInfo({ chainId: '43112' })
    expect(info.platformChainId).toBe(devnet.network.preset.cChainId)

    const first = await glacier.evmBlocks.getLatestBlocks({ chainId: '43112', pageSize: 3 })
    expect(first.blocks.map((b) => b.blockNumber)).toEqual(['5', '4', '3'])
    const rest = await glacier.evmBlocks.getLatestBlocks({ chainId: '43112', pageSize: 3, pageToken: first.nextPageToken! })
    expect(rest.blocks.map((b) => b.blockNumber)).toEqual(['2', '1', '0'])

    const seen: string[] = []
    let token: string | undefined
    do {
      const page = await glacier.evmTransactions.listNativeTransactions({ chainId: '43112', address: alice.address, pageSize: 2, ...(token ? { pageToken: token } : {}) })
      seen.push(...page.transactions.map((t) => t.txHash))
      token = page.nextPageToken
    } while (token)
    expect(seen).toHaveLength(5)
    expect(new Set(seen).size).toBe(5)
  })

  it('lists primary-network validators, and a bad page size comes back as the SDK\'s ApiError with the body', async () => {
    const validators = await glacier.primaryNetwork.listValidators({ network: 'local' as never })
    expect(validators.validators.map((v) => v.nodeId).sort()).toEqual(devnet.network.nodes.map((n) => n.nodeId).sort())
    await expect(glacier.evmBlocks.getLatestBlocks({ chainId: '43112', pageSize: 101 })).rejects.toMatchObject({
      status: 400,
      body: { message: ['pageSize must not be greater than 100'], statusCode: 400, error: 'Bad Request' },
    })
  })
})
