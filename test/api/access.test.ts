/**
 * Who may drive a running devnet, over real sockets with node:http (fetch cannot set Host): the
 * Host filter of avalanchego's `api/server` (`--http-allowed-hosts`, 403 `invalid host specified`,
 * DNS rebinding) on every path — the JSON-RPC fast path, fastify's routes, /ext/sim, the
 * WebSocket upgrade, the data API's own port — and CORS with the allowed origins (never
 * credentials with a wildcard origin), which also gate the WebSocket handshake.
 */
import { randomBytes } from 'node:crypto'
import { request, type IncomingHttpHeaders } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createNetwork, createServer, startDevnet, type Devnet, type DevnetOptions } from '../../src/index.js'

const CHAIN_ID_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
const FORBIDDEN_HOST = 'invalid host specified\n'
const RECEIVER = '0x000000000000000000000000000000000000bEEF'

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

async function start(options: DevnetOptions = {}): Promise<Devnet> {
  devnet = await startDevnet({ port: 0, nodes: 1, accounts: 1, ...options })
  return devnet
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: string }

/** One HTTP request with exactly these headers (Host included), on a fresh connection. */
function send(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(init.body)
  })
}

/** A JSON POST (what the fast path serves) with these extra headers. */
function post(base: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(base, path, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers }, body })
}

/** A WebSocket handshake: 101 when upgraded (the socket is closed at once), else the HTTP answer. */
function handshake(base: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      path,
      agent: false,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    })
    req.on('upgrade', (res, socket) => {
      socket.destroy()
      resolve({ status: res.statusCode!, headers: res.headers, body: '' })
    })
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

function expectForbiddenHost(answer: Answer, nodeId: string, what: string) {
  expect(answer.status, what).toBe(403)
  expect(answer.body, what).toBe(FORBIDDEN_HOST)
  expect(answer.headers['content-type'], what).toBe('text/plain; charset=utf-8')
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff')
  expect(answer.headers['node-id'], what).toBe(nodeId)
}

async function balance(d: Devnet): Promise<string> {
  const answer = await post(d.url, '/ext/bc/C/rpc', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [RECEIVER, 'latest'] }))
  return (JSON.parse(answer.body) as { result: string }).result
}

describe('Host filter (--http-allowed-hosts, default localhost)', () => {
  it('refuses a foreign Host with 403 on every path, and runs nothing it asked for', async () => {
    const d = await start()
    const { nodeId } = d.nodes[0]!
    for (const host of ['evil.example', `evil.example:${new URL(d.url).port}`, 'localhost.evil.example', '[::1]']) {
      const headers = { host }
      expectForbiddenHost(await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, headers), nodeId, `fast path, ${host}`)
      expectForbiddenHost(await post(d.url, '/ext/C/rpc', CHAIN_ID_CALL, headers), nodeId, `fast path by alias, ${host}`)
      expectForbiddenHost(await post(d.url, '/ext/sim', '{"jsonrpc":"2.0","id":1,"method":"sim.getFaults","params":{}}', headers), nodeId, `/ext/sim, ${host}`)
      expectForbiddenHost(await post(d.url, '/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID","params":{}}', headers), nodeId, `/ext/info, ${host}`)
      expectForbiddenHost(await send(d.url, '/ext/health', { headers }), nodeId, `health, ${host}`)
      expectForbiddenHost(await send(d.url, '/v1/chains', { headers }), nodeId, `/v1, ${host}`)
      expectForbiddenHost(await send(d.url, '/nothing/here', { headers }), nodeId, `a miss, ${host}`)
      expectForbiddenHost(await send(d.url, '/aggregate-signatures', { method: 'POST', headers, body: '{}' }), nodeId, `the signature aggregator, ${host}`)
      expectForbiddenHost(await handshake(d.url, '/ext/bc/C/ws', headers), nodeId, `WebSocket, ${host}`)
    }
    // A cheat code and a transaction from a rebinding page are not run.
    const cheat = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [RECEIVER, '0x2a'] })
    expect((await post(d.url, '/ext/bc/C/rpc', cheat, { host: 'evil.example' })).status).toBe(403)
    expect(await balance(d)).toBe('0x0')
    const timeBefore = d.network.clock.now()
    expect((await post(d.url, '/ext/sim', '{"jsonrpc":"2.0","id":1,"method":"sim.advanceTime","params":{"seconds":60}}', { host: 'rebind.example' })).status).toBe(403)
    expect(d.network.clock.now()).toBe(timeBefore)
  })

  it('serves localhost (any case, any port), IP addresses and the bound address', async () => {
    const d = await start()
    const port = new URL(d.url).port
    for (const host of ['localhost', `localhost:${port}`, `LocalHost:${port}`, `127.0.0.1:${port}`, '10.1.2.3', `[::1]:${port}`, '[fe80::1]:80']) {
      const answer = await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { host })
      expect(answer.status, host).toBe(200)
      expect(answer.body, host).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n')
      expect((await send(d.url, '/ext/health/liveness', { headers: { host } })).status, host).toBe(200)
      expect((await handshake(d.url, '/ext/bc/C/ws', { host })).status, host).toBe(101)
    }
  })

  it('serves the listed names instead of localhost, or every name with *', async () => {
    const d = await start({ allowedHosts: ['devnet.test', 'Other.Test'] })
    expect((await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { host: 'devnet.test:9650' })).status).toBe(200)
    expect((await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { host: 'other.test' })).status).toBe(200)
    expect((await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { host: `127.0.0.1:${new URL(d.url).port}` })).status).toBe(200)
    expectForbiddenHost(await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { host: 'localhost' }), d.nodes[0]!.nodeId, 'localhost not listed')
    await d.close()

    const open = await start({ allowedHosts: ['*'] })
    expect((await post(open.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { host: 'evil.example' })).status).toBe(200)
  })

  it('serves the name the server is bound to, whatever the list', async () => {
    const network = await createNetwork({ nodes: 1 })
    const server = createServer({ network, host: 'devnet.local', allowedHosts: ['other.test'] })
    try {
      const call = (host: string) => server.inject({ method: 'POST', url: '/ext/bc/C/rpc', payload: CHAIN_ID_CALL, headers: { 'content-type': 'application/json', host } })
      expect((await call('devnet.local:9650')).statusCode).toBe(200)
      expect((await call('other.test')).statusCode).toBe(200)
      expect((await call('localhost')).body).toBe(FORBIDDEN_HOST)
    } finally {
      await server.close()
      await network.close()
    }
  })

  it('answers a preflight before the Host filter, as rs/cors wraps it', async () => {
    const d = await start()
    const answer = await send(d.url, '/ext/sim', { method: 'OPTIONS', headers: { host: 'evil.example', origin: 'http://evil.example', 'access-control-request-method': 'POST' } })
    expect(answer.status).toBe(200)
    expect(answer.body).toBe('')
    expect(answer.headers['access-control-allow-origin']).toBe('*')
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it("applies to the data API's own port, in its error shape", async () => {
    const d = await start({ dataApi: { port: 0 } })
    const refused = await send(d.dataApiUrl!, '/v1/chains', { headers: { host: 'evil.example' } })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.body)).toEqual({ message: 'invalid host specified', statusCode: 403, error: 'Forbidden' })
    expect((await send(d.dataApiUrl!, '/v1/chains', { headers: { host: 'localhost' } })).status).toBe(200)
  })
})

