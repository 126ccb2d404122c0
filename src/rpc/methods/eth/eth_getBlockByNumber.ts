import { defineEthMethod } from '../define.js'
import { blockNumber, bool, tuple } from '../../params.js'
import { formatBlock } from '../../formatters.js'

/**
 * Serves `eth_getBlockByNumber`. Full transactions when the flag is set. A number above the head fails as on coreth
 * (`cannot query unfinalized data`).
 */
export const eth_getBlockByNumber = defineEthMethod(
  tuple(blockNumber, bool),
  ([number, full], ctx) => {
    const stored = ctx.chain.resolveBlock(number)
    return stored ? formatBlock(ctx.chain, stored, full) : null
  },
)
