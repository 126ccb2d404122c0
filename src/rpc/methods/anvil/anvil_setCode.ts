import { defineEthMethod } from '../define.js'
import { setCode } from '../../../evm/cheats.js'
import { address, data, tuple } from '../../params.js'

/**
 * Serves `anvil_setCode` (also `hardhat_setCode`).
 */
export const anvil_setCode = defineEthMethod(
  tuple(address, data),
  async ([who, code], ctx) => {
    await setCode(ctx.chain, who, code)
    return true
  },
)
