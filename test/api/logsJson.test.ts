/**
 * eth_getLogs and eth_getFilterLogs write their answers straight into bytes (`writeLogsJson`,
 * `JsonBytes`) instead of through JSON.stringify: over HTTP (the fast path and fastify's route) the
 * text must stay exactly what the generic encoder writes for the same logs, alone, with an id of
 * any JSON type, and inside a batch. Logs of every shape: no topics and no data, one topic and
 * data longer than a word, an ERC-20 Transfer's three topics. Through `fetch`.
 */
import { encodeDeployData, encodeFunctionData, parseEther, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevnet, type Devnet } from '../../src/index.js'
import { encodeJSON } from '../../src/rpc/dispatcher.js'
import { createEIP1193Provider, type EIP1193Provider } from '../../src/rpc/provider.js'
import { ERC20 } from '../fixtures/contracts/index.js'

/** Init code returning a runtime that emits LOG0 without data, then LOG1 (topic 0x2a) with 33 zero bytes. */
const LOGGER_INIT = '0x600d80600b6000396000f360006000a0602a60216000a100' as Hex

let devnet: Devnet
let provider: EIP1193Provider
let rpc: (method: string, params?: unknown[]) => Promise<any>
let token: Hex
let logger: Hex

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, nodes: 1, accounts: 2 })
  provider = createEIP1193Provider({ network: devnet.network })
  rpc = (method, params = []) => provider.request({ method, params }) as Promise<any>
  const [alice, bob] = devnet.network.devAccounts.map((a) => a.address)
  const deploy = async (data: Hex) => (await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from: alice, data }])])).contractAddress as Hex
  token = await deploy(encodeDeployData({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['T', 'T', parseEther('10')] }))
  logger = await deploy(LOGGER_INIT)
  for (let i = 1n; i <= 3n; i++) {
    await rpc('eth_sendTransaction', [{ from: alice, to: token, data: encodeFunctionData({ abi: ERC20.abi, functionName: 'transfer', args: [bob!, i] }) }])
    await rpc('eth_sendTransaction', [{ from: alice, to: logger }])
  }
})
afterAll(async () => {
  await devnet.close()
})

async function post(body: string, contentType = 'application/json'): Promise<{ text: string; length: number }> {
  const res = await fetch(devnet.rpcUrl(), { method: 'POST', headers: { 'content-type': contentType }, body })
  expect(res.status).toBe(200)
  const bytes = new Uint8Array(await res.arrayBuffer())
  expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
  return { text: new TextDecoder().decode(bytes), length: bytes.length }
}

const call = (id: unknown, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params })

describe('log answers written as bytes', () => {
  it('are the generic encoder\'s text: every log shape, ids of each JSON type, both HTTP paths', async () => {
    const filter = { fromBlock: '0x0', toBlock: 'latest' }
    const logs = await rpc('eth_getLogs', [filter])
    // Two deployments (the ERC-20 mints), three transfers and three calls of the logger (two logs each).
    expect(logs).toHaveLength(1 + 3 + 3 * 2)
    expect(logs.some((l: { topics: Hex[]; data: Hex }) => l.topics.length === 0 && l.data === '0x')).toBe(true)
    expect(logs.some((l: { topics: Hex[]; data: Hex }) => l.topics.length === 1 && l.data.length === 2 + 66)).toBe(true)
    for (const id of [1, 'ïd – “quoted” <&>', null, 1.5]) {
      for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
        const { text } = await post(JSON.stringify(call(id, 'eth_getLogs', [filter])), contentType)
        expect(text).toBe(`{"jsonrpc":"2.0","id":${encodeJSON(id)},"result":${encodeJSON(logs)}}\n`)
      }
    }
    const one = await rpc('eth_getLogs', [{ fromBlock: '0x1', address: logger, topics: [['0x' + '00'.repeat(31) + '2a']] }])
    expect(one).toHaveLength(3)
    expect((await post(JSON.stringify(call(7, 'eth_getLogs', [{ fromBlock: '0x1', address: logger, topics: ['0x' + '00'.repeat(31) + '2a'] }])))).text).toBe(
      `{"jsonrpc":"2.0","id":7,"result":${encodeJSON(one)}}\n`,
    )
    expect((await post(JSON.stringify(call(8, 'eth_getLogs', [{ address: '0x' + '00'.repeat(20) }])))).text).toBe('{"jsonrpc":"2.0","id":8,"result":[]}\n')
  })

  it('inside a batch, and from eth_getFilterLogs', async () => {
    const filter = { fromBlock: '0x0', address: token }
    const logs = await rpc('eth_getLogs', [filter])
    expect(logs).toHaveLength(4)
    const id = await rpc('eth_newFilter', [filter])
    const { text } = await post(JSON.stringify([call(1, 'eth_getLogs', [filter]), call('two', 'eth_chainId', []), call(3, 'eth_getFilterLogs', [id])]))
    expect(text).toBe(`[{"jsonrpc":"2.0","id":1,"result":${encodeJSON(logs)}},{"jsonrpc":"2.0","id":"two","result":"0xa868"},{"jsonrpc":"2.0","id":3,"result":${encodeJSON(logs)}}]\n`)
    expect((await post(JSON.stringify(call(4, 'eth_getFilterLogs', [id])))).text).toBe(`{"jsonrpc":"2.0","id":4,"result":${encodeJSON(logs)}}\n`)
  })

  it('fail as the handler does: an unknown block hash, a range past the head', async () => {
    for (const filter of [{ blockHash: '0x' + '11'.repeat(32) }, { fromBlock: '0x1', toBlock: '0xffff' }]) {
      const error = await rpc('eth_getLogs', [filter]).then(
        () => undefined,
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      )
      expect(error?.code).toBe(-32000)
      expect((await post(JSON.stringify(call(9, 'eth_getLogs', [filter])))).text).toBe(`{"jsonrpc":"2.0","id":9,"error":${JSON.stringify(error)}}\n`)
    }
  })
})
