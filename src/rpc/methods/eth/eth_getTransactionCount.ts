import { defineEthMethod } from '../define.js'
import { address, blockTag, tuple } from '../../params.js'
import { toQuantity } from '../../../core/hex.js'
import { toBlockTag } from '../shared.js'

/**
 * Serves `eth_getTransactionCount`. With `pending`, counts the sender's pool transactions too, as geth does.
 */
export const eth_getTransactionCount = defineEthMethod(
  tuple(address, blockTag),
  async ([who, tag], ctx) => {
    const ref = toBlockTag(tag)
    const { nonce } = await ctx.chain.getAccountFields(who, ref)
    return toQuantity(ref === 'pending' ? ctx.chain.pool.nextNonce(who.toLowerCase() as typeof who, nonce) : nonce)
  },
)
