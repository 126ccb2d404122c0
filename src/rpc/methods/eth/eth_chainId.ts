import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { toQuantity } from '../../../core/hex.js'

/**
 * Serves `eth_chainId`. @example eth_chainId → "0xa868" (local C-chain)
 */
export const eth_chainId = defineEthMethod(
  tuple(),
  (_params, ctx) => toQuantity(ctx.chain.chainId),
)
