import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { tuple } from '../../params.js'

/**
 * Serves `evm_snapshot` (also `anvil_snapshot`, `hardhat_snapshot`): a snapshot of the whole network — every chain, the
 * clock and the pools — not of one chain. Returns its id.
 * @example evm_snapshot → "0x1"
 */
export const evm_snapshot = defineEthMethod(
  tuple(),
  async (_params, ctx) => toQuantity(await ctx.network.snapshot()),
)