describe('CORS (--http-allowed-origins)', () => {
  it('allows every origin by default, without credentials', async () => {
    const d = await start()
    const origin = 'https://any.example'
    for (const answer of [await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { origin }), await send(d.url, '/ext/health', { headers: { origin } })]) {
      expect(answer.headers['access-control-allow-origin']).toBe('*')
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined()
      expect(answer.headers.vary).toBe('Origin')
    }
    const preflight = await send(d.url, '/ext/bc/C/rpc', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
    expect(preflight.status).toBe(200)
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'Content-Type' })
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('echoes a listed origin with credentials, and gives others no CORS headers', async () => {
    const d = await start({ allowedOrigins: ['https://app.example', 'https://*.example.org'] })
    for (const origin of ['https://app.example', 'https://App.Example', 'https://dapp.example.org']) {
      for (const answer of [await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { origin }), await send(d.url, '/ext/health', { headers: { origin } })]) {
        expect(answer.headers['access-control-allow-origin'], origin).toBe(origin)
        expect(answer.headers['access-control-allow-credentials'], origin).toBe('true')
        expect(answer.headers.vary, origin).toBe('Origin')
      }
      const preflight = await send(d.url, '/ext/sim', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
      expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', 'access-control-allow-methods': 'POST' })
    }
    for (const origin of ['https://evil.example', 'https://app.example.evil', 'http://app.example', 'null']) {
      // The server still answers (CORS is the browser's to enforce), without allowing the page to read it.
      const actual = await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL, { origin })
      expect(actual.status, origin).toBe(200)
      expect(actual.headers['access-control-allow-origin'], origin).toBeUndefined()
      expect(actual.headers['access-control-allow-credentials'], origin).toBeUndefined()
      expect(actual.headers.vary, origin).toBe('Origin')
      const preflight = await send(d.url, '/ext/sim', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
      expect(preflight.status, origin).toBe(200)
      expect(preflight.headers['access-control-allow-origin'], origin).toBeUndefined()
      expect(preflight.headers['access-control-allow-methods'], origin).toBeUndefined()
    }
  })

  it('refuses a WebSocket handshake from an origin not listed, as gorilla refuses CheckOrigin', async () => {
    const d = await start({ allowedOrigins: ['https://app.example'] })
    const refused = await handshake(d.url, '/ext/bc/C/ws', { origin: 'https://evil.example' })
    expect(refused.status).toBe(403)
    expect(refused.body).toBe('Forbidden\n')
    expect(refused.headers['sec-websocket-version']).toBe('13')
    expect((await handshake(d.url, '/ext/bc/C/ws', { origin: 'https://app.example' })).status).toBe(101)
    // No Origin: not a browser, accepted as geth accepts it.
    expect((await handshake(d.url, '/ext/bc/C/ws', {})).status).toBe(101)
    await d.close()

    const open = await start()
    expect((await handshake(open.url, '/ext/bc/C/ws', { origin: 'https://evil.example' })).status).toBe(101)
  })
})

describe('/ext/sim on and off (--api-sim-enabled)', () => {
  it('answers Go 404 when turned off, and serves the rest', async () => {
    const d = await start({ apiSimEnabled: false })
    const answer = await post(d.url, '/ext/sim', '{"jsonrpc":"2.0","id":1,"method":"sim.getFaults","params":{}}')
    expect(answer.status).toBe(404)
    expect(answer.body).toBe('404 page not found\n')
    expect((await post(d.url, '/ext/bc/C/rpc', CHAIN_ID_CALL)).status).toBe(200)
    expect((await post(d.url, '/ext/info', '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID","params":{}}')).status).toBe(200)
  })
})
