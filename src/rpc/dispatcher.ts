/**
 * The envelope of the eth JSON-RPC dialect served at `/ext/bc/C/rpc` and `/ext/bc/C/ws`, behaving
 * as coreth's fork of go-ethereum's `rpc` package (avalanchego `graft/evm/rpc`: `json.go`,
 * `handler.go`, `server.go`, `http.go`). Methods only parse typed params and return a result; this
 * file alone builds responses, runs batches and maps errors.
 *
 * Written by hand rather than on json-rpc-2.0 because geth differs from the JSON-RPC spec that
 * library follows in ways clients can see: `jsonrpc` must be exactly "2.0" yet a request without
 * an `id` key is a notification while `"id":null` is a call; an `id` may be any JSON but an object
 * or array; an empty batch gets a single, unwrapped error; responses inside a batch are dropped;
 * unknown keys are ignored and keys match case-insensitively (encoding/json); only the first JSON
 * value of a body is read; and some errors are written without the trailing newline of the rest.
 */
import { stringifyJson } from '../evm/config/json.js'
import { JsonBytes } from './jsonBytes.js'
import {
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
  ResponseTooLargeError,
  type RpcErrorObject,
  toRpcError,
} from './errors.js'

export type RpcMethod<P = any, R = unknown, C = any> = {
  params: (raw: unknown) => P // throws InvalidParamsError
  handler: (params: P, ctx: C) => R | Promise<R>
  /**
   * Answers the call by writing its result's JSON text into `out`: exactly what {@link encodeJSON}
   * writes for the handler's value, and the same errors thrown. For a method whose answers run to
   * hundreds of kilobytes (eth_getLogs), which the generic encoder writes several times slower,
   * from objects made only to be written. The in-process provider still calls the handler.
   */
  write?(params: P, ctx: C, out: JsonBytes): void | Promise<void>
}

/** geth's default HTTP body limit (`defaultBodyLimit`); coreth leaves it unless `http-body-limit` is set. */
export const ETH_MAX_REQUEST_BYTES = 5 * 1024 * 1024

/** coreth's default `batch-request-limit`. */
export const ETH_MAX_BATCH_SIZE = 1000

/** coreth's default `batch-response-max-size`: bytes of results across one batch. */
export const ETH_MAX_BATCH_RESPONSE_BYTES = 25_000_000

/**
 * What geth's `Server.ServeHTTP` answers before any JSON is read. Refusals are written by Go's
 * `http.Error`: the body ends with a newline, content type `text/plain; charset=utf-8`, header
 * `X-Content-Type-Options: nosniff`. The checks run in this order: GET with no body and no query
 * string is 200 with an empty body (a health check); PUT and DELETE are 405; a `Content-Length`
 * above the limit is 413 (a chunked body is cut at the limit instead, and then fails to parse);
 * OPTIONS passes; a content type (parameters ignored) outside the accepted list is 415. Answers
 * carry `content-type: application/json`, and a call that writes nothing is 200 with an empty body.
 */
export const ETH_HTTP = {
  acceptedContentTypes: ['application/json', 'application/json-rpc', 'application/jsonrequest'],
  contentType: 'application/json',
  errorContentType: 'text/plain; charset=utf-8',
  methodNotAllowed: { status: 405, body: 'method not allowed\n' },
  unsupportedMediaType: { status: 415, body: 'invalid content type, only application/json is supported\n' },
  requestTooLarge: (contentLength: number, limit: number = ETH_MAX_REQUEST_BYTES) => ({
    status: 413,
    body: `content length too large (${contentLength}>${limit})\n`,
  }),
} as const

export type EthDispatcherOptions<C> = {
  methods: Record<string, RpcMethod<any, unknown, C>>
  /** Most members in a batch; 0 for no limit. Default {@link ETH_MAX_BATCH_SIZE}. */
  maxBatchSize?: number
  /** Most bytes of results in a batch before the rest get `response too large`; 0 for no limit. */
  maxBatchResponseBytes?: number
  /** Told of every error a method's params, handler or result encoding raised, e.g. to log bugs. */
  onError?: (error: unknown, call: { method: string; params: unknown }) => void
}

export type EthDispatcher<C> = {
  /**
   * Answers an HTTP body with the exact text geth writes (responses end with `\n`, as Go's
   * json.Encoder writes them, except the parse, empty-batch and batch-limit errors), or
   * `undefined` when geth writes nothing: an empty body, notifications, responses.
   */
  handle(body: string, ctx: C): Promise<string | undefined>
  /** {@link handle}'s answer as UTF-8 bytes (empty when geth writes nothing), for an HTTP body. */
  handleBytes(body: string, ctx: C): Promise<Buffer>
  /** Answers one already-parsed WebSocket message; every frame geth writes there ends with `\n`. */
  handleMessage(msg: unknown, ctx: C): Promise<string | undefined>
}

/** A JSON-RPC message read as geth's `jsonrpcMessage`: fields of the wrong JSON type are left empty. */
type Envelope = {
  version: string
  hasId: boolean
  id: unknown
  method: string
  params: unknown
  hasParams: boolean
  hasResultOrError: boolean
}

