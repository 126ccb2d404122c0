import { defineEthMethod } from '../define.js'
import { filtersOf } from '../../filters.js'
import { tuple } from '../../params.js'
import { logFilter, toLogCriteria } from '../logFilter.js'

/** Serves `eth_newFilter`: a log filter polled with eth_getFilterChanges; returns its id. */
export const eth_newFilter = defineEthMethod(
  tuple(logFilter),
  ([filter], ctx) => filtersOf(ctx.chain).install({ kind: 'logs', criteria: toLogCriteria(filter) }),
)
