import { defineEthMethod } from '../define.js'
import { setStorageAt } from '../../../evm/cheats.js'
import { address, data, tuple } from '../../params.js'
import { storageSlot } from '../shared.js'

/**
 * Serves `anvil_setStorageAt` (also `hardhat_setStorageAt`): one 32-byte slot.
 */
export const anvil_setStorageAt = defineEthMethod(
  tuple(address, storageSlot, data),
  async ([who, slot, value], ctx) => {
    await setStorageAt(ctx.chain, who, slot, value)
    return true
  },
)
