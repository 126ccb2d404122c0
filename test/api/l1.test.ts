import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startDevnet, type Devnet } from '../../src/index.js'
import { testGenesis } from '../l1/helpers.js'

describe('an L1 over HTTP and WebSocket', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, l1s: [{ name: 'dex', genesis: testGenesis() }] })
  })
  afterAll(() => devnet.close())

  const rpc = async (path: string, method: string, params: unknown[] = []) => {
    const res = await fetch(`${devnet.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    return { status: res.status, body: await res.text() }
  }

  it('answers at /ext/bc/<blockchainID>/rpc and at its alias, with its own chain id', async () => {
    const l1 = devnet.network.l1s[0]!
    for (const chain of [l1.blockchainId, 'dex']) {
      const { status, body } = await rpc(`/ext/bc/${chain}/rpc`, 'eth_chainId')
      expect(status).toBe(200)
      expect(JSON.parse(body).result).toBe('0x1869f')
    }
    expect(devnet.rpcUrl('dex')).toBe(`${devnet.url}/ext/bc/dex/rpc`)
    expect(JSON.parse((await rpc('/ext/bc/C/rpc', 'eth_chainId')).body).result).toBe('0xa868')
  })

  it('an unknown chain is a 404 as the node mux answers it', async () => {
    const { status, body } = await rpc('/ext/bc/nope/rpc', 'eth_chainId')
    expect(status).toBe(404)
    expect(body).toBe('404 page not found\n')
  })

  it('serves eth_subscribe on the L1 WebSocket', async () => {
    const socket = new WebSocket(devnet.wsUrl('dex'))
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    const next = () => new Promise<Record<string, unknown>>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))))
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    const sub = await next()
    expect(typeof sub.result).toBe('string')
    const head = next()
    await rpc('/ext/bc/dex/rpc', 'evm_mine')
    const notification = (await head) as { params: { result: Record<string, string> } }
    expect(notification.params.result.number).toBe('0x1')
    expect(notification.params.result.blockGasCost).toBe('0x0')
    socket.close()
  })
})
