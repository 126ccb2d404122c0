import { defineEthMethod } from '../define.js'
import { blockNumber, tuple, uintQuantity } from '../../params.js'
import { formatTransaction } from '../../formatters.js'

/**
 * Serves `eth_getTransactionByBlockNumberAndIndex`. `null` for an index past the block's transactions.
 */
export const eth_getTransactionByBlockNumberAndIndex = defineEthMethod(
  tuple(blockNumber, uintQuantity),
  ([number, index], ctx) => {
    const mined = ctx.chain.resolveBlock(number)?.txs[Number(index)]
    return mined ? formatTransaction(ctx.chain, mined.tx, mined.from, mined) : null
  },
)
