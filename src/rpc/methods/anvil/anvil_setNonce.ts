import { defineEthMethod } from '../define.js'
import { setNonce } from '../../../evm/cheats.js'
import { address, quantity, tuple } from '../../params.js'

/**
 * Serves `anvil_setNonce` (also `hardhat_setNonce`).
 */
export const anvil_setNonce = defineEthMethod(
  tuple(address, quantity),
  async ([who, nonce], ctx) => {
    await setNonce(ctx.chain, who, nonce)
    return true
  },
)
