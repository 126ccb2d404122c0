import { rulesAt } from '../../../evm/config/rules.js'
import { optional, tuple } from '../../params.js'
import { defineSubnetEvmMethod, jsonUint64 } from '../shared.js'

/**
 * Serves subnet-EVM's `eth_getActiveRulesAt([timestamp])`: geth's and Avalanche's fork flags
 * (Go field names) and the active precompiles with their activation times, at a timestamp (a
 * JSON number; the head's time when omitted).
 */
export const eth_getActiveRulesAt = defineSubnetEvmMethod(
  'eth_getActiveRulesAt',
  tuple(optional(jsonUint64)),
  ([timestamp], ctx, l1) => {
    return rulesAt(l1.rules.config, timestamp ?? ctx.chain.head.block.header.timestamp)
  },
)
