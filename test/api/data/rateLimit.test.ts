import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { createClock, type Clock } from '../../../src/core/clock.js'
import {
  dataRoutes,
  DEFAULT_RATE_TIERS,
  EXECUTION_WEIGHTS,
  GLACIER_SPEC,
  SPEC_OPERATIONS,
  UNKNOWN_API_KEY_MESSAGE,
  type DataApiHost,
  type DataApiOptions,
  type DataSource,
  type V1Routes,
} from '../../../src/api/routes/data/index.js'

const source: DataSource = { networkId: 12345, chains: () => [], listBlocks: () => ({ items: [] }) }

/** A route for every vendored operation the framework does not serve itself, answering `{}`. */
const everyOperation: V1Routes = (app) => {
  for (const op of SPEC_OPERATIONS) {
    if (['supportedChains', 'getChainInfo', 'getLatestBlocks'].includes(op.operationId)) continue
    const url = op.path.slice('/v1'.length).replace(/\{([^}]+)\}/g, ':$1').replace(/:(list|get)([A-Z])/g, '::$1$2')
    app.route({ method: op.method.toUpperCase() as 'GET' | 'POST', url, handler: async () => ({}) })
  }
}

// 2026-01-01T00:00:00Z plus 15 s: a quarter into a minute.
const START = 1_767_225_600 + 15
const apps: FastifyInstance[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

function hostWith(dataApi: DataApiOptions, clock: Clock = createClock({ start: START })): DataApiHost {
  return { clock, dataApi }
}

async function serve(host: DataApiHost) {
  const app = Fastify()
  app.register(dataRoutes, { source, network: host, routes: [everyOperation], validateResponses: false })
  await app.ready()
  apps.push(app)
  return app
}

async function call(app: FastifyInstance, url: string, options: { key?: string; ip?: string; method?: 'GET' | 'POST' } = {}) {
  const res = await app.inject({
    method: options.method ?? 'GET',
    url,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: options.key === undefined ? {} : { 'x-data-api-key': options.key },
    ...(options.method === 'POST' ? { payload: {} } : {}),
  })
  const rate = Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.startsWith('ratelimit-') || name === 'retry-after'))
  return { status: res.statusCode, body: res.json() as unknown, rate }
}

describe('defaults from the reference', () => {
  it('has the hosted tiers and weights', () => {
    expect(DEFAULT_RATE_TIERS).toEqual({
      unauthenticated: { perMinute: 6000, perDay: 1_200_000 },
      free: { perMinute: 8000, perDay: 2_000_000 },
      base: { perMinute: 10_000, perDay: 3_750_000 },
      growth: { perMinute: 14_000, perDay: 11_200_000 },
      pro: { perMinute: 20_000, perDay: 25_000_000 },
    })
    expect(GLACIER_SPEC['x-execution-weight-values']).toEqual(EXECUTION_WEIGHTS)
  })
})

