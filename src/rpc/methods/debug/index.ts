/** The `debug_` namespace: tracing. */
import { debug_traceCall } from './traceCall.js'
import { debug_traceTransaction } from './traceTransaction.js'

export const debugMethods = { debug_traceTransaction, debug_traceCall }
