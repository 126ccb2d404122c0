import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `net_version`. The EVM chain id as a decimal string: coreth sets the eth network id to the chain id.
 * @example net_version → "43112"
 */
export const net_version = defineEthMethod(
  tuple(),
  (_params, ctx) => ctx.chain.chainId.toString(),
)
