import type { Hex } from '../../../core/hex.js'
import { defineEthMethod } from '../define.js'
import type { EthContext } from '../../context.js'
import type { LogEntry } from '../../../evm/types.js'
import { filtersOf } from '../../filters.js'
import { formatLog, writeLogsJson } from '../../formatters.js'
import { RpcServerError } from '../../errors.js'
import { tuple } from '../../params.js'
import { findLogs } from '../logFilter.js'
import { hash32Loose } from '../shared.js'

/**
 * Serves `eth_getFilterLogs`: the logs a log filter matches over its own range as coreth's
 * `GetFilterLogs` reads it (the block its `blockHash` names, else `fromBlock`..`toBlock` with
 * latest for an absent bound), resolved when asked.
 */
export const eth_getFilterLogs = defineEthMethod(
  tuple(hash32Loose),
  ([id], ctx) => filterLogs(id, ctx).map((log) => formatLog(log)),
  ([id], ctx, out) => writeLogsJson(filterLogs(id, ctx), out),
)

function filterLogs(id: Hex, ctx: EthContext): LogEntry[] {
  const filter = filtersOf(ctx.chain).get(id)
  if (filter.kind !== 'logs') throw new RpcServerError('filter not found')
  return findLogs(ctx.chain, filter.filter)
}
