import { activePrecompilesAt } from '../../../evm/config/rules.js'
import { optional, tuple } from '../../params.js'
import { defineSubnetEvmMethod, jsonUint64 } from '../shared.js'

/**
 * Serves subnet-EVM's deprecated `eth_getActivePrecompilesAt([timestamp])`: the precompile
 * configs enabled at a timestamp (a JSON number; the head's time when omitted).
 */
export const eth_getActivePrecompilesAt = defineSubnetEvmMethod(
  'eth_getActivePrecompilesAt',
  tuple(optional(jsonUint64)),
  ([timestamp], ctx, l1) => {
    return activePrecompilesAt(l1.rules.config, timestamp ?? ctx.chain.head.block.header.timestamp)
  },
)
