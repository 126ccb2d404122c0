import { idFromString } from '../../../core/ids.js'
import { objectParams, str } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/**
 * Serves `admin.getChainAliases`: the aliases of a chain given by its id (cb58, no alias
 * lookup), in the order they were given; `null` for a valid id that names no chain.
 * @example {"chain":"11111111111111111111111111111111LpoYY"} → {"aliases":["P","platform","11111111111111111111111111111111LpoYY"]}
 */
export const getChainAliases = defineNodeMethod(
  objectParams({ chain: str }),
  (params, ctx: AdminContext): { aliases: string[] | null } =>
    asNodeErrors(() => {
      idFromString(params.chain)
      return { aliases: ctx.node.aliases.chains.aliases(params.chain) }
    }),
)
