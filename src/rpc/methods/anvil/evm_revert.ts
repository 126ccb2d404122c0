import { defineEthMethod } from '../define.js'
import { quantity, tuple } from '../../params.js'

/**
 * Serves `evm_revert`: back to a snapshot; it and every later snapshot are used up. False for an unknown id.
 */
export const evm_revert = defineEthMethod(
  tuple(quantity),
  ([id], ctx) => ctx.network.revert(id),
)
