import { defineEthMethod } from '../define.js'
import { bool, tuple } from '../../params.js'

/**
 * Serves `anvil_autoImpersonateAccount`: every address may send without a key.
 */
export const anvil_autoImpersonateAccount = defineEthMethod(
  tuple(bool),
  ([on], ctx) => {
    ctx.chain.autoImpersonate = on
    return null
  },
)
