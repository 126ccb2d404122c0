/**
 * The library entry. `startDevnet()` is the one-call start for integration tests: a network and
 * its HTTP server on a port (0 for a free one); `createNetwork()` gives the network alone, to
 * drive in-process or to serve with `createServer()`.
 *
 * @example
 * const devnet = await startDevnet({ port: 0 })
 * const client = createPublicClient({ transport: http(devnet.rpcUrl()) })
 * // …
 * await devnet.close()
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { createServer, DEFAULT_HOST, DEFAULT_PORT, listenServer, networkDataRoutes, type L1simServer } from './api/server.js'
import { dataRoutes, errorBody } from './api/routes/data/index.js'
import { createNetwork, type Network, type NetworkOptions } from './network/network.js'

export { createNetwork, DEFAULT_DEV_BALANCE, Network, type NetworkOptions } from './network/network.js'
export { SimNode, type NodeOptions } from './network/node.js'
export type { Fault, FaultState } from './network/faults.js'
export { NETWORK_PRESETS, type NetworkPreset, type NetworkPresetName } from './network/presets.js'
export { createServer, DEFAULT_HOST, DEFAULT_PORT, type L1simServer, type ServerOptions } from './api/server.js'
export type { DataApiOptions, RateBudget, RateLimitOptions, RateTierName } from './api/routes/data/config.js'
export { DEFAULT_MNEMONIC, type DevAccount, type NodeIdentity } from './core/keys.js'
export type { ClockMode, ClockOptions } from './core/clock.js'
export type { EvmChain, MiningMode } from './evm/chain.js'
export type { Hex } from './core/hex.js'
export type { L1, L1Options } from './network/l1.js'
export { ValidatorRegistry, type ValidatorEntry } from './network/validators.js'
export { signWarpMessage, findWarpMessage, warpMessageId, type SignWarpOptions } from './network/warp.js'
export { packPredicate, packPredicateHex, WARP_ADDRESS } from './evm/warp/predicate.js'
export { parseUnsignedMessage, parseMessage } from './evm/warp/codec.js'

export type DevnetOptions = NetworkOptions & {
  /** Default `127.0.0.1`. */
  host?: string
  /** Node 0's port, default 9650; node i listens on port + 2i (9652, 9654, …), as avalanchego nodes side by side. 0 gives every node a free port (what tests should use). */
  port?: number
}

/** One simulated node's server. */
export type DevnetNode = {
  index: number
  nodeId: string
  /** `http://HOST:PORT` of this node. */
  url: string
  server: L1simServer
}

export type Devnet = {
  /** Node 0's `http://HOST:PORT`, with the port actually bound. */
  url: string
  /** `http://HOST:PORT/ext/bc/<chain>/rpc` on node 0; `chain` is an alias or blockchain id, `C` by default. */
  rpcUrl(chain?: string): string
  /** `ws://HOST:PORT/ext/bc/<chain>/ws` on node 0. */
  wsUrl(chain?: string): string
  /** Every node's server: each serves every chain, with its own NodeID, aliases, admin state and health. */
  nodes: DevnetNode[]
  network: Network
  /** Node 0's server. */
  server: L1simServer
  /** `http://HOST:PORT` of the data API's own server (only /v1), when `dataApi.port` was given. */
  dataApiUrl?: string
  /** Closes client sockets, every server and the network's timers; safe to call twice. */
  close(): Promise<void>
}

/** Creates a network and serves every node over HTTP and WebSocket; resolves once every port is bound. */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const { host = DEFAULT_HOST, port = DEFAULT_PORT, ...networkOptions } = options
  const network = await createNetwork(networkOptions)
  const servers = network.nodes.map((node) => createServer({ network, node, host, port: port === 0 ? 0 : port + 2 * node.index }))
  // Every server to close: the nodes' and, when asked for, the data API's own.
  const toClose: FastifyInstance[] = [...servers]
  const nodes: DevnetNode[] = []
  let dataApiUrl: string | undefined
  try {
    for (const [index, server] of servers.entries()) {
      const url = await listenServer(server)
      const node = network.nodes[index]!
      node.httpPort = Number(new URL(url).port)
      nodes.push({ index, nodeId: node.nodeId, url, server })
    }
    if (network.dataApi.port !== undefined) {
      const dataServer = createDataApiServer(network)
      toClose.push(dataServer)
      await dataServer.listen({ host, port: network.dataApi.port })
      const address = dataServer.server.address()
      if (address === null || typeof address === 'string') throw new Error(`unexpected data API server address ${String(address)}`)
      dataApiUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
    }
  } catch (error) {
    for (const server of toClose) await server.close()
    await network.close()
    throw error
  }
  const url = nodes[0]!.url
  const wsBase = url.replace(/^http/, 'ws')
  let closing: Promise<void> | undefined
  return {
    url,
    rpcUrl: (chain = 'C') => `${url}/ext/bc/${chain}/rpc`,
    wsUrl: (chain = 'C') => `${wsBase}/ext/bc/${chain}/ws`,
    nodes,
    network,
    server: nodes[0]!.server,
    ...(dataApiUrl === undefined ? {} : { dataApiUrl }),
    close: () =>
      (closing ??= (async () => {
        for (const server of toClose) await server.close()
        await network.close()
        // Closed handles are released in the loop's close phase; two turns, and none is left.
        for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve))
      })()),
  }
}

/**
 * A server with the /v1 data API only (what `dataApi.port` starts): the same source, budgets and
 * page-token key as every node's /v1, so a page token from one works on the other. Anything else
 * is a 404 in the data API's error shape.
 */
export function createDataApiServer(network: Network): FastifyInstance {
  const app = Fastify({ logger: false })
  app.register(dataRoutes, networkDataRoutes(network))
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `Cannot ${request.method} ${request.url.split('?')[0] ?? request.url}`))
  })
  return app
}

export { createEIP1193Provider, ProviderRPCError, type EIP1193Provider } from './rpc/provider.js'
