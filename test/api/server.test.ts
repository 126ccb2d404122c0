import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createServer, type L1simServer } from '../../src/api/server.js'
import { parseMediaType, readBody } from '../../src/api/routes/evm.js'
import { createNetwork, type Network } from '../../src/network/network.js'

const CHAIN_ID_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
const CHAIN_ID_ANSWER = '{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n'
const JSON_HEADERS = { 'content-type': 'application/json' }

let network: Network
let server: L1simServer

beforeEach(async () => {
  network = await createNetwork()
  server = createServer({ network })
  await server.ready()
})
afterEach(async () => {
  await server.close()
  await network.close()
})

const post = (url: string, payload = CHAIN_ID_CALL, headers: Record<string, string> = JSON_HEADERS) =>
  server.inject({ method: 'POST', url, payload, headers })

/** Go's http.Error, as the node writes every refusal before JSON-RPC. */
function expectGoError(res: Awaited<ReturnType<typeof post>>, status: number, body: string) {
  expect(res.statusCode).toBe(status)
  expect(res.body).toBe(body)
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
  expect(res.headers['x-content-type-options']).toBe('nosniff')
}

describe('routing by chain', () => {
  it('serves the C-chain under its aliases and its blockchain id', async () => {
    const urls = [
      '/ext/bc/C/rpc',
      '/ext/bc/evm/rpc',
      `/ext/bc/${network.preset.cChainId}/rpc`,
      '/ext/C/rpc',
      '/ext/evm/rpc',
    ]
    for (const url of urls) {
      const res = await post(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.body, url).toBe(CHAIN_ID_ANSWER)
      expect(res.headers['content-type'], url).toBe('application/json')
    }
  })

  it("answers an unknown chain, a chain id outside bc/, a wrong case or a trailing slash with Go's 404", async () => {
    for (const url of [
      '/ext/bc/X/rpc',
      '/ext/bc/c/rpc',
      `/ext/${network.preset.cChainId}/rpc`,
      '/ext/bc/C/rpc/',
      '/ext/bc/nope/ws',
      '/nothing/here',
    ]) {
      const res = await post(url)
      expectGoError(res, 404, '404 page not found\n')
    }
  })

  it('puts the node-id header of node 0 on every response', async () => {
    const nodeId = network.nodes[0]!.nodeId
    expect(nodeId).toMatch(/^NodeID-/)
    for (const res of [await post('/ext/bc/C/rpc'), await post('/ext/bc/X/rpc'), await server.inject({ method: 'PUT', url: '/ext/bc/C/rpc' })]) {
      expect(res.headers['node-id']).toBe(nodeId)
    }
  })
})

