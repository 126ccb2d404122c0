import { defineEthMethod } from '../define.js'
import type { Hex } from '../../../core/hex.js'
import { address, tuple } from '../../params.js'

/**
 * Serves `anvil_impersonateAccount` (also `hardhat_impersonateAccount`): eth_sendTransaction from this address needs no key.
 */
export const anvil_impersonateAccount = defineEthMethod(
  tuple(address),
  ([who], ctx) => {
    ctx.chain.impersonated.add(who.toLowerCase() as Hex)
    return null
  },
)
