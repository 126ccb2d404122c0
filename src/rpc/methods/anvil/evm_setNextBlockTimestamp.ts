import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { RpcServerError } from '../../errors.js'
import { seconds } from './mining.js'

/**
 * Serves `evm_setNextBlockTimestamp` (also `anvil_setNextBlockTimestamp`): the exact timestamp of the next block.
 */
export const evm_setNextBlockTimestamp = defineEthMethod(
  tuple(seconds),
  ([timestamp], ctx) => {
    const parent = ctx.chain.head.block.header.timestamp
    if (timestamp <= parent)
      throw new RpcServerError(`Timestamp error: ${timestamp} is lower than or equal to previous block's timestamp ${parent}`)
    ctx.chain.timing.nextTimestamp = timestamp
    return null
  },
)
