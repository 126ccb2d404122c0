import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { toQuantity } from '../../../core/hex.js'

/**
 * Serves `eth_blockNumber`. Height of the last accepted block.
 */
export const eth_blockNumber = defineEthMethod(
  tuple(),
  (_params, ctx) => toQuantity(ctx.chain.store.height),
)
