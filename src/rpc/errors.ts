/**
 * The errors of the eth-style JSON-RPC dialect (`/ext/bc/C/rpc`), with the codes and messages of
 * the real node: coreth's fork of go-ethereum's `rpc` package (avalanchego `graft/evm/rpc`) and
 * coreth's `internal/ethapi`, `core` and `core/txpool`. {@link toRpcError} is the one mapping from
 * any thrown value to the wire error object.
 */
import { BaseError, type BaseErrorOptions, DecodeError, InvalidArgumentError } from '../core/errors.js'
import { bytesToHex, type Hex } from '../core/hex.js'

export type RpcErrorOptions = BaseErrorOptions & { data?: unknown }

/** The JSON-RPC `error` member, as geth writes it (`data` left out when absent). */
export type RpcErrorObject = { code: number; message: string; data?: unknown }

/** A JSON-RPC error: its code is a static field, mirrored on the instance. The wire message is `shortMessage`. */
export class RpcError extends BaseError {
  override name = 'RpcError'
  static readonly code: number = -32000
  readonly code: number
  readonly data: unknown

  constructor(shortMessage: string, options: RpcErrorOptions = {}) {
    super(shortMessage, options)
    this.code = (new.target as typeof RpcError).code
    this.data = options.data
  }
}

/** -32700. Over HTTP geth answers unreadable JSON with the message `parse error`. */
export class ParseError extends RpcError {
  override name = 'ParseError'
  static override readonly code = -32700
  constructor(message = 'parse error', options?: RpcErrorOptions) {
    super(message, options)
  }
}

/** -32600: `invalid request`, `empty batch`, `batch too large`. */
export class InvalidRequestError extends RpcError {
  override name = 'InvalidRequestError'
  static override readonly code = -32600
  constructor(message = 'invalid request', options?: RpcErrorOptions) {
    super(message, options)
  }
}

/** -32601, worded as geth's `methodNotFoundError`. */
export class MethodNotFoundError extends RpcError {
  override name = 'MethodNotFoundError'
  static override readonly code = -32601
  constructor(method: string, options?: RpcErrorOptions) {
    super(`the method ${method} does not exist/is not available`, options)
  }
}

/** -32601: geth's answer to any `*_subscribe` call over HTTP. */
export class NotificationsUnsupportedError extends RpcError {
  override name = 'NotificationsUnsupportedError'
  static override readonly code = -32601
  constructor(options?: RpcErrorOptions) {
    super('notifications not supported', options)
  }
}

/** -32601: `no "newHeadz" subscription in eth namespace` (WebSocket `eth_subscribe` with an unknown kind). */
export class SubscriptionNotFoundError extends RpcError {
  override name = 'SubscriptionNotFoundError'
  static override readonly code = -32601
  constructor(namespace: string, subscription: string, options?: RpcErrorOptions) {
    super(`no ${JSON.stringify(subscription)} subscription in ${namespace} namespace`, options)
  }
}

/** -32602: `invalid argument 0: …`, `missing value for required argument 1`, `non-array args`. */
export class InvalidParamsError extends RpcError {
  override name = 'InvalidParamsError'
  static override readonly code = -32602
}

/** -32603: marshalling failures and crashed handlers (geth: `method handler crashed`). */
export class InternalError extends RpcError {
  override name = 'InternalError'
  static override readonly code = -32603
}

/** -32002: `request timed out`. */
export class RequestTimeoutError extends RpcError {
  override name = 'RequestTimeoutError'
  static override readonly code = -32002
  constructor(options?: RpcErrorOptions) {
    super('request timed out', options)
  }
}

/** -32003: `response too large`, for the calls of a batch left after its results passed the byte limit. */
export class ResponseTooLargeError extends RpcError {
  override name = 'ResponseTooLargeError'
  static override readonly code = -32003
  constructor(options?: RpcErrorOptions) {
    super('response too large', options)
  }
}

/** -32000: any other error a geth handler returns (a plain Go `error`). */
export class RpcServerError extends RpcError {
  override name = 'RpcServerError'
  static override readonly code = -32000
}

