import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { NODE_RPC_HTTP, nodeRpcRefusal, nodeRpcRoute, serveNodeRpc } from '../../src/api/routes/nodeRpc.js'
import { createNodeDispatcher } from '../../src/rpc/node/dispatcher.js'
import { noParams, objectParams, str } from '../../src/rpc/node/params.js'
import { defineNodeMethod, INVALID_ARGUMENT_MESSAGE, NodeRpcError } from '../../src/rpc/node/types.js'

type Ctx = { node: string; seen: string[] }

const dispatcher = createNodeDispatcher<Ctx>({
  services: {
    admin: {
      getChainAliases: defineNodeMethod(objectParams({ chain: str }), (p, ctx: Ctx) => {
        ctx.seen.push(p.chain)
        return { aliases: [p.chain] }
      }),
      fail: defineNodeMethod(noParams, () => {
        throw new NodeRpcError('not <allowed>')
      }),
    },
  },
})

const seen: string[] = []
let app: FastifyInstance

beforeAll(async () => {
  app = Fastify()
  // Body parsers of the parent scope must not leak into the route (nodeRpcRoute has its own).
  app.register(nodeRpcRoute({ url: '/ext/admin', dispatcher, context: () => ({ node: 'n', seen }) }))
  app.post('/plain', (request, reply) => serveNodeRpc(request, reply, dispatcher, { node: 'plain', seen }))
  await app.ready()
})
afterAll(() => app.close())

const JSON_HEADERS = { 'content-type': 'application/json' }

function post(payload: string, headers: Record<string, string> = JSON_HEADERS, url = '/ext/admin') {
  return app.inject({ method: 'POST', url, payload, headers })
}

function expectRefusal(res: LightMyRequestResponse, status: number, body: string): void {
  expect(res.statusCode).toBe(status)
  expect(res.body).toBe(body)
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
  expect(res.headers['x-content-type-options']).toBeUndefined()
}

function expectJson(res: LightMyRequestResponse, body: string, nosniff: boolean): void {
  expect(res.statusCode).toBe(200)
  expect(res.body).toBe(body)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(res.headers['x-content-type-options']).toBe(nosniff ? 'nosniff' : undefined)
}