describe('API keys', () => {
  it('charges a configured key its tier and sends the policy, limit and remaining on every response', async () => {
    const app = await serve(hostWith({ apiKeys: { k1: 'free', k2: 'pro', k3: { perMinute: 50, perDay: 70 } } }))
    // The source has no chains: a 404, charged like any answer.
    expect(await call(app, '/v1/chains/43112/blocks', { key: 'k1' })).toMatchObject({
      status: 404,
      rate: { 'ratelimit-policy': '8000;w=60, 2000000;w=86400', 'ratelimit-limit': '8000', 'ratelimit-remaining': '7990' },
    })
    expect((await call(app, '/v1/chains', { key: 'k1' })).rate).toEqual({ 'ratelimit-policy': '8000;w=60, 2000000;w=86400', 'ratelimit-limit': '8000', 'ratelimit-remaining': '7989' })
    expect(await call(app, '/v1/chains/1', { key: 'k2' })).toMatchObject({
      status: 404,
      rate: { 'ratelimit-policy': '20000;w=60, 25000000;w=86400', 'ratelimit-limit': '20000', 'ratelimit-remaining': '19999' },
    })
    // A budget of its own.
    expect((await call(app, '/v1/networks/fuji/validators', { key: 'k3' })).rate).toEqual({ 'ratelimit-policy': '50;w=60, 70;w=86400', 'ratelimit-limit': '50', 'ratelimit-remaining': '30' })
    expect((await call(app, '/v1/networks/fuji/validators', { key: 'k3' })).rate).toEqual({ 'ratelimit-policy': '50;w=60, 70;w=86400', 'ratelimit-limit': '50', 'ratelimit-remaining': '10' })
  })

  it('refuses an unknown key with 401 and no rate headers', async () => {
    const app = await serve(hostWith({ apiKeys: { k1: 'free' } }))
    expect(await call(app, '/v1/chains', { key: 'nope' })).toEqual({
      status: 401,
      body: { message: UNKNOWN_API_KEY_MESSAGE, statusCode: 401, error: 'Unauthorized' },
      rate: {},
    })
    expect(UNKNOWN_API_KEY_MESSAGE).toBe('Unknown API key in the x-data-api-key header: this network knows only the keys configured in dataApi.apiKeys (send no key to use the anonymous budget)')
    // Without any configured key, every key is unknown.
    expect((await call(await serve(hostWith({})), '/v1/chains', { key: 'k1' })).status).toBe(401)
  })

  it('refuses a key naming an unknown tier when the routes are registered', async () => {
    const app = Fastify()
    apps.push(app)
    app.register(dataRoutes, { source, network: hostWith({ apiKeys: { k1: 'platinum' } }) })
    await expect(app.ready()).rejects.toThrow('dataApi.apiKeys: key "k1" names an unknown tier "platinum" (known: unauthenticated, free, base, growth, pro)')
  })

  it('refuses weights of unknown operations or that are not whole numbers', async () => {
    for (const [weights, message] of [
      [{ listBlocks: 1 }, 'dataApi.rateLimits.weights: unknown operation "listBlocks"'],
      [{ listTokens: 1.5 }, 'dataApi.rateLimits.weights: listTokens needs a whole, non-negative number of compute units, got 1.5'],
    ] as const) {
      const app = Fastify()
      apps.push(app)
      app.register(dataRoutes, { source, network: hostWith({ rateLimits: { weights } }) })
      await expect(app.ready()).rejects.toThrow(message)
    }
  })
})

