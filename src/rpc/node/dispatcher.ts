/**
 * The JSON-RPC dialect of avalanchego's management endpoints (`/ext/admin`, `/ext/info`,
 * `/ext/health`, …): gorilla/rpc v2 `Server.ServeHTTP` from the codec request on, its json2
 * codec, and avalanchego's `utils/json` codec wrapper. The HTTP checks before it (405, 415) are in
 * `src/api/routes/nodeRpc.ts`.
 *
 * - One JSON value per body (no batches); anything after it is ignored. A body Go's decoder cannot
 *   read is -32700 with Go's error text, always answered (with `"id":null` unless the id decoded).
 * - `jsonrpc` other than `"2.0"` is -32600 `jsonrpc must be 2.0`. Both echo the decoded request in
 *   `data`; every other error is -32000 with `"data":null`.
 * - `admin.alias` is looked up as `admin.Alias`; `admin.Alias` is refused.
 * - A request without an id (or with `"id":null`) is a notification: it runs, nothing is written.
 * - The id is echoed as sent (compacted, HTML-escaped), so `1.0` stays `1.0`.
 */
import { BaseError } from '../../core/errors.js'
import { compactGoJson, decodeGoJson, encodeGoJson, foldName, goQuote, goString, GoJsonSyntaxError, jsonMembers } from './goJson.js'
import { INVALID_ARGUMENT_MESSAGE, type NodeMethod, type NodeService } from './types.js'

/** json2 error codes avalanchego can emit (it never emits -32601 or -32602). */
export const NODE_RPC_ERROR_CODES = { parse: -32700, invalidRequest: -32600, server: -32000 } as const

export type NodeDispatcherOptions<C> = {
  /** Service name as registered in avalanchego (`admin`, `info`, `health`) → its methods. */
  services: Record<string, NodeService<C>>
  /** Called with every error a params decoder or handler throws (for logging). */
  onError?: (error: unknown, call: { method: string; params: unknown }) => void
}

/** What to write: `body` ('' for a notification), and whether gorilla set `x-content-type-options: nosniff`. */
export type NodeRpcAnswer = {
  /** The JSON response with its trailing newline, or '' when nothing is written. */
  body: string
  /**
   * gorilla sets `x-content-type-options: nosniff` only once the method has run (successfully or
   * not); parse, version, lookup and params errors go out without it.
   */
  nosniff: boolean
}

export type NodeDispatcher<C> = {
  handle(bodyText: string, ctx: C): Promise<NodeRpcAnswer>
}

/** json2 `serverRequest` as decoded: `params` and `id` keep their raw JSON text (a `*json.RawMessage`). */
type ServerRequest = { version: string; method: string; params: { raw: string; value: unknown } | undefined; id: string | undefined }

type JsonRpcError = { code: number; message: string; data: unknown }

const REQUEST_FIELDS = ['jsonrpc', 'method', 'params', 'id'] as const
type RequestField = (typeof REQUEST_FIELDS)[number]

export function createNodeDispatcher<C>(options: NodeDispatcherOptions<C>): NodeDispatcher<C> {
  // gorilla's serviceMap: service name → Go method name (`Alias`) → method.
  const services = new Map<string, Map<string, NodeMethod<any, unknown, C>>>()
  for (const [serviceName, service] of Object.entries(options.services)) {
    const methods = new Map<string, NodeMethod<any, unknown, C>>()
    for (const [name, method] of Object.entries(service)) methods.set(upperFirst(name) ?? name, method)
    services.set(serviceName, methods)
  }

  async function handle(bodyText: string, ctx: C): Promise<NodeRpcAnswer> {
    const { request, error } = readRequest(bodyText)
    if (error) return { body: writeError(request, error), nosniff: false }

    let method: string
    try {
      method = goMethodName(request.method)
    } catch (err) {
      return { body: writeError(request, serverError((err as Error).message)), nosniff: false }
    }

    // v2/map.go `serviceMap.get`
    const parts = method.split('.')
    if (parts.length !== 2) return { body: writeError(request, serverError(`rpc: service/method request ill-formed: ${goQuote(method)}`)), nosniff: false }
    const service = services.get(parts[0]!)
    if (service === undefined) return { body: writeError(request, serverError(`rpc: can't find service ${goQuote(method)}`)), nosniff: false }
    const target = service.get(parts[1]!)
    if (target === undefined) return { body: writeError(request, serverError(`rpc: can't find method ${goQuote(method)}`)), nosniff: false }

    const rawParams = request.params?.value
    let params: unknown
    try {
      params = target.params(rawParams)
    } catch (err) {
      options.onError?.(err, { method, params: rawParams })
      return { body: writeError(request, serverError(INVALID_ARGUMENT_MESSAGE)), nosniff: false }
    }

    let result: unknown
    try {
      result = await target.handler(params, ctx)
    } catch (err) {
      options.onError?.(err, { method, params: rawParams })
      return { body: writeError(request, serverError(errorMessage(err))), nosniff: true }
    }
    if (request.id === undefined) return { body: '', nosniff: true }
    return { body: `{"jsonrpc":"2.0","result":${encodeGoJson(result ?? null)},"id":${compactGoJson(request.id)}}\n`, nosniff: true }
  }

  return { handle }
}

