/**
 * The EVM endpoints of every EVM chain: `POST /ext/bc/<chain>/rpc` and the WebSocket at
 * `/ext/bc/<chain>/ws`, also under the HTTP aliases `/ext/C/…` and `/ext/evm/…`. What happens
 * before the JSON is read follows geth's `Server.ServeHTTP` / `validateRequest` (coreth's copy,
 * avalanchego `graft/evm/rpc/http.go`) and gorilla/websocket's `Upgrader`; the JSON-RPC itself is
 * the dispatcher's.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { Readable } from 'node:stream'
import type { WebSocket } from 'ws'
import type { EvmChain } from '../../evm/chain.js'
import type { Network } from '../../network/network.js'
import type { EthContext } from '../../rpc/context.js'
import { createEthDispatcher, ETH_HTTP, ETH_MAX_REQUEST_BYTES, parseJSONBody, type EthDispatcher, type RpcMethod } from '../../rpc/dispatcher.js'
import { createEthMethods } from '../../rpc/methods/index.js'
import { createSubscriptionRegistry, eth_subscribe, eth_unsubscribe } from '../../rpc/subscriptions.js'

export type EvmRoutesOptions = {
  network: Network
  /** The dispatcher of the EVM endpoints ({@link createEvmDispatcher}), shared with the fast path. */
  dispatcher: EthDispatcher<EthContext>
  /** Body limit in bytes (coreth `http-body-limit`); geth's 5 MiB by default. */
  bodyLimit?: number
  /** The server's allowed origins, asked by the WebSocket handshake; every origin by default. */
  allowsOrigin?: (origin: string) => boolean
}

/** The EVM endpoints' dispatcher: the method table (the full set by default) plus subscriptions. */
export function createEvmDispatcher(options: {
  methods?: Record<string, RpcMethod<any, any, EthContext>>
  onError?: (error: unknown) => void
}): EthDispatcher<EthContext> {
  return createEthDispatcher<EthContext>({
    methods: { ...(options.methods ?? createEthMethods()), eth_subscribe, eth_unsubscribe },
    onError: options.onError,
  })
}

/** gorilla/websocket's largest accepted message (`wsDefaultReadLimit`). */
export const WS_MAX_MESSAGE_BYTES = 32 * 1024 * 1024

declare module 'fastify' {
  interface FastifyRequest {
    /** The EVM chain the URL names, set before any other check. */
    evmChain: EvmChain | null
  }
}

export const evmRoutes: FastifyPluginAsync<EvmRoutesOptions> = async (app, options) => {
  const { network } = options
  const bodyLimit = options.bodyLimit ?? ETH_MAX_REQUEST_BYTES
  const { dispatcher } = options

  app.decorateRequest('evmChain', null)
  // Unknown chains are a mux miss in the node: 404 before anything else is looked at.
  app.addHook('onRequest', async (request, reply) => {
    const params = request.params as { chain?: string; alias?: string }
    const chain = params.chain !== undefined ? network.chain(params.chain) : chainByAlias(network, params.alias)
    if (!chain) return sendGoError(reply, 404, '404 page not found\n')
    request.evmChain = chain
  })
  // The dispatcher parses: every body arrives as a string, so malformed JSON gets geth's answer.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => {
    readBody(payload, bodyLimit).then((body) => done(null, body), done)
  })

  const others = app.supportedMethods.filter((m) => m !== 'GET')
  for (const prefix of ['/ext/bc/:chain', '/ext/:alias']) {
    app.route({ method: app.supportedMethods, url: `${prefix}/rpc`, onRequest: validateHttp, handler: serveHttp })
    app.route({
      method: 'GET',
      url: `${prefix}/ws`,
      exposeHeadRoute: false,
      onRequest: checkOrigin,
      handler: (_request, reply) => badHandshake(reply),
      wsHandler: (socket, request) => serveSocket(socket, request),
    })
    app.route({ method: others, url: `${prefix}/ws`, handler: (_request, reply) => badHandshake(reply) })
  }

  /**
   * gorilla's `CheckOrigin` with the server's allowed origins: browsers apply no CORS to a
   * WebSocket, so the handshake itself is where a page's origin is refused. A handshake without
   * Origin (not a browser) is accepted, as geth's `wsHandshakeValidator` accepts it.
   */
  async function checkOrigin(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const origin = request.headers.origin
    if (!request.ws || origin === undefined || !options.allowsOrigin || options.allowsOrigin(origin)) return undefined
    reply.header('sec-websocket-version', '13')
    return sendGoError(reply, 403, 'Forbidden\n')
  }

  /** geth `ServeHTTP` up to `validateRequest`; runs before the body is read. */
  async function validateHttp(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const { method, headers } = request
    const contentLength = headers['content-length'] === undefined ? 0 : Number(headers['content-length'])
    const chunked = headers['transfer-encoding'] !== undefined
    // A body-less GET without a query string is a load balancer's health check.
    if (method === 'GET' && contentLength === 0 && !chunked && rawQuery(request.url) === '') {
      return reply.code(200).send()
    }
    if (method === 'PUT' || method === 'DELETE') {
      return sendGoError(reply, ETH_HTTP.methodNotAllowed.status, ETH_HTTP.methodNotAllowed.body)
    }
    if (contentLength > bodyLimit) {
      const tooLarge = ETH_HTTP.requestTooLarge(contentLength, bodyLimit)
      return sendGoError(reply, tooLarge.status, tooLarge.body)
    }
    if (method === 'OPTIONS') return undefined
    const mediaType = parseMediaType(headers['content-type'] ?? '')
    if (mediaType === undefined || !(ETH_HTTP.acceptedContentTypes as readonly string[]).includes(mediaType)) {
      return sendGoError(reply, ETH_HTTP.unsupportedMediaType.status, ETH_HTTP.unsupportedMediaType.body)
    }
    return undefined
  }

  async function serveHttp(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // fastify reads no body for GET and HEAD; geth reads whatever comes.
    const body = typeof request.body === 'string' ? request.body : await readBody(request.raw, bodyLimit)
    const ctx: EthContext = { network, chain: request.evmChain!, subscriptions: undefined }
    const answer = await dispatcher.handleBytes(body, ctx)
    // A Buffer, so fastify does not append `; charset=utf-8` to geth's bare `application/json`.
    reply.code(200).header('content-type', ETH_HTTP.contentType)
    return reply.send(answer)
  }

  function serveSocket(socket: WebSocket, request: FastifyRequest): void {
    const chain = request.evmChain!
    const registry = createSubscriptionRegistry({ send: (text) => sendFrame(socket, text) })
    socket.on('close', () => registry.close())
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      void answerFrame(socket, dispatcher, { network, chain }, registry.forCall(), frameText(data)).catch((err: unknown) => {
        app.log.error({ err }, 'websocket message failed')
        socket.terminate()
      })
    })
  }
}

