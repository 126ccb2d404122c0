import { defineEthMethod } from '../define.js'
import { filtersOf } from '../../filters.js'
import { tuple } from '../../params.js'
import { filterCriteria, toLogCriteria } from '../logFilter.js'

/** Serves `eth_newFilter`: a log filter polled with eth_getFilterChanges; returns its id. */
export const eth_newFilter = defineEthMethod(
  tuple(filterCriteria),
  ([filter], ctx) => filtersOf(ctx.chain).install({ kind: 'logs', criteria: toLogCriteria(filter) }),
)
