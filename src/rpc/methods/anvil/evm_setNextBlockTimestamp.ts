import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { pinNextTimestamp, seconds } from './mining.js'

/**
 * Serves `evm_setNextBlockTimestamp` (also `anvil_setNextBlockTimestamp`): the exact timestamp of the next block.
 * A time past 9999 is refused as anvil refuses one past u64 (`The timestamp is too big`).
 *
 * @example
 * evm_setNextBlockTimestamp ["0x6955b900"] // null
 */
export const evm_setNextBlockTimestamp = defineEthMethod(
  tuple(seconds),
  ([timestamp], ctx) => {
    pinNextTimestamp(ctx.chain, timestamp)
    return null
  },
)