async function answerFrame(
  socket: WebSocket,
  dispatcher: EthDispatcher<EthContext>,
  base: Omit<EthContext, 'subscriptions'>,
  call: ReturnType<ReturnType<typeof createSubscriptionRegistry>['forCall']>,
  text: string,
): Promise<void> {
  let parsed: ReturnType<typeof parseJSONBody>
  try {
    parsed = parseJSONBody(text)
  } catch {
    // geth's client loop writes the syntax error, then drops the connection.
    socket.send('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}\n', () => socket.terminate())
    return
  }
  // An empty frame is an unexpected EOF to gorilla's ReadJSON: the connection ends, nothing is written.
  if (parsed.empty) return void socket.terminate()
  const answer = await dispatcher.handleMessage(parsed.value, { ...base, subscriptions: call })
  if (answer !== undefined) sendFrame(socket, answer)
  call.activate()
}

function sendFrame(socket: WebSocket, text: string): void {
  if (socket.readyState === socket.OPEN) socket.send(text)
}

function frameText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8')
}

/** gorilla/websocket `Upgrader.Upgrade` on a request that is not a WebSocket handshake. */
function badHandshake(reply: FastifyReply) {
  reply.header('sec-websocket-version', '13')
  return sendGoError(reply, 400, 'Bad Request\n')
}

/** `/ext/<alias>/…`: the chain's HTTP aliases (`C`, `evm`), not its id (that is only under `bc/`). */
function chainByAlias(network: Network, alias: string | undefined): EvmChain | undefined {
  if (alias === undefined || alias === network.preset.cChainId) return undefined
  return network.chain(alias)
}

function rawQuery(url: string): string {
  const i = url.indexOf('?')
  return i < 0 ? '' : url.slice(i + 1)
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * Go's `mime.ParseMediaType`, reduced to what the check needs: the lower-cased `type/subtype`, or
 * undefined when the header does not parse (an empty header, a missing subtype, a bad parameter).
 */
export function parseMediaType(header: string): string | undefined {
  const [head = '', ...params] = header.split(';')
  const mediaType = head.trim().toLowerCase()
  const slash = mediaType.indexOf('/')
  if (slash < 0 || !TOKEN.test(mediaType.slice(0, slash)) || !TOKEN.test(mediaType.slice(slash + 1))) return undefined
  for (const param of params) {
    const text = param.trim()
    if (text === '') continue
    const eq = text.indexOf('=')
    if (eq < 0 || !TOKEN.test(text.slice(0, eq).trim())) return undefined
    const value = text.slice(eq + 1).trim()
    if (!TOKEN.test(value) && !/^"(?:[^"\\]|\\.)*"$/.test(value)) return undefined
  }
  return mediaType
}

/**
 * The body as geth reads it: through an `io.LimitReader`, so a chunked body longer than the limit
 * is cut there (and then usually fails to parse). The rest is drained so the connection survives.
 */
export function readBody(stream: Readable, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    stream.on('data', (chunk: Buffer) => {
      if (size >= limit) return
      const take = chunk.length <= limit - size ? chunk : chunk.subarray(0, limit - size)
      chunks.push(take)
      size += take.length
    })
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    stream.on('error', reject)
  })
}

/**
 * Go's `http.Error`: the text and a newline (callers pass it), `text/plain; charset=utf-8` and
 * `X-Content-Type-Options: nosniff`. Every refusal the node writes before JSON-RPC looks like this.
 */
export function sendGoError(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', ETH_HTTP.errorContentType)
    .header('x-content-type-options', 'nosniff')
    .send(body)
}
