import { feeConfigJson } from '../../../evm/config/json.js'
import { blockTag, optional, tuple } from '../../params.js'
import { defineSubnetEvmMethod, toBlockTag } from '../shared.js'

/**
 * Serves subnet-EVM's `eth_feeConfig([block])`: the fee config in force after the block (the fee
 * manager's stored config when it is enabled there, else the genesis config with lastChangedAt 0).
 * @example eth_feeConfig ["latest"] → {"feeConfig":{"gasLimit":8000000,…},"lastChangedAt":0}
 */
export const eth_feeConfig = defineSubnetEvmMethod(
  'eth_feeConfig',
  tuple(optional(blockTag)),
  async ([tag], ctx, l1) => {
    const { feeConfig, lastChangedAt } = await l1.rules.feeConfigAt(ctx.chain, toBlockTag(tag))
    return feeConfigJson(feeConfig, lastChangedAt)
  },
)
