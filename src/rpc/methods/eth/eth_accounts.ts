import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `eth_accounts`. The dev accounts. (coreth leaves its keystore service off; a devnet serves the accounts it funds, as anvil does.)
 */
export const eth_accounts = defineEthMethod(
  tuple(),
  (_params, ctx) => ctx.network.devAccounts.map((a) => a.address.toLowerCase()),
)
