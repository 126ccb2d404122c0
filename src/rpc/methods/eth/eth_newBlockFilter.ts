import { defineEthMethod } from '../define.js'
import { filtersOf } from '../../filters.js'
import { tuple } from '../../params.js'

/** Serves `eth_newBlockFilter`: new block hashes, polled with eth_getFilterChanges. */
export const eth_newBlockFilter = defineEthMethod(
  tuple(),
  (_params, ctx) => filtersOf(ctx.chain).install({ kind: 'blocks' }),
)
