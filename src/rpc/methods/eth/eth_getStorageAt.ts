import { defineEthMethod } from '../define.js'
import { address, blockTag, tuple } from '../../params.js'
import { bytesToHex } from '../../../core/hex.js'
import { storageSlot, toBlockTag } from '../shared.js'

/**
 * Serves `eth_getStorageAt`. One storage slot (32 bytes) at a block.
 */
export const eth_getStorageAt = defineEthMethod(
  tuple(address, storageSlot, blockTag),
  async ([who, slot, tag], ctx) => bytesToHex(await ctx.chain.getStorageAt(who, slot, toBlockTag(tag))),
)
