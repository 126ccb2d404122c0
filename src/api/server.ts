/**
 * The HTTP server of a network: one fastify instance with one plugin per protocol (the EVM
 * JSON-RPC and WebSocket routes today; node and data routes join here), wrapped the way
 * avalanchego's `api/server/server.go` `wrapHandler` wraps every route: the `node-id` header on
 * every response, then rs/cors v1.7.0 with every origin allowed and credentials on, then the
 * router, whose misses are Go's `404 page not found`.
 */
import fastifyWebsocket from '@fastify/websocket'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import type { Network } from '../network/network.js'
import type { SimNode } from '../network/node.js'
import { nodeRoutes } from './routes/node.js'
import { dataRoutes, type DataRoutesOptions } from './routes/data/index.js'
import { networkDataSource } from './routes/data/networkSource.js'
import { evmDataRoutes } from './routes/data/evm/index.js'
import { moreEvmDataRoutes } from './routes/data/evm/more.js'
import { primaryDataRoutes } from './routes/data/primary/index.js'
import { primaryTxRoutes } from './routes/data/primary/utxosAndTxs.js'
import type { EthContext } from '../rpc/context.js'
import type { RpcMethod } from '../rpc/dispatcher.js'
import { createServer as createHttpServer } from 'node:http'
import { ETH_MAX_REQUEST_BYTES } from '../rpc/dispatcher.js'
import { createFastRpcHandler } from './fastRpc.js'
import { createEvmDispatcher, evmRoutes, sendGoError, WS_MAX_MESSAGE_BYTES } from './routes/evm.js'

export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 9650

export type ServerOptions = {
  network: Network
  /** The simulated node this server is (its NodeID header, aliases, admin state, health); node 0 by default. */
  node?: SimNode
  /** Where `listen()` binds when started through {@link listenServer}: avalanchego's `--http-host` default. */
  host?: string
  /** avalanchego's `--http-port` default, 9650; 0 picks a free port. */
  port?: number
  /** fastify's logger option; off by default (the CLI prints its own banner). */
  logger?: FastifyServerOptions['logger']
  /** Replaces the EVM method table (tests); the full set by default. */
  evmMethods?: Record<string, RpcMethod<any, any, EthContext>>
}

export type L1simServer = FastifyInstance & {
  /** The address given to {@link createServer}, with avalanchego's defaults filled in. */
  readonly listenAddress: { host: string; port: number }
}

export function createServer(options: ServerOptions): L1simServer {
  const { network } = options
  const node = options.node ?? network.nodes[0]!
  const nodeId = node.nodeId
  let log: ((error: unknown) => void) | undefined
  const dispatcher = createEvmDispatcher({ methods: options.evmMethods, onError: (error) => log?.(error) })
  // The node's HTTP router decides what `/ext/<path>` serves (aliases of endpoints and chains, on
  // this node only): requests are rewritten to the canonical path before fastify routes them.
  const rewrite = (url: string) => rewriteByAliases(node, url)
  const fastRpc = createFastRpcHandler({ network, dispatcher, nodeId, bodyLimit: ETH_MAX_REQUEST_BYTES, rewrite, accepting: () => !node.bootstrapping })
  const app = Fastify({
    logger: options.logger ?? false,
    rewriteUrl: (req) => rewrite(req.url ?? '/'),
    // JSON-RPC POSTs take the fast path; everything else is routed by fastify.
    serverFactory: (handler) => createHttpServer((req, res) => fastRpc(req, res) || handler(req, res)),
  })
  log = (error) => app.log.debug({ err: error }, 'eth method failed')

  const listenAddress = { host: options.host ?? DEFAULT_HOST, port: options.port ?? DEFAULT_PORT }
  app.decorate('listenAddress', listenAddress)
  // The node reports the address it listens on (admin.getConfig, its staking port): the bound
  // port, which differs from the one asked for when that was 0.
  app.server.on('listening', () => {
    const address = app.server.address()
    if (address !== null && typeof address !== 'string') node.serving({ host: listenAddress.host, port: address.port })
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('node-id', nodeId)
    if (answerCors(request, reply)) return reply.code(200).send()
    // avalanchego's rejectMiddleware: a chain's APIs refuse calls until it is bootstrapped.
    if (node.bootstrapping && request.url.startsWith('/ext/bc/'))
      return sendGoError(reply, 503, 'API call rejected because chain is not done bootstrapping\n')
    return undefined
  })
  app.setNotFoundHandler((_request, reply) => sendGoError(reply, 404, '404 page not found\n'))

  app.register(fastifyWebsocket, {
    options: { maxPayload: WS_MAX_MESSAGE_BYTES },
    // A node going down drops its sockets; waiting for close handshakes would keep the process alive.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.terminate()
      this.websocketServer.close(() => done())
    },
  })
  app.register(evmRoutes, { network, dispatcher })
  app.register(nodeRoutes, { network, node })
  // The /v1 data API, fed by the network's indexers (shared by every node's server).
  app.register(dataRoutes, networkDataRoutes(network))
  return app as unknown as L1simServer
}