describe('gorilla ServeHTTP on fastify', () => {
  test.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const)('%s → 405 as plain text without a newline', async (method) => {
    const res = await app.inject({ method, url: '/ext/admin', payload: method === 'GET' ? undefined : '{}', headers: JSON_HEADERS })
    expectRefusal(res, 405, `rpc: POST method required, received ${method}`)
  })

  test('HEAD → 405 without a body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/ext/admin' })
    expect(res.statusCode).toBe(405)
    expect(res.body).toBe('')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  test('no Content-Type → 415 with an empty type (note the trailing space)', async () => {
    const res = await app.inject({ method: 'POST', url: '/ext/admin', payload: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"admin.getChainAliases"}') })
    expectRefusal(res, 415, 'rpc: unrecognized Content-Type: ')
    const empty = await app.inject({ method: 'POST', url: '/ext/admin' })
    expectRefusal(empty, 415, 'rpc: unrecognized Content-Type: ')
  })

  test.each([
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['text/plain; charset=utf-8', 'text/plain'],
    ['Text/JSON', 'Text/JSON'],
    ['application/json ; charset=utf-8', 'application/json '],
    ['application/jsonrequest', 'application/jsonrequest'],
  ])('Content-Type %j → 415 naming %j as sent', async (contentType, named) => {
    expectRefusal(await post('{}', { 'content-type': contentType }), 415, `rpc: unrecognized Content-Type: ${named}`)
  })

  test.each(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8', 'APPLICATION/JSON', 'Application/Json;whatever'])(
    'Content-Type %j is accepted',
    async (contentType) => {
      const res = await post('{"jsonrpc":"2.0","id":1,"method":"admin.getChainAliases","params":{"chain":"X"}}', { 'content-type': contentType })
      expectJson(res, '{"jsonrpc":"2.0","result":{"aliases":["X"]},"id":1}\n', true)
    },
  )

  test('JSON-RPC errors are 200; nosniff only once the method has run', async () => {
    expectJson(await post('{bad'), '{"jsonrpc":"2.0","error":{"code":-32700,"message":"invalid character \'b\' looking for beginning of object key string","data":{"jsonrpc":"","method":"","params":null,"id":null}},"id":null}\n', false)
    expectJson(await post(''), '{"jsonrpc":"2.0","error":{"code":-32700,"message":"EOF","data":{"jsonrpc":"","method":"","params":null,"id":null}},"id":null}\n', false)
    expectJson(
      await post('{"jsonrpc":"1.0","id":7,"method":"admin.alias","params":{}}'),
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"1.0","method":"admin.alias","params":{},"id":7}},"id":7}\n',
      false,
    )
    expectJson(
      await post('{"jsonrpc":"2.0","id":1,"method":"admin.nope"}'),
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"rpc: can\'t find method \\"admin.Nope\\"","data":null},"id":1}\n',
      false,
    )
    expectJson(
      await post('{"jsonrpc":"2.0","id":1,"method":"admin.getChainAliases","params":7}'),
      `{"jsonrpc":"2.0","error":{"code":-32000,"message":"${INVALID_ARGUMENT_MESSAGE}","data":null},"id":1}\n`,
      false,
    )
    expectJson(
      await post('{"jsonrpc":"2.0","id":"x","method":"admin.fail"}'),
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"not \\u003callowed\\u003e","data":null},"id":"x"}\n',
      true,
    )
  })

  test('a notification is 200 with an empty body and no Content-Type; it still ran', async () => {
    seen.length = 0
    const res = await post('{"jsonrpc":"2.0","method":"admin.getChainAliases","params":[{"chain":"N"}]}')
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(seen).toEqual(['N'])
    const refused = await post('{"jsonrpc":"2.0","method":"admin.nope"}')
    expect(refused.statusCode).toBe(200)
    expect(refused.body).toBe('')
    expect(refused.headers['x-content-type-options']).toBeUndefined()
  })

  test('a chunked body is read whole', async () => {
    const res = await post('{"jsonrpc":"2.0","id":2,"method":"admin.getChainAliases","params":{"chain":"C"}}', {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    })
    expectJson(res, '{"jsonrpc":"2.0","result":{"aliases":["C"]},"id":2}\n', true)
  })

  test('the path is exact', async () => {
    expect((await post('{}', JSON_HEADERS, '/ext/admin/')).statusCode).toBe(404)
  })

  test('serveNodeRpc refuses a body fastify has already parsed', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"admin.getChainAliases"}', JSON_HEADERS, '/plain')
    expect(res.statusCode).toBe(500)
    // …while its own refusals still work.
    expectRefusal(await post('{}', { 'content-type': 'text/plain' }, '/plain'), 415, 'rpc: unrecognized Content-Type: text/plain')
  })
})

describe('over a real socket', () => {
  let server: FastifyInstance
  let base: string
  beforeAll(async () => {
    server = Fastify()
    server.register(nodeRpcRoute({ url: '/ext/admin', dispatcher, context: () => ({ node: 'n', seen: [] }) }))
    base = await server.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(() => server.close())

  test('status, headers and bodies', async () => {
    const get = await fetch(`${base}/ext/admin`)
    expect(get.status).toBe(405)
    expect(get.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await get.text()).toBe('rpc: POST method required, received GET')

    const ok = await fetch(`${base}/ext/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1.0,"method":"admin.getChainAliases","params":{"chain":"<X>"}}',
    })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await ok.text()).toBe('{"jsonrpc":"2.0","result":{"aliases":["\\u003cX\\u003e"]},"id":1.0}\n')

    const note = await fetch(`${base}/ext/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"admin.fail"}' })
    expect(note.status).toBe(200)
    expect(note.headers.get('content-length')).toBe('0')
    expect(note.headers.get('content-type')).toBeNull()
    expect(await note.text()).toBe('')
  })
})

describe('constants', () => {
  test('refusal texts', () => {
    expect(NODE_RPC_HTTP.methodNotAllowed.body('GET')).toBe('rpc: POST method required, received GET')
    expect(NODE_RPC_HTTP.unsupportedMediaType.body('')).toBe('rpc: unrecognized Content-Type: ')
    expect(nodeRpcRefusal('POST', 'application/json;x=1')).toBeUndefined()
    expect(nodeRpcRefusal('POST', undefined)).toEqual({ status: 415, body: 'rpc: unrecognized Content-Type: ' })
    expect(nodeRpcRefusal('GET', 'application/json')).toEqual({ status: 405, body: 'rpc: POST method required, received GET' })
  })
})
