import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `anvil_getAutomine` (also `hardhat_getAutomine`).
 */
export const anvil_getAutomine = defineEthMethod(
  tuple(),
  (_params, ctx) => ctx.chain.mining.mode === 'auto',
)
