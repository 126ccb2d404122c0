import { defineEthMethod } from '../define.js'
import { filtersOf } from '../../filters.js'
import { bool, optional, tuple } from '../../params.js'

/** Serves `eth_newPendingTransactionFilter`: hashes of transactions entering the pool. */
export const eth_newPendingTransactionFilter = defineEthMethod(
  tuple(optional(bool)),
  (_params, ctx) => filtersOf(ctx.chain).install({ kind: 'pendingTransactions' }),
)
