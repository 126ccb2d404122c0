import { defineEthMethod } from '../define.js'
import { address, blockTag, tuple } from '../../params.js'
import { bytesToHex } from '../../../core/hex.js'
import { toBlockTag } from '../shared.js'

/**
 * Serves `eth_getCode`. Contract code at a block.
 */
export const eth_getCode = defineEthMethod(
  tuple(address, blockTag),
  async ([who, tag], ctx) => bytesToHex(await ctx.chain.getCode(who, toBlockTag(tag))),
)
