import type { Hex } from '../../../core/hex.js'
import { defineEthMethod } from '../define.js'
import type { EthContext } from '../../context.js'
import { queryLogs } from '../../../evm/logs.js'
import type { LogEntry } from '../../../evm/types.js'
import { filtersOf } from '../../filters.js'
import { formatLog, writeLogsJson } from '../../formatters.js'
import { RpcServerError } from '../../errors.js'
import { tuple } from '../../params.js'
import { hash32Loose } from '../shared.js'

/** Serves `eth_getFilterLogs`: every log matching a log filter, over the whole chain. */
export const eth_getFilterLogs = defineEthMethod(
  tuple(hash32Loose),
  ([id], ctx) => filterLogs(id, ctx).map((log) => formatLog(log)),
  ([id], ctx, out) => writeLogsJson(filterLogs(id, ctx), out),
)

function filterLogs(id: Hex, ctx: EthContext): LogEntry[] {
  const filter = filtersOf(ctx.chain).get(id)
  if (filter.kind !== 'logs') throw new RpcServerError('filter not found')
  return queryLogs(ctx.chain, 0n, ctx.chain.store.height, filter.criteria)
}
