import type { EthContext } from '../context.js'
import type { RpcMethod } from '../dispatcher.js'
import type { JsonBytes } from '../jsonBytes.js'

/**
 * Declares an eth-dialect method: the params parser's output types the handler's first
 * argument, so a method file states its wire shape once. (Two arguments rather than one object:
 * TypeScript infers the parser's type before it types the handler.) `write` answers with the
 * result's JSON text written by the method itself (see `RpcMethod.write`).
 */
export function defineEthMethod<P, R>(
  params: (raw: unknown) => P,
  handler: (params: P, ctx: EthContext) => R | Promise<R>,
  write?: (params: P, ctx: EthContext, out: JsonBytes) => void | Promise<void>,
): RpcMethod<P, R, EthContext> {
  return write === undefined ? { params, handler } : { params, handler, write }
}
