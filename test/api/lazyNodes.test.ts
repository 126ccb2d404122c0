/**
 * `startDevnet` binds every node at once but builds its fastify routes on its first request the
 * JSON-RPC fast path does not take (a faster cold start): whatever a node is asked first, right
 * after the start, it answers as an eagerly routed node does.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createPublicClient, http } from 'viem'
import { startDevnet, type Devnet } from '../../src/index.js'

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, nodeId: res.headers.get('node-id'), body: await res.text() }
}

describe('nodes asked first right after the start', () => {
  it('answer the EVM JSON-RPC, the node APIs, a 404 and /v1 as node 0 does', async () => {
    devnet = await startDevnet({ port: 0, nodes: 5, accounts: 2 })
    const node3 = devnet.nodes[3]!
    // Node APIs go through fastify's routes, which node 3 has not built yet.
    const info = await post(`${node3.url}/ext/info`, { jsonrpc: '2.0', id: 1, method: 'info.getNodeID' })
    expect(info.status).toBe(200)
    expect(info.nodeId).toBe(node3.nodeId)
    expect(JSON.parse(info.body).result.nodeID).toBe(node3.nodeId)
    const client = createPublicClient({ transport: http(`${node3.url}/ext/bc/C/rpc`) })
    expect(await client.getChainId()).toBe(43112)
    const missing = await fetch(`${devnet.nodes[4]!.url}/nowhere`)
    expect([missing.status, await missing.text()]).toEqual([404, '404 page not found\n'])
    const fromNode2 = await fetch(`${devnet.nodes[2]!.url}/v1/chains`)
    const fromNode0 = await fetch(`${devnet.nodes[0]!.url}/v1/chains`)
    expect(fromNode2.status).toBe(200)
    // Each node's /v1 gives its own URLs; the chains are the same.
    const chains = async (res: Response) => ((await res.json()) as { chains: { chainId: string; rpcUrl: string }[] }).chains
    const [two, zero] = [await chains(fromNode2), await chains(fromNode0)]
    expect(two.map((c) => c.chainId)).toEqual(zero.map((c) => c.chainId))
    expect(two[0]!.rpcUrl.startsWith(devnet.nodes[2]!.url)).toBe(true)
  })

  it('accept a WebSocket as their first request', async () => {
    devnet = await startDevnet({ port: 0, nodes: 3, accounts: 1 })
    const ws = new WebSocket(`${devnet.nodes[2]!.url.replace(/^http/, 'ws')}/ext/bc/C/ws`)
    const reply = await new Promise<string>((resolve, reject) => {
      ws.once('open', () => ws.send('{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}'))
      ws.once('message', (data) => resolve(String(data)))
      ws.once('error', reject)
    })
    expect(JSON.parse(reply)).toEqual({ jsonrpc: '2.0', id: 7, result: '0xa868' })
    ws.close()
  })

  it('serve node 0 before its routes are built, and route it on a later request', async () => {
    devnet = await startDevnet({ port: 0, nodes: 1, accounts: 1 })
    const chainId = await post(devnet.rpcUrl(), { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    expect(chainId).toEqual({ status: 200, nodeId: devnet.nodes[0]!.nodeId, body: '{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n' })
    const health = await fetch(`${devnet.url}/ext/health`)
    expect(health.status).toBe(200)
    expect(((await health.json()) as { healthy: boolean }).healthy).toBe(true)
  })

  it('release their ports on close when never asked', async () => {
    devnet = await startDevnet({ port: 0, nodes: 3, accounts: 1 })
    const apps = devnet.nodes.map((n) => n.server)
    const servers = apps.map((app) => app.server)
    expect(servers.every((s) => s.listening)).toBe(true)
    await devnet.close()
    devnet = undefined
    expect(servers.map((s) => s.listening)).toEqual([false, false, false])
    // Closed without building the routes no request needed.
    expect(apps.map((app) => app.routesStarted)).toEqual([false, false, false])
  })
})
