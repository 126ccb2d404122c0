/**
 * The data API (SPEC.md §4.4) under `/v1`: the framework (errors, query parsing, page tokens,
 * network names, API keys and rate limits, response validation against the vendored Glacier
 * schemas, the served `/v1/openapi.json` and `/v1/docs`) and operations 1 (`GET /v1/chains`), 2
 * (`GET /v1/chains/{chainId}`) and 12 (`GET /v1/chains/{chainId}/blocks`), read from a
 * {@link DataSource}.
 *
 * Register it on any fastify instance: `app.register(dataRoutes, { source })`. Every route and
 * every miss under `/v1` answers errors with `{message, statusCode, error}`. Given a `network`,
 * every registration for that network (each node's server, the data API's own port) shares its
 * budgets, its page-token key and its validator.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { VALIDATE_RESPONSES_ENV, type DataApiOptions } from './config.js'
import { DataApiError, errorBody, notFound } from './errors.js'
import { chainInfo, evmBlock, type GetChainResponse, type ListChainsResponse, type ListEvmBlocksResponse } from './models.js'
import { acceptedNetworkNames, namesNetwork } from './networks.js'
import { createPageTokens, nextPageToken, type PageScope, type PageTokens } from './paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from './query.js'
import { API_FEATURES, type DataChain, type DataSource } from './source.js'
import { docsPage } from './openapi/docsPage.js'
import { servedOpenApiDocument } from './openapi/document.js'
import { operationOfRoute, SPEC_OPERATIONS, type SpecOperation } from './openapi/spec.js'
import { createResponseValidator, type ResponseValidator } from './openapi/validator.js'
import { createRateLimiter, type RateIdentity, type RateLimiter } from './rateLimit.js'

export * from './errors.js'
export * from './models.js'
export * from './networks.js'
export * from './paging.js'
export * from './query.js'
export * from './source.js'
export * from './config.js'
export * from './rateLimit.js'
export { createResponseValidator, type ResponseValidator } from './openapi/validator.js'
export { GLACIER_SPEC, SPEC_OPERATIONS, operationOfRoute, type SpecOperation } from './openapi/spec.js'

/** The header carrying an API key (SPEC.md §5; the hosted service calls it `x-glacier-api-key`). */
export const DATA_API_KEY_HEADER = 'x-data-api-key'

/** What a network gives the data API: its clock (rate-limit windows) and its settings; a `Network` is one. */
export type DataApiHost = {
  readonly clock: { nowMs(): number }
  readonly dataApi: DataApiOptions
}

export type DataRoutesOptions = {
  source: DataSource
  /**
   * The network served: turns on API keys and rate limits (`network.dataApi`, on `network.clock`)
   * and shares budgets, page-token key and validator with every other registration for it.
   */
  network?: DataApiHost
  /** Validate responses (see `DataApiOptions.validateResponses`); by default the network's setting, then the environment. */
  validateResponses?: boolean
  /** Prefix of the `rpcUrl` / `wsUrl` the chains list, e.g. `http://127.0.0.1:9650`; by default the request's own origin. */
  baseUrl?: string
  /** Key of the page-token HMAC; 32 random bytes per network instance (per registration without a network) by default. */
  pageTokenKey?: Uint8Array | string
  /** Called with the API key of each request that sends one (rate limits, key checks); none is required. */
  onApiKey?: (key: string, request: FastifyRequest) => void
  /** More /v1 operations, registered inside the same scope (errors, 404s, API keys, page tokens shared). */
  routes?: readonly V1Routes[]
}

/** What route sets registered under /v1 share. */
export type V1Context = {
  tokens: PageTokens
  /** The origin URLs in answers start with. */
  baseUrl(request: FastifyRequest): string
  /** The chain a path names, or a 404 in the API's shape. */
  chainOr404(chainId: string): DataChain
}

export type V1Routes = (app: FastifyInstance, ctx: V1Context) => void | Promise<void>

const apiKeys = new WeakMap<FastifyRequest, string>()

/** What every registration for one network shares. */
type SharedState = { pageTokenKey: Uint8Array; limiter: RateLimiter; validator?: ResponseValidator }
const sharedStates = new WeakMap<DataApiHost, SharedState>()

