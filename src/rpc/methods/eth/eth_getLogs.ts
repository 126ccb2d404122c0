import { defineEthMethod } from '../define.js'
import { blockLogs, queryLogs } from '../../../evm/logs.js'
import { RpcServerError } from '../../errors.js'
import { formatLog, writeLogsJson } from '../../formatters.js'
import { tuple } from '../../params.js'
import { logFilter, resolveRange, toLogCriteria } from '../logFilter.js'

/**
 * Serves `eth_getLogs` by block range or block hash, with coreth's limits and messages
 * (no block-range limit by default, at most 4 topics and 1000 addresses).
 */
export const eth_getLogs = defineEthMethod(
  tuple(logFilter),
  ([filter], ctx) => {
    const criteria = toLogCriteria(filter)
    if (filter.blockHash !== undefined) {
      const block = ctx.chain.store.byHash(filter.blockHash)
      if (!block) throw new RpcServerError('unknown block')
      return blockLogs(block, criteria).map((log) => formatLog(log))
    }
    const range = resolveRange(ctx.chain, filter)
    if (!range) return []
    return queryLogs(ctx.chain, range.from, range.to, criteria).map((log) => formatLog(log))
  },
  writeLogsJson,
)
