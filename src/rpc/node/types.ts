import { BaseError } from '../../core/errors.js'

/**
 * A method of an avalanchego-style JSON-RPC service (gorilla/rpc v2 with avalanchego's codec).
 * `params` decodes the request's `params` as Go's encoding/json would decode them into the
 * method's args struct (object form, or `[object]`; unknown fields ignored; absent/null allowed)
 * and throws {@link NodeArgumentError} when it cannot. `C` is the slice of the node context the
 * handler reads, so each service states what it needs.
 */
export type NodeMethod<P = any, R = unknown, C = any> = {
  params: (raw: unknown) => P
  handler: (params: P, ctx: C) => R | Promise<R>
}

/** One service (`admin`, `info`, `health`, `validators`, `sim`): wire method name (`alias`) → method. */
export type NodeService<C = any> = Record<string, NodeMethod<any, unknown, C>>

/**
 * Any handler error becomes `{"code":-32000,"message":<message>,"data":null}` (json2 writes every
 * non-json2 error that way). Throw this (or any BaseError) with the node's exact message.
 */
export class NodeRpcError extends BaseError {
  override name = 'NodeRpcError'
  readonly code = -32000
}

/** The text avalanchego's codec puts in place of any params decoding failure. */
export const INVALID_ARGUMENT_MESSAGE =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"

/** Params that Go could not decode into the args struct; reported as {@link INVALID_ARGUMENT_MESSAGE}. */
export class NodeArgumentError extends NodeRpcError {
  override name = 'NodeArgumentError'
  constructor(details?: string) {
    super(INVALID_ARGUMENT_MESSAGE, details ? { details } : {})
  }
}

export function defineNodeMethod<P, R, C = unknown>(params: (raw: unknown) => P, handler: (params: P, ctx: C) => R | Promise<R>): NodeMethod<P, R, C> {
  return { params, handler }
}