function sharedState(host: DataApiHost): SharedState {
  let state = sharedStates.get(host)
  if (state === undefined) {
    const { apiKeys: keys, rateLimits } = host.dataApi
    for (const [operationId, weight] of Object.entries(rateLimits === false ? {} : (rateLimits?.weights ?? {}))) {
      if (!SPEC_OPERATIONS.some((op) => op.operationId === operationId)) throw new Error(`dataApi.rateLimits.weights: unknown operation "${operationId}"`)
      if (!Number.isSafeInteger(weight) || weight < 0) throw new Error(`dataApi.rateLimits.weights: ${operationId} needs a whole, non-negative number of compute units, got ${String(weight)}`)
    }
    state = { pageTokenKey: randomBytes(32), limiter: createRateLimiter({ apiKeys: keys, rateLimits: rateLimits === false ? undefined : rateLimits }) }
    sharedStates.set(host, state)
  }
  return state
}

export const UNKNOWN_API_KEY_MESSAGE = `Unknown API key in the ${DATA_API_KEY_HEADER} header: this network knows only the keys configured in dataApi.apiKeys (send no key to use the anonymous budget)`

/** The `x-data-api-key` a request carried (the first, if repeated). */
export function dataApiKey(request: FastifyRequest): string | undefined {
  return apiKeys.get(request)
}

export const unknownChainMessage = (chainId: string): string => `Chain ${chainId} not found`

/** A chain by EVM chain id or blockchain id. */
export function findChain(source: DataSource, chainId: string): DataChain | undefined {
  return source.chains().find((chain) => chain.evmChainId === chainId || chain.blockchainId === chainId)
}

export const dataRoutes: FastifyPluginAsync<DataRoutesOptions> = async (app, options) => {
  await app.register(async (v1) => v1Routes(v1, options), { prefix: '/v1' })
}

