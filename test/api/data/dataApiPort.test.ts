import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../src/cli.js'
import { startDevnet, type Devnet } from '../../../src/index.js'

const rpc = (url: string, method: string, params: unknown[] = []) =>
  fetch(`${url}/ext/bc/C/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })

afterAll(() => {
  for (const dir of ['data-api-port', 'data-api-port-2', 'data-api-port-3', 'data-api-cli', 'data-api-cli-2']) rmSync(`test/.tmp/${dir}`, { recursive: true, force: true })
})

async function get(url: string, key?: string) {
  const res = await fetch(url, { headers: key === undefined ? {} : { 'x-data-api-key': key } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, remaining: res.headers.get('ratelimit-remaining') }
}

describe('startDevnet({ dataApi: { port } })', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, nodes: 2, node: { dataDir: 'test/.tmp/data-api-port' }, dataApi: { port: 0, apiKeys: { k: 'free' } } })
    for (let i = 0; i < 3; i++) await rpc(devnet.url, 'evm_mine')
  })
  afterAll(async () => {
    await devnet.close()
  })

  it('serves /v1 alone on its own port', async () => {
    expect(devnet.dataApiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(devnet.dataApiUrl).not.toBe(devnet.url)
    const chains = await get(`${devnet.dataApiUrl}/v1/chains`)
    expect(chains.status).toBe(200)
    expect((chains.body['chains'] as { chainId: string }[]).map((chain) => chain.chainId)).toEqual(['43112'])
    const doc = await get(`${devnet.dataApiUrl}/v1/openapi.json`)
    expect(doc.body['servers']).toEqual([{ url: devnet.dataApiUrl }])
    // The same operations as a node's /v1.
    expect(Object.keys(doc.body['paths'] as object)).toEqual(Object.keys((await get(`${devnet.url}/v1/openapi.json`)).body['paths'] as object))
    // Only /v1: no node APIs, no JSON-RPC.
    const miss = await rpc(devnet.dataApiUrl!, 'eth_chainId')
    expect(miss.status).toBe(404)
    expect(await miss.json()).toEqual({ message: 'Cannot POST /ext/bc/C/rpc', statusCode: 404, error: 'Not Found' })
  })

  it('takes page tokens from the nodes and gives tokens the nodes take', async () => {
    const first = await get(`${devnet.nodes[1]!.url}/v1/chains/43112/blocks?pageSize=1`)
    const token = first.body['nextPageToken'] as string
    expect(typeof token).toBe('string')
    const second = await get(`${devnet.dataApiUrl}/v1/chains/43112/blocks?pageSize=1&pageToken=${token}`)
    expect(second.status).toBe(200)
    const third = await get(`${devnet.url}/v1/chains/43112/blocks?pageSize=1&pageToken=${second.body['nextPageToken'] as string}`)
    expect(third.status).toBe(200)
    const numbers = [first, second, third].map((page) => (page.body['blocks'] as { blockNumber: string }[])[0]!.blockNumber)
    expect(numbers).toEqual(['3', '2', '1'])
  })

  it('spends one budget per key across every node and the data port', async () => {
    const start = Number((await get(`${devnet.dataApiUrl}/v1/chains`, 'k')).remaining)
    expect((await get(`${devnet.url}/v1/chains`, 'k')).remaining).toBe(String(start - 1))
    expect((await get(`${devnet.nodes[1]!.url}/v1/chains/43112/blocks`, 'k')).remaining).toBe(String(start - 11))
    expect((await get(`${devnet.dataApiUrl}/v1/chains/43112`, 'k')).remaining).toBe(String(start - 12))
    expect((await get(`${devnet.dataApiUrl}/v1/chains`, 'unknown')).status).toBe(401)
  })

  it('is closed by close()', async () => {
    const other = await startDevnet({ port: 0, nodes: 1, node: { dataDir: 'test/.tmp/data-api-port-2' }, dataApi: { port: 0 } })
    const url = other.dataApiUrl!
    expect((await get(`${url}/v1/chains`)).status).toBe(200)
    await other.close()
    await expect(fetch(`${url}/v1/chains`)).rejects.toThrow()
  })

  it('is absent unless asked for', async () => {
    const other = await startDevnet({ port: 0, nodes: 1, node: { dataDir: 'test/.tmp/data-api-port-3' } })
    try {
      expect(other.dataApiUrl).toBeUndefined()
      expect('dataApiUrl' in other).toBe(false)
    } finally {
      await other.close()
    }
  })
})

describe('l1sim start --data-api-port', () => {
  const capture = () => ({ text: '', write(chunk: string) { this.text += chunk } })

  it('starts the data API on its own port and prints it', async () => {
    const stdout = capture()
    const result = await runCli(['start', '--port', '0', '--nodes', '1', '--data-api-port', '0', '--data-dir', 'test/.tmp/data-api-cli'], { stdout, stderr: capture() })
    try {
      expect(result.exitCode).toBe(0)
      const { dataApiUrl } = result.devnet!
      expect(dataApiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(stdout.text).toContain(`Data API:          ${dataApiUrl}/v1 (docs: /v1/docs)`)
      expect((await get(`${dataApiUrl}/v1/chains`)).status).toBe(200)
    } finally {
      await result.devnet?.close()
    }
  })

  it('prints /v1 on the node port without it, and refuses a bad port', async () => {
    const stdout = capture()
    const result = await runCli(['start', '--port', '0', '--nodes', '1', '--data-dir', 'test/.tmp/data-api-cli-2'], { stdout, stderr: capture() })
    try {
      expect(stdout.text).toContain(`Data API:          ${result.devnet!.url}/v1 (docs: /v1/docs)`)
    } finally {
      await result.devnet?.close()
    }
    const stderr = capture()
    expect((await runCli(['start', '--data-api-port', '70000'], { stdout: capture(), stderr })).exitCode).toBe(2)
    expect(stderr.text).toMatch(/^l1sim: --data-api-port must be a whole number from 0 to 65535, got "70000"\n/)
  })
})
