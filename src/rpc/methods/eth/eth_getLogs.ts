import { defineEthMethod } from '../define.js'
import { formatLog, writeLogsJson } from '../../formatters.js'
import { tuple } from '../../params.js'
import { findLogs, logFilter } from '../logFilter.js'

/**
 * Serves `eth_getLogs` by block range or block hash, with coreth's limits and messages
 * (no block-range limit by default, at most 4 topics and 1000 addresses). Over JSON-RPC the
 * logs are written straight into the answer's bytes.
 */
export const eth_getLogs = defineEthMethod(
  tuple(logFilter),
  ([filter], ctx) => findLogs(ctx.chain, filter).map((log) => formatLog(log)),
  ([filter], ctx, out) => writeLogsJson(findLogs(ctx.chain, filter), out),
)
