import { defineEthMethod } from '../define.js'
import { bool, tuple } from '../../params.js'

/**
 * Serves `evm_setAutomine` (also `anvil_setAutomine`): automine on, or off (manual mining).
 */
export const evm_setAutomine = defineEthMethod(
  tuple(bool),
  ([on], ctx) => {
    ctx.chain.mining = on ? { mode: 'auto' } : { mode: 'manual' }
    ctx.chain.nextIntervalAt = undefined
    return null
  },
)