describe('geth ServeHTTP / validateRequest', () => {
  it('answers a body-less GET without a query string with an empty 200 (health check)', async () => {
    const res = await server.inject({ method: 'GET', url: '/ext/bc/C/rpc' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
  })

  it('checks the content type of a GET with a query string, then serves it', async () => {
    expectGoError(await server.inject({ method: 'GET', url: '/ext/bc/C/rpc?x=1' }), 415, 'invalid content type, only application/json is supported\n')
    const res = await server.inject({ method: 'GET', url: '/ext/bc/C/rpc?x=1', headers: JSON_HEADERS, payload: CHAIN_ID_CALL })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(CHAIN_ID_ANSWER)
  })

  it('refuses PUT and DELETE with 405', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      expectGoError(await server.inject({ method, url: '/ext/bc/C/rpc', headers: JSON_HEADERS, payload: CHAIN_ID_CALL }), 405, 'method not allowed\n')
    }
  })

  it('refuses a missing or foreign content type with 415', async () => {
    const message = 'invalid content type, only application/json is supported\n'
    expectGoError(await post('/ext/bc/C/rpc', CHAIN_ID_CALL, {}), 415, message)
    expectGoError(await post('/ext/bc/C/rpc', CHAIN_ID_CALL, { 'content-type': 'text/plain' }), 415, message)
    expectGoError(await post('/ext/bc/C/rpc', CHAIN_ID_CALL, { 'content-type': 'application/x-www-form-urlencoded' }), 415, message)
    expectGoError(await post('/ext/bc/C/rpc', CHAIN_ID_CALL, { 'content-type': 'application/json; charset' }), 415, message)
  })

  it('accepts the three JSON media types, any case, with parameters', async () => {
    for (const type of ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json-rpc', 'application/jsonrequest', 'application/json;']) {
      const res = await post('/ext/bc/C/rpc', CHAIN_ID_CALL, { 'content-type': type })
      expect(res.statusCode, type).toBe(200)
      expect(res.body, type).toBe(CHAIN_ID_ANSWER)
    }
  })

  it('refuses a Content-Length above 5 MiB with 413, before reading the body', async () => {
    const limit = 5 * 1024 * 1024
    const res = await post('/ext/bc/C/rpc', ' '.repeat(limit + 1))
    expectGoError(res, 413, `content length too large (${limit + 1}>${limit})\n`)
    // At the limit the body is read (and, being blank, answered with nothing).
    const atLimit = await post('/ext/bc/C/rpc', `${CHAIN_ID_CALL}${' '.repeat(limit - CHAIN_ID_CALL.length)}`)
    expect(atLimit.statusCode).toBe(200)
    expect(atLimit.body).toBe(CHAIN_ID_ANSWER)
  })

  it('cuts a body without Content-Length at the limit, as io.LimitReader does', async () => {
    expect(await readBody(Readable.from([Buffer.from('abcdef'), Buffer.from('ghij')]), 8)).toBe('abcdefgh')
    expect(await readBody(Readable.from([Buffer.from('abc')]), 8)).toBe('abc')
  })

  it("leaves malformed JSON and empty bodies to the dispatcher (geth's answers, not fastify's)", async () => {
    const bad = await post('/ext/bc/C/rpc', '{bad')
    expect(bad.statusCode).toBe(200)
    expect(bad.headers['content-type']).toBe('application/json')
    expect(bad.body).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
    const empty = await post('/ext/bc/C/rpc', '')
    expect(empty.statusCode).toBe(200)
    expect(empty.body).toBe('')
    expect(empty.headers['content-type']).toBe('application/json')
    const notification = await post('/ext/bc/C/rpc', '{"jsonrpc":"2.0","method":"eth_chainId"}')
    expect(notification.body).toBe('')
  })

  it('passes OPTIONS without a preflight header to JSON-RPC, whatever the content type', async () => {
    const res = await server.inject({ method: 'OPTIONS', url: '/ext/bc/C/rpc' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
    expect(res.headers['content-type']).toBe('application/json')
  })

  it('refuses subscriptions over HTTP as geth does', async () => {
    const sub = await post('/ext/bc/C/rpc', '{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}')
    expect(sub.body).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"notifications not supported"}}\n')
    // Checked before the params: bad params get the same answer.
    const bad = await post('/ext/bc/C/rpc', '{"jsonrpc":"2.0","id":2,"method":"eth_subscribe","params":7}')
    expect(bad.body).toBe('{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"notifications not supported"}}\n')
    const unsub = await post('/ext/bc/C/rpc', '{"jsonrpc":"2.0","id":3,"method":"eth_unsubscribe","params":["0x1"]}')
    expect(unsub.body).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"subscription not found"}}\n')
  })

  it('parses media types as Go does, lower-cased and without parameters', () => {
    expect(parseMediaType('Application/JSON; charset="utf-8"')).toBe('application/json')
    expect(parseMediaType('')).toBeUndefined()
    expect(parseMediaType('application/json; =x')).toBeUndefined()
    expect(parseMediaType('application')).toBeUndefined()
  })
})

describe('WebSocket route without an upgrade', () => {
  it("answers as gorilla/websocket's Upgrader: 400 Bad Request", async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await server.inject({ method, url: '/ext/bc/C/ws' })
      expectGoError(res, 400, 'Bad Request\n')
      expect(res.headers['sec-websocket-version']).toBe('13')
    }
  })
})

describe('CORS (rs/cors v1.7.0, all origins by default, no credentials with the wildcard)', () => {
  it('answers a preflight itself with 200 and no body, on any path', async () => {
    for (const url of ['/ext/bc/C/rpc', '/nothing/here']) {
      const res = await server.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'http://app.example', 'access-control-request-method': 'post', 'access-control-request-headers': 'content-type, x-requested-with' },
      })
      expect(res.statusCode, url).toBe(200)
      expect(res.body, url).toBe('')
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'Content-Type, X-Requested-With',
        // Three header lines, as Go's Header.Add writes them.
        vary: ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers'],
        'node-id': network.nodes[0]!.nodeId,
      })
      // A wildcard origin with credentials would let any page make credentialed calls.
      expect(res.headers['access-control-allow-credentials'], url).toBeUndefined()
    }
  })

  it('answers a preflight for a header outside the default list without allowing it', async () => {
    const res = await server.inject({
      method: 'OPTIONS',
      url: '/ext/bc/C/rpc',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('allows any origin on actual requests and always varies on Origin', async () => {
    const withOrigin = await post('/ext/bc/C/rpc', CHAIN_ID_CALL, { ...JSON_HEADERS, origin: 'http://app.example' })
    expect(withOrigin.headers['access-control-allow-origin']).toBe('*')
    expect(withOrigin.headers['access-control-allow-credentials']).toBeUndefined()
    expect(withOrigin.headers.vary).toBe('Origin')
    const without = await post('/ext/bc/C/rpc')
    expect(without.headers['access-control-allow-origin']).toBeUndefined()
    expect(without.headers.vary).toBe('Origin')
  })
})