/** Code 3: `execution reverted[: reason]`, `data` being the revert bytes as hex (ethapi `revertError`). */
export class ExecutionRevertedError extends RpcError {
  override name = 'ExecutionRevertedError'
  static override readonly code = 3
  declare readonly data: Hex
  constructor(reason: string | undefined, data: Hex, options?: BaseErrorOptions) {
    super(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, { ...options, data })
  }
}

/**
 * The one mapping from a thrown value to a JSON-RPC error object. Protocol errors keep their code;
 * bad input from the domain is -32602; any other domain error is -32000 with its short message,
 * as a Go handler's plain `error` is; anything else is a bug and becomes -32603.
 */
export function toRpcError(err: unknown): RpcErrorObject {
  if (err instanceof RpcError) return withData(err.code, err.shortMessage, err.data)
  if (err instanceof BaseError) {
    const own = ownCode(err)
    if (own !== undefined) return withData(own, err.shortMessage, (err as { data?: unknown }).data)
    if (err instanceof InvalidArgumentError || err instanceof DecodeError) return { code: InvalidParamsError.code, message: err.shortMessage }
    return { code: RpcServerError.code, message: err.shortMessage }
  }
  if (err instanceof Error) return { code: InternalError.code, message: err.message }
  return { code: InternalError.code, message: String(err) }
}

function ownCode(err: BaseError): number | undefined {
  const code = (err as { code?: unknown }).code ?? (err.constructor as { code?: unknown }).code
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined
}

function withData(code: number, message: string, data: unknown): RpcErrorObject {
  return data === undefined || data === null ? { code, message } : { code, message, data }
}

// The node's refusals of a transaction are raised by the evm layer; they are re-exported here
// for the protocol edge (one class, one set of messages).
export { TxRejectedError, formatAddress, invalidChainIdError, stateTransitionErrors, txPoolErrors } from '../evm/errors.js'

type Int = bigint | number

/** `eth_call`'s wrapping of a state transition error: `err: <message> (supplied gas N)`. */
export function callFailedError(cause: { shortMessage: string } | string, suppliedGas: Int): RpcServerError {
  const message = typeof cause === 'string' ? cause : cause.shortMessage
  return new RpcServerError(`err: ${message} (supplied gas ${suppliedGas})`, { cause })
}

/** `eth_estimateGas` when no gas limit up to the cap succeeds. */
export function gasRequiredExceedsAllowanceError(cap: Int): RpcServerError {
  return new RpcServerError(`gas required exceeds allowance (${cap})`)
}

/**
 * The error of a reverted `eth_call` / `eth_estimateGas`. With revert data it is code 3 with the
 * data, and the reason decoded from `Error(string)` or `Panic(uint256)`; without data geth returns
 * the bare `execution reverted` as a plain error, so -32000 and no data.
 */
export function revertError(revert: Uint8Array): ExecutionRevertedError | RpcServerError {
  if (revert.length === 0) return new RpcServerError('execution reverted')
  return new ExecutionRevertedError(unpackRevert(revert), bytesToHex(revert) as Hex)
}

const ERROR_SELECTOR = '08c379a0'
const PANIC_SELECTOR = '4e487b71'
const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
}

/** libevm `abi.UnpackRevert`: the reason, or undefined when the data is not a well-formed Error/Panic. */
function unpackRevert(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const selector = bytesToHex(data.subarray(0, 4)).slice(2)
  const body = data.subarray(4)
  if (body.length < 32) return undefined
  if (selector === PANIC_SELECTOR) {
    const code = word(body, 0)
    const reason = code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined
    return reason ?? `unknown panic code: 0x${code.toString(16)}`
  }
  if (selector !== ERROR_SELECTOR) return undefined
  const offsetEnd = word(body, 0) + 32n
  if (offsetEnd > BigInt(body.length)) return undefined
  const length = word(body, Number(offsetEnd) - 32)
  const end = offsetEnd + length
  if (end > BigInt(body.length)) return undefined
  return new TextDecoder().decode(body.subarray(Number(offsetEnd), Number(end)))
}

function word(bytes: Uint8Array, at: number): bigint {
  return BigInt(bytesToHex(bytes.subarray(at, at + 32)))
}
