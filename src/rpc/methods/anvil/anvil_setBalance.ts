import { defineEthMethod } from '../define.js'
import { setBalance } from '../../../evm/cheats.js'
import { address, quantity, tuple } from '../../params.js'

/**
 * Serves `anvil_setBalance` (also `hardhat_setBalance`).
 */
export const anvil_setBalance = defineEthMethod(
  tuple(address, quantity),
  async ([who, balance], ctx) => {
    await setBalance(ctx.chain, who, balance)
    return true
  },
)
