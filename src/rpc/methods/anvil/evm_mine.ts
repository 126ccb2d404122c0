import { defineEthMethod } from '../define.js'
import { any, optional, tuple } from '../../params.js'
import { mineBlocks, parseMineOptions } from './mining.js'

/**
 * Serves `evm_mine`: mines one block, or `{timestamp, blocks}` as anvil takes it; a bare number is the timestamp.
 */
export const evm_mine = defineEthMethod(
  tuple(optional(any)),
  async ([options], ctx) => {
    const { timestamp, blocks } = parseMineOptions(options)
    if (timestamp !== undefined) ctx.chain.timing.nextTimestamp = timestamp
    await mineBlocks(ctx.chain, blocks, 1n)
    return '0x0'
  },
)
