import { defineEthMethod } from '../define.js'
import { hash32, tuple } from '../../params.js'
import { formatReceipt } from '../../formatters.js'

/**
 * Serves `eth_getTransactionReceipt`. `null` until the transaction is mined.
 */
export const eth_getTransactionReceipt = defineEthMethod(
  tuple(hash32),
  ([hash], ctx) => {
    const mined = ctx.chain.store.tx(hash)
    return mined ? formatReceipt(mined) : null
  },
)
