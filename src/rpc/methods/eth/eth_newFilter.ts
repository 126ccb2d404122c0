import { defineEthMethod } from '../define.js'
import { filtersOf } from '../../filters.js'
import { tuple } from '../../params.js'
import { checkAcceptedLogsRange, logFilter, toLogCriteria } from '../logFilter.js'

/**
 * Serves `eth_newFilter`: a log filter polled with eth_getFilterChanges (logs of new blocks within
 * its range) and read whole with eth_getFilterLogs; returns its id.
 */
export const eth_newFilter = defineEthMethod(tuple(logFilter), ([filter], ctx) => {
  toLogCriteria(filter)
  checkAcceptedLogsRange(filter)
  return filtersOf(ctx.chain).install({ kind: 'logs', filter })
})
