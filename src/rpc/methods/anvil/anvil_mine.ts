import { defineEthMethod } from '../define.js'
import { optional, quantity, tuple } from '../../params.js'
import { mineBlocks } from './mining.js'

/**
 * Serves `anvil_mine` (also `hardhat_mine`): mines `count` blocks (default 1), `interval` seconds apart (default 1).
 */
export const anvil_mine = defineEthMethod(
  tuple(optional(quantity), optional(quantity)),
  async ([count, interval], ctx) => {
    await mineBlocks(ctx.chain, count ?? 1n, interval ?? 1n)
    return null
  },
)
