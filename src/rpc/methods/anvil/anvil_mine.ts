import { defineEthMethod } from '../define.js'
import { optional, quantity, tuple } from '../../params.js'
import { mineBlocks } from './mining.js'

/**
 * Serves `anvil_mine` (also `hardhat_mine`): mines `count` blocks (default 1, at most 100,000), `interval` seconds
 * apart (default 1). Other requests are served while a long run mines; a run that would end past 9999 is refused.
 *
 * @example
 * anvil_mine ["0x64", "0xc"] // null: 100 blocks, 12 s apart
 */
export const anvil_mine = defineEthMethod(
  tuple(optional(quantity), optional(quantity)),
  async ([count, interval], ctx) => {
    await mineBlocks(ctx.chain, count ?? 1n, interval ?? 1n)
    return null
  },
)
