import { defineEthMethod } from '../define.js'
import { bytesToHex } from '../../../core/hex.js'
import { call, RPC_GAS_CAP } from '../../../evm/call.js'
import { TxRejectedError } from '../../../evm/errors.js'
import { callFailedError, revertError, RpcServerError } from '../../errors.js'
import { blockTag, optional, tuple } from '../../params.js'
import { toBlockTag } from '../shared.js'
import { stateOverrides, toCallRequest, transactionArgs } from '../txArgs.js'

/**
 * Serves `eth_call`: executes a message on the state at a block, with optional state overrides.
 * A revert is code 3 with the revert data; a refusal of the state transition (funds, fee caps,
 * intrinsic gas) is geth's `err: … (supplied gas N)`; any other EVM failure is its bare message.
 * @example eth_call [{"to":"0x…","data":"0x70a08231…"}, "latest"] → "0x…"
 */
export const eth_call = defineEthMethod(
  tuple(transactionArgs, optional(blockTag), stateOverrides),
  async ([args, tag, overrides], ctx) => {
    const request = toCallRequest(args, ctx.chain.chainId)
    let result
    try {
      result = await call(ctx.chain, request, toBlockTag(tag), overrides)
    } catch (error) {
      if (!(error instanceof TxRejectedError)) throw error
      const supplied = request.gas === undefined || request.gas > RPC_GAS_CAP ? RPC_GAS_CAP : request.gas
      throw callFailedError(error, supplied)
    }
    if (result.success) return bytesToHex(result.returnValue)
    if (result.reverted) throw revertError(result.returnValue)
    throw new RpcServerError(result.error ?? 'execution failed')
  },
)