/** The /v1 data API of a network, as every node's server and the data API's own port register it (same budgets, same page-token key). */
export function networkDataRoutes(network: Network): DataRoutesOptions {
  return { source: networkDataSource(network), network, routes: [evmDataRoutes(network), moreEvmDataRoutes(network), primaryDataRoutes(network), primaryTxRoutes(network)] }
}

/** `/ext/<path>` as the node's router maps it (`/ext/C/rpc` → `/ext/bc/<C id>/rpc`); other URLs unchanged. */
export function rewriteByAliases(node: SimNode, url: string): string {
  if (!url.startsWith('/ext/')) return url
  const q = url.indexOf('?')
  const path = q < 0 ? url.slice(5) : url.slice(5, q)
  const target = node.aliases.lookupRoute(path)
  if (target === undefined || target === path) return url
  return `/ext/${target}${q < 0 ? '' : url.slice(q)}`
}

/** Starts listening at the server's {@link L1simServer.listenAddress}; returns the base URL. */
export async function listenServer(server: L1simServer): Promise<string> {
  await server.listen(server.listenAddress)
  const address = server.server.address()
  if (address === null || typeof address === 'string') throw new Error(`unexpected server address ${String(address)}`)
  return `http://${urlHost(server.listenAddress.host)}:${address.port}`
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

// --- rs/cors v1.7.0 with AllowedOrigins ["*"], AllowCredentials true, default methods and headers ---

const CORS_METHODS = new Set(['GET', 'POST', 'HEAD', 'OPTIONS'])
const CORS_HEADERS = new Set(['Origin', 'Accept', 'Content-Type', 'X-Requested-With'])

/**
 * Adds the CORS headers rs/cors adds; true when the request was a preflight, which rs/cors
 * answers itself with 200 and no body, whatever the path.
 */
function answerCors(request: FastifyRequest, reply: FastifyReply): boolean {
  const origin = header(request, 'origin')
  const requestedMethod = header(request, 'access-control-request-method')
  if (request.method === 'OPTIONS' && requestedMethod !== '') {
    reply.header('vary', ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers'])
    const requestedHeaders = parseHeaderList(header(request, 'access-control-request-headers'))
    if (origin === '' || !CORS_METHODS.has(requestedMethod.toUpperCase())) return true
    if (!requestedHeaders.every((h) => CORS_HEADERS.has(h))) return true
    reply.header('access-control-allow-origin', '*')
    reply.header('access-control-allow-methods', requestedMethod.toUpperCase())
    if (requestedHeaders.length > 0) reply.header('access-control-allow-headers', requestedHeaders.join(', '))
    reply.header('access-control-allow-credentials', 'true')
    return true
  }
  reply.header('vary', 'Origin')
  if (origin !== '' && CORS_METHODS.has(request.method.toUpperCase())) {
    reply.header('access-control-allow-origin', '*')
    reply.header('access-control-allow-credentials', 'true')
  }
  return false
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? ''
}

/** rs/cors `parseHeaderList`: names canonicalised (`content-type` → `Content-Type`), split on spaces and commas. */
function parseHeaderList(list: string): string[] {
  return list
    .split(/[ ,]+/)
    .map((name) => name.replace(/[^A-Za-z0-9_-]/g, ''))
    .filter((name) => name !== '')
    .map((name) => name.toLowerCase().replace(/(^|[-_])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase()))
}