async function v1Routes(app: FastifyInstance, options: DataRoutesOptions): Promise<void> {
  const { source, network: host } = options
  const shared = host === undefined ? undefined : sharedState(host)
  const tokens: PageTokens = createPageTokens(options.pageTokenKey ?? shared?.pageTokenKey)
  const baseUrl = (request: FastifyRequest) => (options.baseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')
  const rateLimits = host?.dataApi.rateLimits
  const weightOf = (op: SpecOperation) => (rateLimits === false ? undefined : rateLimits?.weights?.[op.operationId]) ?? op.weight

  // The Glacier operations this scope serves, for the OpenAPI document and the docs page.
  const served = new Set<string>()
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const op = operationOfRoute(method, route.url)
      if (op !== undefined) served.add(op.operationId)
    }
  })

  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers[DATA_API_KEY_HEADER]
    const key = Array.isArray(header) ? header[0] : header
    if (key !== undefined) {
      apiKeys.set(request, key)
      options.onApiKey?.(key, request)
    }
    if (host === undefined || shared === undefined) return undefined
    if (key !== undefined && shared.limiter.budgetOfKey(key) === undefined) return reply.code(401).send(errorBody(401, UNKNOWN_API_KEY_MESSAGE))
    if (rateLimits === false) return undefined
    const op = operationOf(request)
    const weight = op === undefined ? 0 : weightOf(op)
    const identity: RateIdentity = key === undefined ? { kind: 'anonymous', ip: request.ip } : { kind: 'key', key }
    const decision = shared.limiter.charge(identity, weight, host.clock.nowMs())
    if (key !== undefined || !decision.allowed) reply.headers(decision.headers)
    if (decision.allowed) return undefined
    const wait = decision.headers['retry-after']
    const budget = key === undefined ? 'the anonymous budget of this client' : 'the budget of this API key'
    return reply
      .code(429)
      .send(errorBody(429, `Rate limit exceeded: ${op?.operationId ?? 'this request'} costs ${weight} compute units, more than ${budget} has left (${decision.headers['ratelimit-remaining']} of ${decision.headers['ratelimit-limit']}); retry in ${wait} seconds`))
  })

  const validateResponses = options.validateResponses ?? host?.dataApi.validateResponses ?? process.env[VALIDATE_RESPONSES_ENV] === '1'
  if (validateResponses) {
    const validator = shared === undefined ? createResponseValidator() : (shared.validator ??= createResponseValidator())
    app.addHook('onSend', async (request, reply, payload) => validatedPayload(validator, request, reply, payload))
  }

  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split('?')[0] ?? request.url)
    reply.code(404).send(errorBody(404, `Cannot ${request.method} ${path}`))
  })

  app.setErrorHandler((error: FastifyError | DataApiError, _request, reply) => {
    if (error instanceof DataApiError) return reply.code(error.statusCode).send(errorBody(error.statusCode, error.messages))
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500
    if (status === 500) app.log.error({ err: error }, 'data API route failed')
    return reply.code(status).send(errorBody(status, status === 500 ? 'Internal server error' : error.message))
  })

  const chainOr404 = (chainId: string): DataChain => {
    const chain = findChain(source, chainId)
    if (!chain) throw notFound(unknownChainMessage(chainId))
    return chain
  }

  // 1. supportedChains
  app.get('/chains', async (request): Promise<ListChainsResponse> => {
    const query = new QueryReader(request.query)
    const network = query.enum('network', acceptedNetworkNames(source.networkId))
    const feature = query.enum('feature', API_FEATURES)
    query.finish()
    // Every chain belongs to this network: a network name selects all of them or none.
    const thisNetwork = network === undefined || namesNetwork(network, source.networkId)
    const chains = (thisNetwork ? source.chains() : []).filter((chain) => feature === undefined || (chain.enabledFeatures ?? []).includes(feature))
    const base = baseUrl(request)
    return { chains: chains.map((chain) => chainInfo(chain, base)) }
  })

  // 2. getChainInfo
  app.get<{ Params: { chainId: string } }>('/chains/:chainId', async (request): Promise<GetChainResponse> => {
    return chainInfo(chainOr404(request.params.chainId), baseUrl(request))
  })

  for (const routes of options.routes ?? []) await routes(app, { tokens, baseUrl, chainOr404 })

  const servedDocument = (request: FastifyRequest) =>
    servedOpenApiDocument({ operations: SPEC_OPERATIONS.filter((op) => served.has(op.operationId)), origin: baseUrl(request), weights: weightOf })

  // The service's own description: the hosted API serves its document at /api-json and Swagger UI
  // at /api; here both live under /v1, so the data API's own port serves them too.
  app.get('/openapi.json', async (request) => servedDocument(request))
  app.get('/docs', async (request, reply) => reply.type('text/html; charset=utf-8').send(docsPage(servedDocument(request))))

  // 12. getLatestBlocks
  app.get<{ Params: { chainId: string } }>('/chains/:chainId/blocks', async (request): Promise<ListEvmBlocksResponse> => {
    const query = new QueryReader(request.query)
    const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.getLatestBlocks)
    const pageToken = query.pageToken()
    query.finish()
    const chain = chainOr404(request.params.chainId)
    const scope: PageScope = { op: 'getLatestBlocks', filters: { chainId: chain.evmChainId } }
    const cursor = pageToken === undefined ? undefined : tokens.decode(pageToken, scope)
    const page = source.listBlocks(chain.evmChainId, { cursor, pageSize })
    return { ...nextPageToken(tokens, page, scope), blocks: page.items.map((block) => evmBlock(chain.evmChainId, block)) }
  })
}

/** The Glacier operation a request was routed to, if any. */
function operationOf(request: FastifyRequest): SpecOperation | undefined {
  const url = request.routeOptions.url
  return url === undefined ? undefined : operationOfRoute(request.method, url)
}

/**
 * The payload as sent, or, when it does not match its schema, a 500 naming the operation and the
 * schema errors (also logged): so a test that calls /v1 fails on a response the hosted API's
 * clients would reject.
 */
function validatedPayload(validator: ResponseValidator, request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
  const op = operationOf(request)
  const statusCode = reply.statusCode
  // Only operations have a success schema (/v1/openapi.json is not one); every error has one.
  if (op === undefined && statusCode < 400) return payload
  let body: unknown
  try {
    body = JSON.parse(payload.toString())
  } catch {
    body = undefined
  }
  const errors = body === undefined ? ['body is not JSON'] : validator.validate(op?.operationId, statusCode, body)
  if (errors === undefined) return payload
  const what = `${op?.operationId ?? `${request.method} ${request.url.split('?')[0]}`} (status ${statusCode})`
  request.log.error({ operationId: op?.operationId, statusCode, errors }, 'data API response does not match its schema')
  reply.code(500).type('application/json; charset=utf-8')
  return JSON.stringify(errorBody(500, [`The response of ${what} does not match the Glacier schema`, ...errors]))
}
