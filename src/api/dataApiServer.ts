import Fastify, { type FastifyInstance } from 'fastify'
import type { Network } from '../network/network.js'
import { createHostFilter, INVALID_HOST } from './allowedHosts.js'
import { dataRoutes, errorBody, sendDataError } from './routes/data/index.js'
import { networkDataRoutes } from './routes/index.js'
import { DEFAULT_HOST } from './server.js'

/**
 * A server with the /v1 data API only (what `dataApi.port` starts): the same source, budgets and
 * page-token key as every node's /v1, so a page token from one works on the other. Anything else
 * is a 404 in the data API's error shape. Requests pass the nodes' Host filter (`allowedHosts`,
 * and the `host` it binds to), refused in that shape too.
 */
export function createDataApiServer(network: Network, options: { host?: string; allowedHosts?: readonly string[] } = {}): FastifyInstance {
  const app = Fastify({ logger: false })
  const hostAllowed = createHostFilter(options.allowedHosts, options.host ?? DEFAULT_HOST)
  app.addHook('onRequest', async (request, reply) => {
    if (!hostAllowed(request.headers.host)) return sendDataError(reply, INVALID_HOST.status, INVALID_HOST.body.trim())
    return undefined
  })
  app.register(dataRoutes, networkDataRoutes(network))
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `Cannot ${request.method} ${request.url.split('?')[0] ?? request.url}`))
  })
  return app
}