/** A handler error's wire message: a BaseError's short message, any other Error's message. */
function errorMessage(err: unknown): string {
  if (err instanceof BaseError) return err.shortMessage
  if (err instanceof Error) return err.message
  return String(err)
}

function serverError(message: string): JsonRpcError {
  return { code: NODE_RPC_ERROR_CODES.server, message, data: null }
}

/**
 * json2 `newCodecRequest`: `json.NewDecoder(body).Decode(&serverRequest{})`. A syntax error leaves
 * the request empty; a type error (`"jsonrpc":2`) is reported after the other fields decoded.
 */
function readRequest(bodyText: string): { request: ServerRequest; error?: JsonRpcError } {
  const request: ServerRequest = { version: '', method: '', params: undefined, id: undefined }
  let parseError: string | undefined
  try {
    const decoded = decodeGoJson(bodyText)
    if (decoded.kind === 'object') {
      for (const member of jsonMembers(decoded.value as object)!) {
        const field = requestField(member.key)
        if (field === undefined) continue
        const message = assignField(request, field, member.value, member.raw)
        parseError ??= message
      }
    } else if (decoded.kind !== 'null') {
      parseError = `json: cannot unmarshal ${decoded.kind} into Go value of type json2.serverRequest`
    }
  } catch (err) {
    if (!(err instanceof GoJsonSyntaxError)) throw err
    parseError = err.message
  }
  if (parseError !== undefined) return { request, error: { code: NODE_RPC_ERROR_CODES.parse, message: parseError, data: request } }
  if (request.version !== '2.0') {
    return { request, error: { code: NODE_RPC_ERROR_CODES.invalidRequest, message: 'jsonrpc must be 2.0', data: request } }
  }
  return { request }
}

/** The request field a key names: exactly, or else after Go's case folding. */
function requestField(key: string): RequestField | undefined {
  if ((REQUEST_FIELDS as readonly string[]).includes(key)) return key as RequestField
  const folded = foldName(key)
  return REQUEST_FIELDS.find((f) => f.toUpperCase() === folded)
}

/** Decodes one member into the request; returns Go's type error text, if any (the field is then left as it was). */
function assignField(request: ServerRequest, field: RequestField, value: unknown, raw: string): string | undefined {
  if (field === 'params' || field === 'id') {
    // A *json.RawMessage: null sets it to nil, anything else is kept as its raw text.
    const kept = value === null ? undefined : raw
    if (field === 'id') request.id = kept
    else request.params = kept === undefined ? undefined : { raw: kept, value }
    return undefined
  }
  if (value === null) return undefined
  if (typeof value !== 'string') {
    const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? 'number' : 'object'
    return `json: cannot unmarshal ${kind} into Go struct field serverRequest.${field} of type string`
  }
  if (field === 'jsonrpc') request.version = value
  else request.method = value
  return undefined
}

/**
 * avalanchego's `request.Method()`: split at the first `.`; a function part starting with an
 * upper-case letter is refused, otherwise its first letter is upper-cased.
 */
function goMethodName(method: string): string {
  const dot = method.indexOf('.')
  if (dot < 0) return method
  const fn = method.slice(dot + 1)
  const first = fn.codePointAt(0)
  // utf8.DecodeRuneInString gives RuneError for "" (and for U+FFFD itself): the name passes unchanged.
  if (first === undefined || first === 0xfffd) return method
  const ch = String.fromCodePoint(first)
  if (/^\p{Lu}$/u.test(ch)) throw new Error('method must start with a non-uppercase letter')
  return method.slice(0, dot + 1) + upperFirst(fn)
}

/** `unicode.ToUpper` of the first rune (a simple mapping: letters without one-rune upper case stay). */
function upperFirst(name: string): string | undefined {
  const first = name.codePointAt(0)
  if (first === undefined) return undefined
  const ch = String.fromCodePoint(first)
  const upper = ch.toUpperCase()
  return ([...upper].length === 1 ? upper : ch) + name.slice(ch.length)
}

/** json2 `WriteError` → `writeServerResponse`: nothing for a notification, unless it is a parse error. */
function writeError(request: ServerRequest, error: JsonRpcError): string {
  if (request.id === undefined && error.code !== NODE_RPC_ERROR_CODES.parse) return ''
  const data = error.data === null ? 'null' : encodeRequest(error.data as ServerRequest)
  const id = request.id === undefined ? 'null' : compactGoJson(request.id)
  return `{"jsonrpc":"2.0","error":{"code":${error.code},"message":${goString(error.message)},"data":${data}},"id":${id}}\n`
}

/** A `serverRequest` as Go encodes it (the `data` of -32700/-32600). */
function encodeRequest(request: ServerRequest): string {
  const params = request.params === undefined ? 'null' : compactGoJson(request.params.raw)
  const id = request.id === undefined ? 'null' : compactGoJson(request.id)
  return `{"jsonrpc":${goString(request.version)},"method":${goString(request.method)},"params":${params},"id":${id}}`
}
