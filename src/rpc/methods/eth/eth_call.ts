import { defineEthMethod } from '../define.js'
import { bytesToHex } from '../../../core/hex.js'
import { call } from '../../../evm/call.js'
import { callFailedError, revertError } from '../../errors.js'
import { blockTag, optional, tuple } from '../../params.js'
import { toBlockTag } from '../shared.js'
import { stateOverrides, toCallRequest, transactionArgs } from '../txArgs.js'

/**
 * Serves `eth_call`: executes a message on the state at a block, with optional state overrides.
 * A revert is code 3 with the revert data; other failures are geth's `err: … (supplied gas N)`.
 * @example eth_call [{"to":"0x…","data":"0x70a08231…"}, "latest"] → "0x…"
 */
export const eth_call = defineEthMethod(
  tuple(transactionArgs, optional(blockTag), stateOverrides),
  async ([args, tag, overrides], ctx) => {
    const request = toCallRequest(args, ctx.chain.chainId)
    const result = await call(ctx.chain, request, toBlockTag(tag), overrides)
    if (result.success) return bytesToHex(result.returnValue)
    if (result.reverted) throw revertError(result.returnValue)
    throw callFailedError(result.error ?? 'execution failed', request.gas ?? 50_000_000n)
  },
)
