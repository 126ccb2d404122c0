import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { seconds } from './mining.js'

/**
 * Serves `evm_increaseTime`: moves network time forward; interval mining catches up. Returns the seconds added.
 */
export const evm_increaseTime = defineEthMethod(
  tuple(seconds),
  async ([by], ctx) => {
    await ctx.network.advanceTime(Number(by))
    return Number(by)
  },
)
