import { defineEthMethod } from '../define.js'
import { filtersOf } from '../../filters.js'
import { formatLog } from '../../formatters.js'
import { tuple } from '../../params.js'
import { hash32Loose } from '../shared.js'

/** Serves `eth_getFilterChanges`: what arrived since the last poll (logs or hashes). */
export const eth_getFilterChanges = defineEthMethod(
  tuple(hash32Loose),
  ([id], ctx) => {
    const registry = filtersOf(ctx.chain)
    const kind = registry.get(id).kind
    const changes = registry.changes(id)
    return kind === 'logs' ? (changes as Parameters<typeof formatLog>[0][]).map((log) => formatLog(log)) : changes
  },
)
