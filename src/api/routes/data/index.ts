/**
 * The data API (SPEC.md §4.4) under `/v1`: the framework (errors, query parsing, page tokens,
 * network names, the API key header) and operations 1 (`GET /v1/chains`), 2
 * (`GET /v1/chains/{chainId}`) and 12 (`GET /v1/chains/{chainId}/blocks`), read from a
 * {@link DataSource}.
 *
 * Register it on any fastify instance: `app.register(dataRoutes, { source })`. Every route and
 * every miss under `/v1` answers errors with `{message, statusCode, error}`.
 */
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify'
import { DataApiError, errorBody, notFound } from './errors.js'
import { chainInfo, evmBlock, type GetChainResponse, type ListChainsResponse, type ListEvmBlocksResponse } from './models.js'
import { acceptedNetworkNames, namesNetwork } from './networks.js'
import { createPageTokens, nextPageToken, type PageScope, type PageTokens } from './paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from './query.js'
import { API_FEATURES, type DataChain, type DataSource } from './source.js'

export * from './errors.js'
export * from './models.js'
export * from './networks.js'
export * from './paging.js'
export * from './query.js'
export * from './source.js'
export * from './config.js'

/** The header carrying an API key (SPEC.md §5; the hosted service calls it `x-glacier-api-key`). */
export const DATA_API_KEY_HEADER = 'x-data-api-key'

export type DataRoutesOptions = {
  source: DataSource
  /** Prefix of the `rpcUrl` / `wsUrl` the chains list, e.g. `http://127.0.0.1:9650`; by default the request's own origin. */
  baseUrl?: string
  /** Key of the page-token HMAC; 32 random bytes per registration (per network instance) by default. */
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
  const { source } = options
  const tokens: PageTokens = createPageTokens(options.pageTokenKey)
  const baseUrl = (request: FastifyRequest) => (options.baseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')

  app.addHook('onRequest', async (request) => {
    const header = request.headers[DATA_API_KEY_HEADER]
    const key = Array.isArray(header) ? header[0] : header
    if (key === undefined) return
    apiKeys.set(request, key)
    options.onApiKey?.(key, request)
  })

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
