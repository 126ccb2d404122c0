import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { seconds } from './mining.js'

/**
 * Serves `anvil_setBlockTimestampInterval`: every next block is this many seconds after its parent.
 */
export const anvil_setBlockTimestampInterval = defineEthMethod(
  tuple(seconds),
  ([interval], ctx) => {
    ctx.chain.timing.interval = interval
    return null
  },
)
