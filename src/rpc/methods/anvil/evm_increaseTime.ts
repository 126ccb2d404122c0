import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { checkTimestamp, seconds } from './mining.js'

/**
 * Serves `evm_increaseTime`: moves network time forward; interval mining catches up. Returns the seconds added.
 * A move past 9999 is refused (`The timestamp is too big`, anvil's word for a time it cannot keep).
 *
 * @example
 * evm_increaseTime ["0xe10"] // 3600
 */
export const evm_increaseTime = defineEthMethod(
  tuple(seconds),
  async ([by], ctx) => {
    checkTimestamp(BigInt(ctx.network.clock.now()) + by)
    await ctx.network.advanceTime(Number(by))
    return Number(by)
  },
)
