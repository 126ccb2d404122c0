import { defineEthMethod } from '../define.js'
import { hash32, tuple } from '../../params.js'
import { toQuantity } from '../../../core/hex.js'

/**
 * Serves `eth_getBlockTransactionCountByHash`. `null` for an unknown block.
 */
export const eth_getBlockTransactionCountByHash = defineEthMethod(
  tuple(hash32),
  ([hash], ctx) => {
    const stored = ctx.chain.store.byHash(hash)
    return stored ? toQuantity(stored.txs.length) : null
  },
)
