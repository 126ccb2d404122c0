import { defineEthMethod } from '../define.js'
import { blockTag, tuple } from '../../params.js'
import { formatReceipt } from '../../formatters.js'
import { toBlockTag } from '../shared.js'

/**
 * Serves `eth_getBlockReceipts`. Every receipt of a block; `null` for an unknown block.
 */
export const eth_getBlockReceipts = defineEthMethod(
  tuple(blockTag),
  ([ref], ctx) => {
    const stored = ctx.chain.findBlock(toBlockTag(ref))
    return stored ? stored.txs.map(formatReceipt) : null
  },
)