/** A call's response; {@link JsonBytes} when its method wrote the result itself (a single call only). */
type Text = string | JsonBytes
type Output = { text: Text; marshalled: boolean }
type Answer = { text: Text; resultBytes: number }

export function createEthDispatcher<C>(options: EthDispatcherOptions<C>): EthDispatcher<C> {
  const methods = new Map(Object.entries(options.methods))
  const maxBatchSize = options.maxBatchSize ?? ETH_MAX_BATCH_SIZE
  const maxBatchResponseBytes = options.maxBatchResponseBytes ?? ETH_MAX_BATCH_RESPONSE_BYTES

  async function call(env: Envelope, ctx: C): Promise<Answer> {
    const method = methods.get(env.method)
    if (method === undefined) return errorAnswer(env, toRpcError(new MethodNotFoundError(env.method)))
    let params: unknown
    try {
      params = method.params(env.params)
    } catch (err) {
      options.onError?.(err, { method: env.method, params: env.params })
      return errorAnswer(env, { code: InvalidParamsError.code, message: toRpcError(err).message })
    }
    let resultText: string
    try {
      if (method.write !== undefined) {
        const out = new JsonBytes()
        out.utf8(`{"jsonrpc":"2.0","id":${encodeJSON(env.id)},"result":`)
        const start = out.length
        await method.write(params, ctx, out)
        const resultBytes = out.length - start
        out.ascii('}')
        return { text: out, resultBytes }
      }
      resultText = encodeJSON((await method.handler(params, ctx)) ?? null)
    } catch (err) {
      options.onError?.(err, { method: env.method, params: env.params })
      return errorAnswer(env, toRpcError(err))
    }
    return { text: `{"jsonrpc":"2.0","id":${encodeJSON(env.id)},"result":${resultText}}`, resultBytes: byteLength(resultText) }
  }

  /** handler.go `handleCallMsg`: undefined for a notification, which runs but is not answered. */
  async function answer(env: Envelope, ctx: C): Promise<Answer | undefined> {
    if (isNotification(env)) {
      await call(env, ctx)
      return undefined
    }
    if (isCall(env)) return call(env, ctx)
    const invalid = toRpcError(new InvalidRequestError())
    return hasValidId(env) ? errorAnswer(env, invalid) : { text: errorText(null, invalid), resultBytes: 0 }
  }

  async function dispatch(value: unknown, ctx: C): Promise<Output | undefined> {
    if (!Array.isArray(value)) {
      const env = readEnvelope(value)
      if (isIgnored(env)) return undefined
      const single = await answer(env, ctx)
      return single && { text: single.text, marshalled: false }
    }
    if (value.length === 0) return { text: errorText(null, toRpcError(new InvalidRequestError('empty batch'))), marshalled: true }
    const envs = value.map(readEnvelope)
    if (maxBatchSize > 0 && envs.length > maxBatchSize) {
      // geth names the first call's id, the best it can do for an error about the whole batch.
      const first = envs.find(isCall)
      const tooLarge = toRpcError(new InvalidRequestError('batch too large'))
      return { text: `[${errorText(first ? first.id : null, tooLarge)}]`, marshalled: true }
    }
    // Members run one after another, as in geth's handleBatch.
    const calls = envs.filter((env) => !isIgnored(env))
    const answers: string[] = []
    let resultBytes = 0
    for (const [i, env] of calls.entries()) {
      const one = await answer(env, ctx)
      if (one === undefined) continue
      answers.push(one.text.toString())
      resultBytes += one.resultBytes
      if (maxBatchResponseBytes > 0 && resultBytes > maxBatchResponseBytes) {
        const tooLarge = toRpcError(new ResponseTooLargeError())
        for (const rest of calls.slice(i + 1)) if (!isNotification(rest)) answers.push(errorAnswer(rest, tooLarge).text)
        return { text: `[${answers.join(',')}]`, marshalled: true }
      }
    }
    return answers.length === 0 ? undefined : { text: `[${answers.join(',')}]`, marshalled: false }
  }

  async function respond(body: string, ctx: C): Promise<Output | undefined> {
    let parsed: JSONBody
    try {
      parsed = parseJSONBody(body)
    } catch (err) {
      return { text: errorText(null, toRpcError(err)), marshalled: true }
    }
    if (parsed.empty) return undefined
    return dispatch(parsed.value, ctx)
  }

  return {
    async handle(body, ctx) {
      const out = await respond(body, ctx)
      return out && (out.marshalled ? out.text.toString() : `${out.text.toString()}\n`)
    },
    async handleBytes(body, ctx) {
      const out = await respond(body, ctx)
      if (out === undefined) return Buffer.alloc(0)
      if (typeof out.text === 'string') return Buffer.from(out.marshalled ? out.text : `${out.text}\n`, 'utf8')
      // Only a single call's answer is written as bytes, and those all end with a newline.
      out.text.ascii('\n')
      return out.text.bytes()
    },
    async handleMessage(msg, ctx) {
      const out = await dispatch(msg, ctx)
      return out && `${out.text.toString()}\n`
    },
  }
}

