import { noParams, objectParams, str } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/** `maxAliasLength` in `api/admin/service.go`, in bytes. */
export const MAX_ALIAS_LENGTH = 512

/** `errAliasTooLong`, checked before anything else by `alias` and `aliasChain`. */
export function checkAliasLength(alias: string): void {
  if (Buffer.byteLength(alias, 'utf8') > MAX_ALIAS_LENGTH) throw new NodeRpcError('alias length is too long')
}

/** The reply of every admin method that returns `api.EmptyReply`. */
export type EmptyReply = Record<string, never>

/** Params of the admin methods whose args are `*struct{}`. */
export const emptyParams = noParams

/**
 * Serves `admin.alias`: `/ext/<alias>` serves what `/ext/<endpoint>` serves, on this node. The
 * endpoint is not checked; an alias of a route that does not exist yet applies when it appears.
 * @example {"endpoint":"bc/X","alias":"myAlias"} → {} and /ext/myAlias is the X-chain API
 */
export const alias = defineNodeMethod(
  objectParams({ endpoint: str, alias: str }),
  (params, ctx: AdminContext): EmptyReply =>
    asNodeErrors(() => {
      checkAliasLength(params.alias)
      ctx.node.aliases.aliasEndpoint(params.endpoint, params.alias)
      return {}
    }),
)
