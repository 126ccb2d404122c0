import { defineEthMethod } from '../define.js'
import { bool, hash32, tuple } from '../../params.js'
import { formatBlock } from '../../formatters.js'

/**
 * Serves `eth_getBlockByHash`. `null` for an unknown hash.
 */
export const eth_getBlockByHash = defineEthMethod(
  tuple(hash32, bool),
  ([hash, full], ctx) => {
    const stored = ctx.chain.store.byHash(hash)
    return stored ? formatBlock(ctx.chain, stored, full) : null
  },
)
