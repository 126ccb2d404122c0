import { objectParams, str } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { checkAliasLength, type EmptyReply } from './alias.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/**
 * Serves `admin.aliasChain`: gives a chain (named by an alias or its id) another alias on this
 * node, usable wherever the id is and as `/ext/bc/<alias>`. If the HTTP alias fails, the chain
 * alias stays (as in avalanchego).
 * @example {"chain":"C","alias":"cchain"} → {} and /ext/bc/cchain/rpc is the C-chain
 */
export const aliasChain = defineNodeMethod(
  objectParams({ chain: str, alias: str }),
  (params, ctx: AdminContext): EmptyReply =>
    asNodeErrors(() => {
      checkAliasLength(params.alias)
      ctx.node.aliases.aliasChain(params.chain, params.alias)
      return {}
    }),
)
