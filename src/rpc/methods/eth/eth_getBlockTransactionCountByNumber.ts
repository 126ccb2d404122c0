import { defineEthMethod } from '../define.js'
import { blockNumber, tuple } from '../../params.js'
import { toQuantity } from '../../../core/hex.js'

/**
 * Serves `eth_getBlockTransactionCountByNumber`. A number above the head fails as on coreth.
 */
export const eth_getBlockTransactionCountByNumber = defineEthMethod(
  tuple(blockNumber),
  ([number], ctx) => {
    const stored = ctx.chain.resolveBlock(number)
    return stored ? toQuantity(stored.txs.length) : null
  },
)
