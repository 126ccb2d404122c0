/**
 * The HTTP server of a network: one fastify instance with one plugin per protocol (the EVM
 * JSON-RPC and WebSocket routes, the node's APIs, the /v1 data API), wrapped the way avalanchego's
 * `api/server/server.go` `wrapHandler` wraps every route: the `node-id` header on every response,
 * then CORS (`cors.ts`, rs/cors with the allowed origins), then the Host filter
 * (`allowedHosts.ts`), then the router, whose misses are Go's `404 page not found`.
 */
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify'
import { resolve } from 'node:path'
import type { Network } from '../network/network.js'
import type { SimNode } from '../network/node.js'
import type { EthContext } from '../rpc/context.js'
import type { RpcMethod } from '../rpc/dispatcher.js'
import { createServer as createHttpServer, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { ETH_MAX_REQUEST_BYTES } from '../rpc/dispatcher.js'
import { createHostFilter, DEFAULT_ALLOWED_HOSTS, INVALID_HOST } from './allowedHosts.js'
import { createCorsPolicy, DEFAULT_ALLOWED_ORIGINS } from './cors.js'
import { createFastRpcHandler } from './fastRpc.js'
import { createEvmDispatcher, sendGoError } from './routes/evm.js'

export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 9650
/** Where `sim.saveSnapshot` writes, relative to the working directory the server starts in. */
export const DEFAULT_SNAPSHOT_DIR = 'snapshots'
export { DEFAULT_ALLOWED_HOSTS } from './allowedHosts.js'
export { DEFAULT_ALLOWED_ORIGINS } from './cors.js'

/**
 * What a server exposes, and to whom. These belong to the server, not to the network: a snapshot
 * or scenario file never carries them, so loading one cannot widen access.
 */
export type HttpAccessOptions = {
  /**
   * avalanchego's `--http-allowed-hosts`: the Host names requests may carry (default `localhost`;
   * the name the server is bound to is always allowed, IP addresses and a missing Host always are;
   * `*` allows any). Any other gets `403 invalid host specified`: this stops DNS rebinding.
   */
  allowedHosts?: readonly string[]
  /**
   * avalanchego's `--http-allowed-origins`: origins browsers may call from (CORS, and the EVM
   * WebSocket's handshake). Default `*`, every origin, answered without credentials; a listed
   * origin (`https://app.example`, `https://*.example`) is echoed with credentials.
   */
  allowedOrigins?: readonly string[]
  /** Serve the network-control service `/ext/sim` (default true); false answers it 404, like a disabled API on a node. */
  apiSimEnabled?: boolean
  /**
   * The directory `sim.saveSnapshot` writes in (default `snapshots` under the working directory,
   * made on the first save): a relative path is taken from it, and a path that leaves it (`..`,
   * an absolute path elsewhere, a symbolic link out) is refused. `network.save` is not limited.
   */
  snapshotDir?: string
}

export type ServerOptions = HttpAccessOptions & {
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
  /**
   * Build the routes on the first request rather than before listening: {@link listenServer} then
   * binds the port at once; JSON-RPC POSTs are served by the fast path
   * (`fastRpc.ts`) without them, and any other request waits for them, then is served as by an
   * eager server. `startDevnet` serves every node this way: registering the nodes' routes was a
   * third of a cold start, and a test suite on the EVM RPC never needs them. Not with host `localhost`
   * (fastify binds both of its addresses, a plain listen only one).
   */
  lazyRoutes?: boolean
}

export type L1simServer = FastifyInstance & {
  /** The address given to {@link createServer}, with avalanchego's defaults filled in. */
  readonly listenAddress: { host: string; port: number }
  /** The access settings it serves with, defaults filled in (`snapshotDir` absolute). */
  readonly access: Required<HttpAccessOptions>
  /** Whether {@link listenServer} binds before the routes are built ({@link ServerOptions.lazyRoutes}). */
  readonly lazyRoutes: boolean
  /** Whether the routes are built or being built (always, once listening, without `lazyRoutes`). */
  readonly routesStarted: boolean
}

export function createServer(options: ServerOptions): L1simServer {
  const { network } = options
  const node = options.node ?? network.nodes[0]!
  const nodeId = node.nodeId
  const listenAddress = { host: options.host ?? DEFAULT_HOST, port: options.port ?? DEFAULT_PORT }
  const access: Required<HttpAccessOptions> = {
    allowedHosts: options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS,
    allowedOrigins: options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS,
    apiSimEnabled: options.apiSimEnabled ?? true,
    snapshotDir: resolve(options.snapshotDir ?? DEFAULT_SNAPSHOT_DIR),
  }
  const cors = createCorsPolicy(access.allowedOrigins)
  const hostAllowed = createHostFilter(access.allowedHosts, listenAddress.host)
  let log: ((error: unknown) => void) | undefined
  const dispatcher = createEvmDispatcher({ methods: options.evmMethods, onError: (error) => log?.(error) })
  // The node's HTTP router decides what `/ext/<path>` serves (aliases of endpoints and chains, on
  // this node only): requests are rewritten to the canonical path before fastify routes them.
  const rewrite = (url: string) => rewriteByAliases(node, url)
  const fastRpc = createFastRpcHandler({
    network,
    dispatcher,
    nodeId,
    bodyLimit: ETH_MAX_REQUEST_BYTES,
    rewrite,
    cors,
    // A refused Host and a bootstrapping node are answered by fastify.
    accepting: (req) => !node.bootstrapping && hostAllowed(req.headers.host),
  })
  const lazyRoutes = options.lazyRoutes === true && listenAddress.host !== 'localhost'
  // Until the routes are built (lazyRoutes), requests and WebSocket handshakes wait for them.
  let routed = !lazyRoutes
  let routing: Promise<void> | undefined
  const route = () => (routing ??= Promise.resolve(app.ready()).then(() => {
    routed = true
    app.server.off('upgrade', upgradeWhenRouted)
  }))
  function upgradeWhenRouted(req: IncomingMessage, socket: Duplex, head: Buffer) {
    // @fastify/websocket listens for handshakes once its plugin is registered: handed back then.
    route().then(() => app.server.emit('upgrade', req, socket, head), () => socket.destroy())
  }
  const app = Fastify({
    logger: options.logger ?? false,
    rewriteUrl: (req) => rewrite(req.url ?? '/'),
    // JSON-RPC POSTs take the fast path; everything else is routed by fastify.
    serverFactory: (handler) =>
      createHttpServer((req, res) => {
        if (fastRpc(req, res)) return
        if (routed) return handler(req, res)
        // The body stays in the socket until read: the request is served whole once routed.
        route().then(() => handler(req, res), () => res.destroy())
      }),
  })
  if (lazyRoutes) {
    app.server.on('upgrade', upgradeWhenRouted)
    // fastify closes a server from a serverFactory only when it bound it itself.
    app.addHook('onClose', (_instance, done) => {
      if (!app.server.listening) return done()
      app.server.closeIdleConnections()
      app.server.close(() => done())
    })
  }
  log = (error) => app.log.debug({ err: error }, 'eth method failed')

  app.decorate('listenAddress', listenAddress)
  app.decorate('access', access)
  app.decorate('lazyRoutes', lazyRoutes)
  app.decorate('routesStarted', { getter: () => routing !== undefined || app.server.listening && !lazyRoutes })
  // The node reports the address it listens on (admin.getConfig, its staking port): the bound
  // port, which differs from the one asked for when that was 0.
  app.server.on('listening', () => {
    const address = app.server.address()
    if (address !== null && typeof address !== 'string') node.serving({ host: listenAddress.host, port: address.port })
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('node-id', nodeId)
    const origin = request.headers.origin
    const requestedMethod = request.headers['access-control-request-method']
    // rs/cors answers a preflight itself, before the Host filter it wraps.
    if (request.method === 'OPTIONS' && requestedMethod) {
      reply.headers(cors.preflight(origin, requestedMethod, request.headers['access-control-request-headers']))
      return reply.code(200).send()
    }
    reply.headers(cors.actual(request.method, origin))
    if (!hostAllowed(request.headers.host)) return sendGoError(reply, INVALID_HOST.status, INVALID_HOST.body)
    // avalanchego's rejectMiddleware: a chain's APIs refuse calls until it is bootstrapped.
    if (node.bootstrapping && request.url.startsWith('/ext/bc/'))
      return sendGoError(reply, 503, 'API call rejected because chain is not done bootstrapping\n')
    return undefined
  })
  // A WebSocket handshake refused above never met the WebSocket plugin's own hook, which closes
  // the socket of the handshakes it did not upgrade: the socket would outlive the answer (and hold
  // `close()` up).
  app.addHook('onResponse', async (request) => {
    if (request.headers.upgrade !== undefined && /\bupgrade\b/i.test(request.headers.connection ?? '') && !request.ws) request.raw.socket.destroy()
  })
  app.setNotFoundHandler((_request, reply) => sendGoError(reply, 404, '404 page not found\n'))

  // The route plugins load when the routes are built (see routes/index.ts), from a plugin that
  // skips fastify's encapsulation (as fastify-plugin marks one), so they register as the server's own.
  const routes: FastifyPluginAsync = async (instance) => {
    const { registerServerRoutes } = await import('./routes/index.js')
    registerServerRoutes(instance, { network, node, dispatcher, allowsOrigin: cors.allowsOrigin, apiSimEnabled: access.apiSimEnabled, snapshotDir: access.snapshotDir })
  }
  app.register(Object.assign(routes, { [Symbol.for('skip-override')]: true }))
  return app as unknown as L1simServer
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
  if (server.lazyRoutes) {
    // Bound now (a taken port fails here, with node's error); routed on the first request.
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => reject(error)
      server.server.once('error', failed)
      server.server.listen(server.listenAddress, () => {
        server.server.off('error', failed)
        resolve()
      })
    })
  } else await server.listen(server.listenAddress)
  const address = server.server.address()
  if (address === null || typeof address === 'string') throw new Error(`unexpected server address ${String(address)}`)
  return `http://${urlHost(server.listenAddress.host)}:${address.port}`
}

/**
 * Stops a server. One whose routes were never built ({@link ServerOptions.lazyRoutes}) only
 * unbinds: fastify's `close()` would first build them (its plugins load before they can close).
 */
export async function closeServer(server: L1simServer): Promise<void> {
  if (!server.lazyRoutes || server.routesStarted) return server.close()
  if (!server.server.listening) return
  server.server.closeIdleConnections()
  await new Promise<void>((resolve) => server.server.close(() => resolve()))
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}