describe('budgets and windows', () => {
  it('gives each anonymous client IP the Unauthenticated budget, without headers until it is spent', async () => {
    const clock = createClock({ start: START })
    const app = await serve(hostWith({ rateLimits: { weights: { getLatestBlocks: 3000 } } }, clock))
    expect(await call(app, '/v1/chains/1/blocks')).toMatchObject({ status: 404, rate: {} })
    expect(await call(app, '/v1/chains/1/blocks')).toMatchObject({ status: 404, rate: {} })
    expect(await call(app, '/v1/chains/1/blocks')).toEqual({
      status: 429,
      body: {
        message: 'Rate limit exceeded: getLatestBlocks costs 3000 compute units, more than the anonymous budget of this client has left (0 of 6000); retry in 45 seconds',
        statusCode: 429,
        error: 'Too Many Requests',
      },
      rate: { 'ratelimit-policy': '6000;w=60, 1200000;w=86400', 'ratelimit-limit': '6000', 'ratelimit-remaining': '0', 'ratelimit-reset': '45', 'retry-after': '45' },
    })
    // Even a free operation (1 unit) does not fit: nothing is left this minute.
    expect((await call(app, '/v1/chains')).status).toBe(429)
    // Another client IP has its own budget.
    expect((await call(app, '/v1/chains/1/blocks', { ip: '10.0.0.2' })).status).toBe(404)
    clock.advance(44)
    expect((await call(app, '/v1/chains/1/blocks')).rate).toMatchObject({ 'retry-after': '1' })
    clock.advance(1)
    expect((await call(app, '/v1/chains/1/blocks')).status).toBe(404)
  })

  it('refuses for the rest of the UTC day once the day budget is spent, then resets', async () => {
    const clock = createClock({ start: START })
    const app = await serve(hostWith({ apiKeys: { k: { perMinute: 100, perDay: 150 } } }, clock))
    for (let i = 0; i < 5; i++) expect((await call(app, '/v1/networks/fuji/validators', { key: 'k' })).status).toBe(200)
    expect((await call(app, '/v1/networks/fuji/validators', { key: 'k' })).rate).toEqual({
      'ratelimit-policy': '100;w=60, 150;w=86400',
      'ratelimit-limit': '100',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '45',
      'retry-after': '45',
    })
    clock.advance(45)
    for (let i = 0; i < 2; i++) expect((await call(app, '/v1/networks/fuji/validators', { key: 'k' })).status).toBe(200)
    const refused = await call(app, '/v1/networks/fuji/validators', { key: 'k' })
    // 00:01:00 now: 86,340 seconds to midnight.
    expect(refused).toMatchObject({ status: 429, rate: { 'ratelimit-limit': '150', 'ratelimit-remaining': '10', 'ratelimit-reset': '86340', 'retry-after': '86340' } })
    // A free operation still fits in what is left of the day.
    expect((await call(app, '/v1/chains', { key: 'k' })).rate).toEqual({ 'ratelimit-policy': '100;w=60, 150;w=86400', 'ratelimit-limit': '150', 'ratelimit-remaining': '9' })
    clock.advance(86_339)
    expect((await call(app, '/v1/networks/fuji/validators', { key: 'k' })).status).toBe(429)
    clock.advance(1)
    expect((await call(app, '/v1/networks/fuji/validators', { key: 'k' })).rate).toEqual({ 'ratelimit-policy': '100;w=60, 150;w=86400', 'ratelimit-limit': '100', 'ratelimit-remaining': '80' })
  })

  it("charges each operation its x-execution-weight, or the configured weight", async () => {
    const host = hostWith({ apiKeys: { k: 'pro' }, rateLimits: { weights: { listTokens: 7 } } })
    const app = await serve(host)
    const paths: Record<string, string> = {}
    for (const op of SPEC_OPERATIONS) paths[op.operationId] = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === 'network' ? 'fuji' : name === 'chainId' ? '43112' : 'x'))
    const charged: Record<string, number> = {}
    let remaining = 20_000
    for (const op of SPEC_OPERATIONS) {
      const { rate } = await call(app, paths[op.operationId]!, { key: 'k', method: op.method === 'post' ? 'POST' : 'GET' })
      const now = Number(rate['ratelimit-remaining'])
      charged[op.operationId] = remaining - now
      remaining = now
    }
    expect(charged).toEqual({
      supportedChains: 1,
      getChainInfo: 1,
      listTransactions: 20,
      listNativeTransactions: 20,
      listErc20Transactions: 20,
      listErc721Transactions: 20,
      listTransfers: 20,
      listErc1155Balances: 20,
      getDeploymentTransaction: 20,
      getTransaction: 20,
      getTransactionsForBlock: 20,
      getLatestBlocks: 10,
      listTokens: 7,
      getUtxosByAddressesV2: 100,
      listLatestPrimaryNetworkTransactions: 100,
      listValidators: 20,
      listL1Validators: 20,
      listIcmMessages: 20,
      getIcmMessage: 20,
      listIcmMessagesByAddress: 20,
      aggregateSignatures: 20,
      getAggregatedSignatures: 20,
    })
    // Misses and the service's own documents cost nothing.
    expect((await call(app, '/v1/nowhere', { key: 'k' })).rate['ratelimit-remaining']).toBe(String(remaining))
    expect((await call(app, '/v1/openapi.json', { key: 'k' })).rate['ratelimit-remaining']).toBe(String(remaining))
  })

  it('shares budgets between registrations for the same network, not with another network', async () => {
    const host = hostWith({ apiKeys: { k: { perMinute: 30, perDay: 1000 } } })
    const a = await serve(host)
    const b = await serve(host)
    expect((await call(a, '/v1/chains/1/blocks', { key: 'k' })).rate['ratelimit-remaining']).toBe('20')
    expect((await call(b, '/v1/chains/1/blocks', { key: 'k' })).rate['ratelimit-remaining']).toBe('10')
    expect((await call(a, '/v1/chains/1/blocks', { key: 'k' })).rate['ratelimit-remaining']).toBe('0')
    expect((await call(b, '/v1/chains/1/blocks', { key: 'k' })).status).toBe(429)
    const other = await serve(hostWith({ apiKeys: { k: { perMinute: 30, perDay: 1000 } } }))
    expect((await call(other, '/v1/chains/1/blocks', { key: 'k' })).rate['ratelimit-remaining']).toBe('20')
  })

  it('can be turned off: no headers, no 429, keys still checked', async () => {
    const app = await serve(hostWith({ apiKeys: { k: { perMinute: 1, perDay: 1 } }, rateLimits: false }))
    for (let i = 0; i < 3; i++) expect(await call(app, '/v1/chains/1/blocks', { key: 'k' })).toMatchObject({ status: 404, rate: {} })
    expect((await call(app, '/v1/chains', { key: 'other' })).status).toBe(401)
  })
})
