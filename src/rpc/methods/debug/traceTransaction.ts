import type { TraceConfig } from '../../../evm/trace.js'
import { traceTransaction } from '../../../evm/trace.js'
import { RpcServerError } from '../../errors.js'
import { any, bool, createParser, hash32, jsonKind, object, optional, string, tuple, UnmarshalTypeError, type ParserOutput } from '../../params.js'
import { defineEthMethod } from '../define.js'

/** Go `int` / `uint64` from a JSON number (geth's `Limit`, `Reexec`). */
function goInteger(goType: 'int' | 'uint64') {
  return createParser(goType, (raw) => {
    if (typeof raw !== 'number') throw new UnmarshalTypeError(jsonKind(raw), goType, true)
    const bounded = goType === 'int' ? Math.abs(raw) <= 2 ** 63 : raw >= 0 && raw <= 2 ** 64
    if (!Number.isInteger(raw) || !bounded) throw new UnmarshalTypeError(`number ${raw}`, goType, true)
    return raw
  })
}

/**
 * The fields of geth's `tracers.TraceConfig`: the embedded `logger.Config` has no JSON tags, so
 * its keys are the Go field names (matched case-insensitively, so `enableMemory` works).
 */
export const traceConfigFields = {
  EnableMemory: bool,
  DisableStack: bool,
  DisableStorage: bool,
  EnableReturnData: bool,
  Debug: bool,
  Limit: goInteger('int'),
  Tracer: optional(string),
  Timeout: optional(string),
  Reexec: optional(goInteger('uint64')),
  TracerConfig: optional(any),
}

const traceConfig = object('tracers.TraceConfig', traceConfigFields)

const callTracerConfig = object('native.callTracerConfig', { onlyTopCall: bool, withLog: bool })

/** A Go duration as `time.ParseDuration` accepts it. */
const GO_DURATION = /^[-+]?(0|((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/

/**
 * Turns the parsed config into the tracer options, failing as geth does once the tracer is built:
 * `time: invalid duration`, or the named tracer's own JSON error for its `tracerConfig` (-32000).
 */
export function toTraceConfig(fields: Partial<ParserOutput<typeof traceConfig>>): TraceConfig {
  if (fields.Timeout !== undefined && !GO_DURATION.test(fields.Timeout))
    throw new RpcServerError(`time: invalid duration ${JSON.stringify(fields.Timeout)}`)
  const config: TraceConfig = {
    enableMemory: fields.EnableMemory ?? false,
    disableStack: fields.DisableStack ?? false,
    disableStorage: fields.DisableStorage ?? false,
    enableReturnData: fields.EnableReturnData ?? false,
    limit: fields.Limit ?? 0,
  }
  if (fields.Tracer !== undefined) config.tracer = fields.Tracer
  if (fields.Tracer === 'callTracer' && fields.TracerConfig !== undefined) {
    try {
      const parsed = callTracerConfig(fields.TracerConfig)
      config.tracerConfig = { onlyTopCall: parsed.onlyTopCall ?? false, withLog: parsed.withLog ?? false }
    } catch (err) {
      if (err instanceof UnmarshalTypeError) throw new RpcServerError(err.shortMessage)
      throw err
    }
  }
  return config
}

/**
 * Serves `debug_traceTransaction`: replays a mined transaction with geth's struct logger, or
 * with `{"tracer":"callTracer"}` its call tree. Unknown hash: `transaction not found` (-32000).
 * @example debug_traceTransaction ["0x…", {"tracer":"callTracer","tracerConfig":{"withLog":true}}] → {"from":"0x…","gas":"0x…",…,"type":"CALL"}
 */
export const debug_traceTransaction = defineEthMethod(
  tuple(hash32, optional(traceConfig)),
  ([hash, config], ctx) => traceTransaction(ctx.chain, hash, toTraceConfig(config ?? {})),
)
