import { traceCall } from '../../../evm/trace.js'
import { RpcServerError } from '../../errors.js'
import { any, blockTag, object, optional, tuple, uintQuantity } from '../../params.js'
import { defineEthMethod } from '../define.js'
import { toBlockTag } from '../shared.js'
import { stateOverrides, toCallRequest, transactionArgs } from '../txArgs.js'
import { toTraceConfig, traceConfigFields } from './traceTransaction.js'

/** geth's `tracers.TraceCallConfig`: the TraceConfig fields, promoted, and the state to trace on. */
const traceCallConfig = object('tracers.TraceCallConfig', {
  ...traceConfigFields,
  StateOverrides: stateOverrides,
  BlockOverrides: optional(any),
  TxIndex: optional(uintQuantity),
})

/**
 * Serves `debug_traceCall`: traces a message as eth_call would run it, at a block (required, as
 * in geth; `pending` is refused), with the same tracers as debug_traceTransaction, state
 * overrides and `txIndex`. Block overrides are not supported.
 * @example debug_traceCall [{"to":"0x…","data":"0x20965255"}, "latest", {"tracer":"callTracer"}] → {"from":"0x…",…}
 */
export const debug_traceCall = defineEthMethod(
  tuple(transactionArgs, blockTag, optional(traceCallConfig)),
  ([args, tag, config], ctx) => {
    const request = toCallRequest(args, ctx.chain.chainId)
    const options = toTraceConfig(config ?? {})
    if (config?.BlockOverrides !== undefined) throw new RpcServerError('blockOverrides are not supported by l1sim')
    return traceCall(ctx.chain, request, toBlockTag(tag), {
      ...options,
      stateOverrides: config?.StateOverrides,
      txIndex: config?.TxIndex === undefined ? undefined : Number(config.TxIndex),
    })
  },
)
