import { defineEthMethod } from '../define.js'
import { filtersOf } from '../../filters.js'
import { tuple } from '../../params.js'
import { hash32Loose } from '../shared.js'

/** Serves `eth_uninstallFilter`: true when the filter existed. */
export const eth_uninstallFilter = defineEthMethod(
  tuple(hash32Loose),
  ([id], ctx) => filtersOf(ctx.chain).uninstall(id),
)
