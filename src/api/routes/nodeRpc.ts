/**
 * A gorilla/rpc v2 endpoint on fastify: the HTTP half of `Server.ServeHTTP` (the JSON-RPC half is
 * `createNodeDispatcher`). In order:
 * - a method other than POST: 405 `rpc: POST method required, received GET`;
 * - the Content-Type up to its first `;`, lower-cased, must be `application/json` (avalanchego's
 *   second codec, `application/json;charset=utf-8`, can never match, and with two codecs a missing
 *   header is not defaulted): else 415 `rpc: unrecognized Content-Type: <type as sent>`;
 * - otherwise 200 whatever the JSON-RPC outcome.
 * gorilla's `WriteError` writes the refusals as `text/plain; charset=utf-8` with no trailing
 * newline and no `x-content-type-options` (unlike Go's `http.Error`). Answers are
 * `application/json; charset=utf-8`; `x-content-type-options: nosniff` is set once the method has
 * run. A notification's answer is 200 with an empty body and no Content-Type.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { NodeDispatcher } from '../../rpc/node/dispatcher.js'
import { readBody } from './evm.js'

export const NODE_RPC_HTTP = {
  /** The one media type the node's codecs accept. */
  acceptedContentType: 'application/json',
  /** Content-Type of every JSON-RPC answer. */
  contentType: 'application/json; charset=utf-8',
  /** Content-Type of the 405 and 415 refusals (gorilla `rpc.WriteError`). */
  errorContentType: 'text/plain; charset=utf-8',
  methodNotAllowed: { status: 405, body: (method: string) => `rpc: POST method required, received ${method}` },
  /** `type` is the header up to its first `;`, as sent ('' when there is none): note the space before it. */
  unsupportedMediaType: { status: 415, body: (type: string) => `rpc: unrecognized Content-Type: ${type}` },
} as const

/**
 * No body limit in avalanchego's API server; this one only bounds memory. A longer body is cut
 * here (and then fails to parse).
 */
export const NODE_RPC_MAX_REQUEST_BYTES = 64 * 1024 * 1024

/**
 * gorilla's checks before the codec runs: the refusal to write for this method and Content-Type
 * header, or undefined when the request goes on to the dispatcher.
 */
export function nodeRpcRefusal(method: string, contentTypeHeader: string | undefined): { status: number; body: string } | undefined {
  if (method !== 'POST') return { status: NODE_RPC_HTTP.methodNotAllowed.status, body: NODE_RPC_HTTP.methodNotAllowed.body(method) }
  let contentType = contentTypeHeader ?? ''
  const semicolon = contentType.indexOf(';')
  if (semicolon >= 0) contentType = contentType.slice(0, semicolon)
  if (contentType.toLowerCase() !== NODE_RPC_HTTP.acceptedContentType) {
    return { status: NODE_RPC_HTTP.unsupportedMediaType.status, body: NODE_RPC_HTTP.unsupportedMediaType.body(contentType) }
  }
  return undefined
}

/** Writes a refusal as gorilla's `rpc.WriteError` does. */
export function sendNodeRpcRefusal(reply: FastifyReply, refusal: { status: number; body: string }): FastifyReply {
  return reply.code(refusal.status).header('content-type', NODE_RPC_HTTP.errorContentType).send(refusal.body)
}

/**
 * Serves one request end to end (refusals included). The body must not have been parsed by
 * fastify: the route's scope needs a content-type parser that keeps it as a string (as
 * {@link nodeRpcRoute} sets up).
 */
export async function serveNodeRpc<C>(
  request: FastifyRequest,
  reply: FastifyReply,
  dispatcher: NodeDispatcher<C>,
  ctx: C,
): Promise<FastifyReply> {
  const refusal = nodeRpcRefusal(request.method, request.headers['content-type'])
  if (refusal) return sendNodeRpcRefusal(reply, refusal)
  const body = requestBody(request)
  const answer = await dispatcher.handle(body, ctx)
  reply.code(200)
  if (answer.nosniff) reply.header('x-content-type-options', 'nosniff')
  if (answer.body === '') return reply.send()
  return reply.header('content-type', NODE_RPC_HTTP.contentType).send(answer.body)
}

function requestBody(request: FastifyRequest): string {
  const { body } = request
  if (typeof body === 'string') return body
  // fastify runs no parser for a request without a body (no Content-Length, not chunked).
  if (body === undefined || body === null) return ''
  throw new TypeError('node JSON-RPC route: the body was parsed by fastify; register the route through nodeRpcRoute')
}

export type NodeRpcRouteOptions<C> = {
  /** The endpoint's path, e.g. `/ext/admin` (exact: a trailing slash is a 404 as in gorilla/mux). */
  url: string
  dispatcher: NodeDispatcher<C>
  /** The dispatcher context for a request. */
  context: (request: FastifyRequest) => C
  /** See {@link NODE_RPC_MAX_REQUEST_BYTES}. */
  bodyLimit?: number
}

/**
 * A fastify plugin serving one gorilla endpoint at `url` for every HTTP method, in its own scope
 * with a content-type parser that hands every body over as a string. The 405 and 415 checks run
 * in `onRequest`, before the body is read, as in Go.
 * @example app.register(nodeRpcRoute({ url: '/ext/admin', dispatcher, context: () => ({ network }) }))
 */
export function nodeRpcRoute<C>(options: NodeRpcRouteOptions<C>): FastifyPluginAsync {
  const bodyLimit = options.bodyLimit ?? NODE_RPC_MAX_REQUEST_BYTES
  return async (app) => {
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', (_request, payload, done) => {
      readBody(payload, bodyLimit).then((body) => done(null, body), done)
    })
    app.route({
      method: app.supportedMethods,
      url: options.url,
      exposeHeadRoute: false,
      onRequest: async (request, reply) => {
        const refusal = nodeRpcRefusal(request.method, request.headers['content-type'])
        if (refusal) return sendNodeRpcRefusal(reply, refusal)
        return undefined
      },
      handler: (request, reply) => serveNodeRpc(request, reply, options.dispatcher, options.context(request)),
    })
  }
}
