/**
 * Every route plugin of a node's server, in the order `createServer` registers them. Imported when
 * the server's routes are built (`app.ready()`, on the first request the JSON-RPC fast path does
 * not take with `lazyRoutes`), not with the server: the WebSocket server, the node's APIs, the
 * aggregator's and relayer's APIs and the /v1 data API with its OpenAPI document are about a
 * tenth of a cold start to load, and a start answers eth JSON-RPC without them.
 */
import fastifyWebsocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import type { Network } from '../../network/network.js'
import type { SimNode } from '../../network/node.js'
import type { EthContext } from '../../rpc/context.js'
import type { EthDispatcher } from '../../rpc/dispatcher.js'
import { aggregatorRoutes } from './aggregator.js'
import { dataRoutes, type DataRoutesOptions } from './data/index.js'
import { evmDataRoutes } from './data/evm/index.js'
import { moreEvmDataRoutes } from './data/evm/more.js'
import { icmDataRoutes } from './data/icm/index.js'
import { networkDataSource } from './data/networkSource.js'
import { primaryDataRoutes } from './data/primary/index.js'
import { primaryTxRoutes } from './data/primary/utxosAndTxs.js'
import { signatureAggregatorDataRoutes } from './data/signatureAggregator.js'
import { evmRoutes, WS_MAX_MESSAGE_BYTES } from './evm.js'
import { nodeRoutes } from './node.js'
import { RELAYER_PREFIX, relayerRoutes } from './relayer.js'

export type ServerRoutesOptions = {
  network: Network
  node: SimNode
  dispatcher: EthDispatcher<EthContext>
  /** The server's CORS policy's origin check (the EVM WebSocket's handshake). */
  allowsOrigin: (origin: string) => boolean
  apiSimEnabled: boolean
  snapshotDir: string
}

/** Registers the node's routes on `app` (from a plugin that does not encapsulate, so they are the server's own). */
export function registerServerRoutes(app: FastifyInstance, options: ServerRoutesOptions): void {
  const { network, node, dispatcher } = options
  app.register(fastifyWebsocket, {
    options: { maxPayload: WS_MAX_MESSAGE_BYTES },
    // A node going down drops its sockets; waiting for close handshakes would keep the process alive.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.terminate()
      this.websocketServer.close(() => done())
    },
  })
  app.register(evmRoutes, { network, dispatcher, allowsOrigin: options.allowsOrigin })
  app.register(nodeRoutes, { network, node, apiSimEnabled: options.apiSimEnabled, snapshotDir: options.snapshotDir })
  // icm-services' signature-aggregator API, at the path it serves on its own port.
  app.register(aggregatorRoutes, { network })
  // icm-relayer's API for the built-in relayer, under a prefix (its own port serves it at the root).
  app.register(relayerRoutes, { network, prefix: RELAYER_PREFIX })
  // The /v1 data API, fed by the network's indexers (shared by every node's server).
  app.register(dataRoutes, networkDataRoutes(network))
}

/** The /v1 data API of a network, as every node's server and the data API's own port register it (same budgets, same page-token key). */
export function networkDataRoutes(network: Network): DataRoutesOptions {
  return { source: networkDataSource(network), network, routes: [evmDataRoutes(network), moreEvmDataRoutes(network), primaryDataRoutes(network), primaryTxRoutes(network), icmDataRoutes(network), signatureAggregatorDataRoutes(network)] }
}
