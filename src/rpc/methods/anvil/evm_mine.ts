import { defineEthMethod } from '../define.js'
import { optional, tuple } from '../../params.js'
import { mineBlocks, mineOptions, pinNextTimestamp } from './mining.js'

/**
 * Serves `evm_mine`: mines one block, or `{timestamp, blocks}` as anvil takes it; a bare number is the timestamp.
 * The timestamp is checked as `evm_setNextBlockTimestamp` checks it (anvil sets it through that call).
 *
 * @example
 * evm_mine [{"timestamp": 1767225700, "blocks": 2}] // "0x0"
 */
export const evm_mine = defineEthMethod(
  tuple(optional(mineOptions)),
  async ([options], ctx) => {
    const { timestamp, blocks } = options ?? { blocks: 1n }
    if (timestamp !== undefined) pinNextTimestamp(ctx.chain, timestamp)
    await mineBlocks(ctx.chain, blocks, 1n)
    return '0x0'
  },
)
