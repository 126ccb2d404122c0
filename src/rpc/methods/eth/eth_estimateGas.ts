import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { estimateGas } from '../../../evm/call.js'
import { gasRequiredExceedsAllowanceError, revertError, RpcServerError } from '../../errors.js'
import { blockTag, optional, tuple } from '../../params.js'
import { toBlockTag } from '../shared.js'
import { stateOverrides, toCallRequest, transactionArgs } from '../txArgs.js'

/**
 * Serves `eth_estimateGas` with geth's estimator (binary search to 1.5%). Avalanche chains pay
 * no refunds, so the estimate is the gas the transaction really needs.
 */
export const eth_estimateGas = defineEthMethod(
  tuple(transactionArgs, optional(blockTag), stateOverrides),
  async ([args, tag, overrides], ctx) => {
    const request = toCallRequest(args, ctx.chain.chainId)
    const estimate = await estimateGas(ctx.chain, request, toBlockTag(tag), overrides)
    if (estimate.ok) return toQuantity(estimate.gas)
    const { result } = estimate
    if (result.reverted) throw revertError(result.returnValue)
    if (result.error === 'out of gas' || result.error === 'codesize exceeds maximum') throw gasRequiredExceedsAllowanceError(estimate.gas)
    throw new RpcServerError(result.error ?? 'execution failed')
  },
)
