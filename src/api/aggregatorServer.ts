/**
 * Side services on ports of their own, next to the nodes: icm-services' signature-aggregator
 * (`signatureAggregatorPort`; the real service listens on 8080 by default), `POST
 * /aggregate-signatures` only, and icm-relayer's API (`relayerPort`); any other path Go's `404
 * page not found`. The nodes' Host filter (`allowedHosts`, and the host it
 * binds to) and CORS (`allowedOrigins`) apply to it as to every node route.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import type { Network } from '../network/network.js'
import { createHostFilter, INVALID_HOST } from './allowedHosts.js'
import { createCorsPolicy } from './cors.js'
import { aggregatorRoutes } from './routes/aggregator.js'
import { relayerRoutes } from './routes/relayer.js'
import { sendGoError } from './routes/evm.js'
import { DEFAULT_HOST } from './server.js'

export type StandaloneServerOptions = { host?: string; allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] }

export function createSignatureAggregatorServer(network: Network, options: StandaloneServerOptions = {}): FastifyInstance {
  const app = createStandaloneServer(options)
  app.register(aggregatorRoutes, { network })
  return app
}

/**
 * icm-relayer's API server (`/relay`, `/relay/message`, `/health`) on a port of its own (the real
 * relayer's `api-port`, 8080 by default), with the same Host filter, CORS and Go 404 as the aggregator's.
 */
export function createRelayerServer(network: Network, options: StandaloneServerOptions = {}): FastifyInstance {
  const app = createStandaloneServer(options)
  app.register(relayerRoutes, { network })
  return app
}

/** A fastify app with the nodes' Host filter and CORS, and Go's `404 page not found` for any other path. */
function createStandaloneServer(options: StandaloneServerOptions): FastifyInstance {
  const app = Fastify({ logger: false })
  const hostAllowed = createHostFilter(options.allowedHosts, options.host ?? DEFAULT_HOST)
  const cors = createCorsPolicy(options.allowedOrigins)
  app.addHook('onRequest', async (request, reply) => {
    const requestedMethod = request.headers['access-control-request-method']
    if (request.method === 'OPTIONS' && requestedMethod) {
      reply.headers(cors.preflight(request.headers.origin, requestedMethod, request.headers['access-control-request-headers']))
      return reply.code(200).send()
    }
    reply.headers(cors.actual(request.method, request.headers.origin))
    if (!hostAllowed(request.headers.host)) return sendGoError(reply, INVALID_HOST.status, INVALID_HOST.body)
    return undefined
  })
  app.setNotFoundHandler((_request, reply) => sendGoError(reply, 404, '404 page not found\n'))
  return app
}
