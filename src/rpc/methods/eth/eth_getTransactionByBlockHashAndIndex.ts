import { defineEthMethod } from '../define.js'
import { hash32, tuple, uintQuantity } from '../../params.js'
import { formatTransaction } from '../../formatters.js'

/**
 * Serves `eth_getTransactionByBlockHashAndIndex`. `null` when the block or index does not exist.
 */
export const eth_getTransactionByBlockHashAndIndex = defineEthMethod(
  tuple(hash32, uintQuantity),
  ([hash, index], ctx) => {
    const mined = ctx.chain.store.byHash(hash)?.txs[Number(index)]
    return mined ? formatTransaction(ctx.chain, mined.tx, mined.from, mined) : null
  },
)
