import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { checkTimestamp, seconds } from './mining.js'

/**
 * Serves `anvil_setBlockTimestampInterval`: every next block is this many seconds after its parent.
 * An interval that would put the next block past 9999 is refused (`The timestamp is too big`).
 *
 * @example
 * anvil_setBlockTimestampInterval [12] // null
 */
export const anvil_setBlockTimestampInterval = defineEthMethod(
  tuple(seconds),
  ([interval], ctx) => {
    checkTimestamp(ctx.chain.head.block.header.timestamp + interval)
    ctx.chain.timing.interval = interval
    return null
  },
)
