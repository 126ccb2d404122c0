import { defineEthMethod } from '../define.js'
import type { EthContext } from '../../context.js'
import { blockLogs, queryLogs } from '../../../evm/logs.js'
import type { LogEntry } from '../../../evm/types.js'
import { RpcServerError } from '../../errors.js'
import { formatLog, writeLogsJson } from '../../formatters.js'
import { tuple } from '../../params.js'
import { logFilter, resolveRange, toLogCriteria, type LogFilter } from '../logFilter.js'

/**
 * Serves `eth_getLogs` by block range or block hash, with coreth's limits and messages
 * (no block-range limit by default, at most 4 topics and 1000 addresses). Over JSON-RPC the
 * logs are written straight into the answer's bytes.
 */
export const eth_getLogs = defineEthMethod(
  tuple(logFilter),
  ([filter], ctx) => matchingLogs(filter, ctx).map((log) => formatLog(log)),
  ([filter], ctx, out) => writeLogsJson(matchingLogs(filter, ctx), out),
)

function matchingLogs(filter: LogFilter, ctx: EthContext): LogEntry[] {
  const criteria = toLogCriteria(filter)
  if (filter.blockHash !== undefined) {
    const block = ctx.chain.store.byHash(filter.blockHash)
    if (!block) throw new RpcServerError('unknown block')
    return blockLogs(block, criteria)
  }
  const range = resolveRange(ctx.chain, filter)
  return range ? queryLogs(ctx.chain, range.from, range.to, criteria) : []
}
