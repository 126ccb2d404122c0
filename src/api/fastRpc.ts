import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Network } from '../network/network.js'
import type { EthContext } from '../rpc/context.js'
import { ETH_HTTP, type EthDispatcher } from '../rpc/dispatcher.js'
import type { CorsPolicy } from './cors.js'
import { parseMediaType, readBody } from './routes/evm.js'

const RPC_PATH = /^\/ext\/(?:bc\/([^/?]+)|([^/?]+))\/rpc(?:\?|$)/

/**
 * The hot path of the EVM endpoint, served before fastify routes the request: a POST to
 * `/ext/bc/<chain>/rpc` (or `/ext/<alias>/rpc`) with an accepted content type and a declared
 * length within the limit. That is every request a client library sends, and it gets the same
 * answer and headers the fastify route gives (node-id, CORS, geth's bare `application/json`),
 * about 0.1 ms sooner. Anything else — other methods, chunked or oversized bodies, wrong content
 * types, unknown chains, preflights, refused Hosts — returns false and goes through fastify,
 * which owns every refusal.
 */
export function createFastRpcHandler(options: {
  network: Network
  dispatcher: EthDispatcher<EthContext>
  nodeId: string
  bodyLimit: number
  /** The node's alias routing (see `rewriteByAliases`). */
  rewrite?: (url: string) => string
  /** The server's CORS policy: the same headers fastify's hook gives. */
  cors: CorsPolicy
  /** False when fastify must answer instead (a refused Host, a bootstrapping node). */
  accepting?: (req: IncomingMessage) => boolean
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { network, dispatcher, nodeId, bodyLimit, cors } = options
  return (req, res) => {
    if (req.method !== 'POST') return false
    if (options.accepting && !options.accepting(req)) return false
    const url = req.url ?? ''
    const match = RPC_PATH.exec(options.rewrite ? options.rewrite(url) : url)
    if (!match) return false
    // Only `bc/` takes a blockchain id; the short form takes aliases (C, evm).
    const id = match[1] ?? match[2]!
    const chain = match[1] !== undefined || id !== network.preset.cChainId ? network.chain(id) : undefined
    if (!chain) return false
    const { headers } = req
    if (headers['transfer-encoding'] !== undefined || headers['content-length'] === undefined) return false
    if (Number(headers['content-length']) > bodyLimit) return false
    const contentType = headers['content-type'] ?? ''
    // What client libraries send, accepted without parsing it.
    if (contentType !== 'application/json') {
      const mediaType = parseMediaType(contentType)
      if (mediaType === undefined || !(ETH_HTTP.acceptedContentTypes as readonly string[]).includes(mediaType)) return false
    }

    void readBody(req, bodyLimit)
      .then((body) => dispatcher.handleBytes(body, { network, chain, subscriptions: undefined }))
      .then((payload) => {
        res.writeHead(200, {
          'node-id': nodeId,
          ...cors.actual('POST', headers.origin),
          'content-type': ETH_HTTP.contentType,
          'content-length': payload.length,
        })
        res.end(payload)
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'node-id': nodeId })
        res.end(`${(error as Error).message}\n`)
      })
    return true
  }
}
