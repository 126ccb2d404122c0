import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `anvil_removeBlockTimestampInterval`: back to clock-driven timestamps. True if an interval was set.
 */
export const anvil_removeBlockTimestampInterval = defineEthMethod(
  tuple(),
  (_params, ctx) => {
    const had = ctx.chain.timing.interval !== undefined
    ctx.chain.timing.interval = undefined
    return had
  },
)
