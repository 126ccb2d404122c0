import { defineEthMethod } from '../define.js'
import { hash32, tuple } from '../../params.js'
import { formatTransaction } from '../../formatters.js'

/**
 * Serves `eth_getTransactionByHash`. A mined transaction, or a pool one with null block fields; `null` when unknown.
 */
export const eth_getTransactionByHash = defineEthMethod(
  tuple(hash32),
  ([hash], ctx) => {
    const key = hash.toLowerCase() as typeof hash
    const mined = ctx.chain.store.tx(key)
    if (mined) return formatTransaction(ctx.chain, mined.tx, mined.from, mined)
    const pending = ctx.chain.pool.byHash(key)
    return pending ? formatTransaction(ctx.chain, pending.tx, pending.from) : null
  },
)
