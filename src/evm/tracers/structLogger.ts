/**
 * geth's default tracer, `logger.StructLogger` (libevm eth/tracers/logger/logger.go), and the
 * JSON its `GetResult` writes: `ExecutionResult` with `StructLogRes` entries.
 */
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import { OP, opcodeName, type EvmTracer, type StepContext } from './common.js'

/** geth's `logger.Config`. */
export type StructLoggerConfig = {
  enableMemory?: boolean
  disableStack?: boolean
  disableStorage?: boolean
  enableReturnData?: boolean
  /** Maximum number of logs; 0 is unlimited. */
  limit?: number
}

/** `StructLogRes`: fields in geth's order, optional ones left out as `omitempty` does. */
export type StructLogJson = {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  error?: string
  stack?: Hex[]
  returnData?: Hex
  /** 32-byte words as unprefixed hex. */
  memory?: string[]
  /** Slot → value, both 32-byte unprefixed hex, keys sorted (Go map order in JSON). */
  storage?: Record<string, string>
  refund?: number
}

/** `logger.ExecutionResult`. */
export type StructLoggerResult = {
  gas: number
  failed: boolean
  /** Unprefixed hex of the return data, or revert data; empty for other failures. */
  returnValue: string
  structLogs: StructLogJson[]
}

type StructLog = {
  pc: number
  op: number
  gas: bigint
  cost: bigint
  depth: number
  memory: Uint8Array | undefined
  stack: bigint[] | undefined
  returnData: Uint8Array | undefined
  storage: Map<string, string> | undefined
  refund: bigint
  error: string | undefined
}

const word = (value: bigint) => bytesToHex(setLengthLeft(bigIntToBytes(value), 32)).slice(2)

export class StructLogger implements EvmTracer {
  readonly #config: StructLoggerConfig
  readonly #logs: StructLog[] = []
  /** Slots seen per contract (geth's `l.storage`), by lower-case address. */
  readonly #storage = new Map<string, Map<string, string>>()
  #output: Uint8Array = new Uint8Array()
  #error: string | undefined
  #gasLimit = 0n
  #usedGas = 0n

  constructor(config: StructLoggerConfig = {}) {
    this.#config = config
  }

  captureTxStart(gasLimit: bigint): void {
    this.#gasLimit = gasLimit
  }

  async captureState(step: StepContext): Promise<void> {
    const config = this.#config
    if (config.limit && config.limit <= this.#logs.length) return
    const stack = step.stack
    let storage: Map<string, string> | undefined
    if (!config.disableStorage && (step.op === OP.SLOAD || step.op === OP.SSTORE)) {
      const contract = step.address.toString()
      let seen = this.#storage.get(contract)
      if (!seen) this.#storage.set(contract, (seen = new Map()))
      if (step.op === OP.SLOAD && stack.length >= 1) {
        const slot = word(stack[stack.length - 1]!)
        let value: Uint8Array = new Uint8Array()
        try {
          value = await step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(stack[stack.length - 1]!), 32))
        } catch {
          // A missing account reads as zero, as geth's StateDB does.
        }
        seen.set(slot, bytesToHex(setLengthLeft(value, 32)).slice(2))
        storage = new Map(seen)
      } else if (step.op === OP.SSTORE && stack.length >= 2) {
        seen.set(word(stack[stack.length - 1]!), word(stack[stack.length - 2]!))
        storage = new Map(seen)
      }
    }
    this.#logs.push({
      pc: step.pc,
      op: step.op,
      gas: step.gas,
      cost: step.cost,
      depth: step.depth,
      memory: config.enableMemory ? step.memory : undefined,
      stack: config.disableStack ? undefined : step.stack,
      returnData: config.enableReturnData ? step.returnData : undefined,
      storage,
      refund: step.refund,
      error: undefined,
    })
  }

  captureStepError(error: string, depth: number): void {
    const last = this.#logs[this.#logs.length - 1]
    if (last && last.depth === depth && last.error === undefined) last.error = error
  }

  captureEnd(output: Uint8Array, _gasUsed: bigint, error: string | undefined): void {
    this.#output = output
    this.#error = error
  }

  captureTxEnd(gasUsed: bigint): void {
    this.#usedGas = gasUsed
  }

  /** geth's `GetResult`. */
  result(): StructLoggerResult {
    const failed = this.#error !== undefined
    const returnValue = failed && this.#error !== 'execution reverted' ? '' : bytesToHex(this.#output).slice(2)
    return {
      gas: Number(this.#usedGas),
      failed,
      returnValue,
      structLogs: this.#logs.map(formatLog),
    }
  }

  get gasLimit(): bigint {
    return this.#gasLimit
  }
}

/** geth's `formatLogs`. */
function formatLog(log: StructLog): StructLogJson {
  const out: StructLogJson = {
    pc: log.pc,
    op: opcodeName(log.op),
    gas: Number(log.gas),
    gasCost: Number(log.cost),
    depth: log.depth,
  }
  if (log.error) out.error = log.error
  if (log.stack) out.stack = log.stack.map((v) => `0x${v.toString(16)}` as Hex)
  if (log.returnData && log.returnData.length > 0) out.returnData = bytesToHex(log.returnData) as Hex
  if (log.memory) {
    const memory: string[] = []
    for (let i = 0; i + 32 <= log.memory.length; i += 32) memory.push(bytesToHex(log.memory.subarray(i, i + 32)).slice(2))
    out.memory = memory
  }
  if (log.storage) {
    const storage: Record<string, string> = {}
    for (const key of [...log.storage.keys()].sort()) storage[key] = log.storage.get(key)!
    out.storage = storage
  }
  if (log.refund !== 0n) out.refund = Number(log.refund)
  return out
}
