import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `eth_coinbase`. The address fees go to (the blackhole address unless changed).
 */
export const eth_coinbase = defineEthMethod(
  tuple(),
  (_params, ctx) => ctx.chain.coinbase,
)
