import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type L1simServer } from '../../../src/api/server.js'
import { dataRoutes, GLACIER_SPEC, SPEC_OPERATIONS, type DataSource } from '../../../src/api/routes/data/index.js'
import { curlExample } from '../../../src/api/routes/data/openapi/docsPage.js'
import { createNetwork, type Network } from '../../../src/network/network.js'

type Doc = typeof GLACIER_SPEC

let network: Network
let server: L1simServer
beforeAll(async () => {
  network = await createNetwork({ nodes: 1, dataApi: { rateLimits: { weights: { listTokens: 7 } } } })
  // The document names the origin a request reached it by: a server published under a name allows that name.
  server = createServer({ network, allowedHosts: ['localhost', 'devnet.test'] })
  await server.ready()
})
afterAll(async () => {
  await server.close()
  await network.close()
})

const operationsOf = (doc: Doc) => Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId))

describe('GET /v1/openapi.json', () => {
  it("describes every operation the node serves, for the request's origin, with every schema they reference", async () => {
    const res = await server.inject({ url: '/v1/openapi.json', headers: { host: 'devnet.test:9650' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    const doc = res.json() as Doc
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: 'http://devnet.test:9650' }])
    expect(operationsOf(doc).sort()).toEqual(SPEC_OPERATIONS.map((op) => op.operationId).sort())
    expect(doc.components.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-data-api-key' }) })
    // Weights as charged here: the spec's, or the network's override.
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item))
    expect(ops.find((op) => op.operationId === 'listTokens')!['x-execution-weight-units']).toBe(7)
    expect(ops.find((op) => op.operationId === 'getLatestBlocks')!['x-execution-weight-units']).toBe(10)
    // Self-contained: every $ref resolves inside the document.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!)
    expect(refs.length).toBeGreaterThan(0)
    expect(refs.filter((name) => !(name in doc.components.schemas))).toEqual([])
  })

  it('lists only what a registration serves', async () => {
    const source: DataSource = { networkId: 12345, chains: () => [], listBlocks: () => ({ items: [] }) }
    const app = Fastify()
    app.register(dataRoutes, { source, baseUrl: 'http://example.test:1234/' })
    const doc = (await app.inject('/v1/openapi.json')).json() as Doc
    await app.close()
    expect(Object.keys(doc.paths)).toEqual(['/v1/chains', '/v1/chains/{chainId}', '/v1/chains/{chainId}/blocks'])
    expect(doc.servers).toEqual([{ url: 'http://example.test:1234' }])
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['ApiFeature', 'BadGateway', 'BadRequest', 'ChainInfo', 'ChainStatus', 'EvmBlock', 'Forbidden', 'GetChainResponse', 'InternalServerError', 'ListChainsResponse', 'ListEvmBlocksResponse', 'Network', 'NetworkToken', 'NotFound', 'ServiceUnavailable', 'TooManyRequests', 'Unauthorized', 'UtilityAddresses', 'VmName'].sort())
  })
})

describe('GET /v1/docs', () => {
  it('is one HTML page with every operation, its parameters and a curl example, loading nothing', async () => {
    const res = await server.inject({ url: '/v1/docs', headers: { host: 'devnet.test:9650' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    const html = res.body
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).not.toMatch(/<script|<link|src=/)
    // The only absolute URLs are this server's.
    expect([...html.matchAll(/https?:\/\/[^\s"'<]+/g)].map((m) => m[0]).filter((url) => url !== 'http://devnet.test:9650' && !url.startsWith('http://devnet.test:9650/'))).toEqual([])
    for (const op of SPEC_OPERATIONS) {
      expect(html).toContain(`<section id="${op.operationId}">`)
      expect(html).toContain(`<code>${op.method.toUpperCase()} ${op.path}</code>`)
      for (const parameter of op.operation.parameters ?? []) expect(html).toContain(`<td><code>${parameter.name}</code></td>`)
    }
    expect(html).toContain('<pre>curl -s &#39;http://devnet.test:9650/v1/chains/43114/blocks&#39;</pre>')
    // In the order of SPEC.md §4.4.
    expect([...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1])).toEqual(SPEC_OPERATIONS.map((op) => op.operationId))
    expect(html).toContain('<td><code>pageSize</code></td><td>query</td><td>no</td><td><code>integer (min 1, max 100, default 10)</code></td>')
  })

  it('builds curl examples from path examples, with a JSON body for the POST', () => {
    const doc = { ...GLACIER_SPEC, servers: [{ url: 'http://h:1' }] }
    const utxos = SPEC_OPERATIONS.find((op) => op.operationId === 'getUtxosByAddressesV2')!
    expect(curlExample(doc, utxos.path, utxos.method, utxos.operation)).toBe(
      `curl -s -X POST 'http://h:1/v1/networks/mainnet/blockchains/p-chain/utxos' \\\n  -H 'content-type: application/json' \\\n  -d '{"addresses":"P-avax1abc123,X-avax1def456,C-avax1ghi789"}'`,
    )
    const erc20 = SPEC_OPERATIONS.find((op) => op.operationId === 'listErc20Transactions')!
    expect(curlExample(doc, erc20.path, erc20.method, erc20.operation)).toMatch(/^curl -s 'http:\/\/h:1\/v1\/chains\/43114\/addresses\/0x[0-9a-fA-F]{40}\/transactions:listErc20'$/)
  })
})