// --- envelope: json.go ---

function readEnvelope(value: unknown): Envelope {
  const env: Envelope = { version: '', hasId: false, id: undefined, method: '', params: undefined, hasParams: false, hasResultOrError: false }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return env
  // encoding/json matches keys case-insensitively and the last one wins.
  for (const [key, field] of Object.entries(value)) {
    switch (key.toLowerCase()) {
      case 'jsonrpc':
        env.version = typeof field === 'string' ? field : ''
        break
      case 'id':
        env.hasId = true
        env.id = field
        break
      case 'method':
        env.method = typeof field === 'string' ? field : ''
        break
      case 'params':
        env.hasParams = true
        env.params = field
        break
      case 'result':
        env.hasResultOrError = true
        break
      case 'error':
        if (field !== null) env.hasResultOrError = true
        break
    }
  }
  return env
}

function hasValidId(env: Envelope): boolean {
  return env.hasId && (env.id === null || typeof env.id !== 'object')
}

function isNotification(env: Envelope): boolean {
  return env.version === '2.0' && !env.hasId && env.method !== ''
}

function isCall(env: Envelope): boolean {
  return env.version === '2.0' && hasValidId(env) && env.method !== ''
}

/** Responses (to calls the server never makes) and `*_subscription` notifications are dropped unanswered. */
function isIgnored(env: Envelope): boolean {
  const isResponse = env.version === '2.0' && hasValidId(env) && env.method === '' && !env.hasParams && env.hasResultOrError
  return isResponse || (isNotification(env) && env.method.endsWith('_subscription'))
}

/** geth's `msg.errorResponse`: the message's own id, left out when it had none. */
function errorAnswer(env: Envelope, error: RpcErrorObject): Answer & { text: string } {
  if (!env.hasId) return { text: `{"jsonrpc":"2.0","error":${encodeJSON(error)}}`, resultBytes: 0 }
  return { text: errorText(env.id, error), resultBytes: 0 }
}

function errorText(id: unknown, error: RpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${encodeJSON(id)},"error":${encodeJSON(error)}}`
}

// --- JSON as Go reads and writes it ---

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}
const GO_ESCAPED = /[<>&\u2028\u2029]/g

/**
 * JSON as Go's encoding/json writes it: HTML characters and U+2028/U+2029 escaped (they can only
 * occur inside strings), bigints as bare numbers.
 */
export function encodeJSON(value: unknown): string {
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch (error) {
    // Go writes big integers (a fee config's *big.Int) as bare numbers; results carry them as bigints.
    if (!(error instanceof TypeError)) throw error
    text = stringifyJson(value)
  }
  if (text === undefined) return 'null'
  return text.replace(GO_ESCAPED, (c) => GO_ESCAPES[c] as string)
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

export type JSONBody = { empty: true } | { empty: false; value: unknown }

/**
 * Reads a body as geth's json.Decoder does: only its first JSON value (anything after it is
 * ignored), nothing at all for an empty or blank body, and {@link ParseError} (`parse error`)
 * when the first value is not valid JSON.
 */
export function parseJSONBody(text: string): JSONBody {
  const start = skipSpace(text, 0)
  if (start === text.length) return { empty: true }
  try {
    return { empty: false, value: JSON.parse(text) }
  } catch {
    const end = firstValueEnd(text, start)
    if (end < 0) throw new ParseError()
    try {
      return { empty: false, value: JSON.parse(text.slice(start, end)) }
    } catch {
      throw new ParseError()
    }
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  return i
}

const SCALAR = /true|false|null|-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y

/** Where the JSON value starting at `i` ends, by the brackets and strings alone; -1 if it does not. */
function firstValueEnd(text: string, i: number): number {
  const first = text[i]
  if (first === '"') {
    const close = stringEnd(text, i)
    return close < 0 ? -1 : close + 1
  }
  if (first === '{' || first === '[') {
    let depth = 0
    for (let j = i; j < text.length; j++) {
      const c = text[j]
      if (c === '"') {
        j = stringEnd(text, j)
        if (j < 0) return -1
      } else if (c === '{' || c === '[') depth++
      else if (c === '}' || c === ']') {
        depth--
        if (depth === 0) return j + 1
      }
    }
    return -1
  }
  SCALAR.lastIndex = i
  const m = SCALAR.exec(text)
  if (m === null) return -1
  const end = i + m[0].length
  // Go's scanner fails on a number cut short ("1." or "1e"); a complete one may be followed by anything.
  const next = text[end]
  const isNumber = first === '-' || (first !== undefined && first >= '0' && first <= '9')
  if (isNumber && next === '.' && m[1] === undefined && m[2] === undefined) return -1
  if (isNumber && (next === 'e' || next === 'E') && m[2] === undefined) return -1
  return end
}

function stringEnd(text: string, open: number): number {
  for (let j = open + 1; j < text.length; j++) {
    if (text[j] === '\\') j++
    else if (text[j] === '"') return j
  }
  return -1
}

