/**
 * geth's native `callTracer` (libevm eth/tracers/native/call.go) and the JSON of its
 * `callFrame` (gen_callframe_json.go): nested frames with geth's field order, hex quantities,
 * `revertReason` decoded as `abi.UnpackRevert` does, and logs with `withLog`.
 */
import { bigIntToBytes, bytesToBigInt, bytesToHex, setLengthLeft, type Address } from '@ethereumjs/util'
import { toQuantity, type Hex } from '../../core/hex.js'
import { OP, type EvmTracer, type FrameType, type StepContext } from './common.js'

/** geth's `callTracerConfig`. */
export type CallTracerConfig = {
  /** Leave out every frame below the transaction's own. */
  onlyTopCall?: boolean
  /** Collect the logs each frame emits. */
  withLog?: boolean
}

export type CallLogJson = {
  address: Hex
  topics: Hex[]
  data: Hex
  /** Number of sub-calls the frame had made when it emitted the log. */
  position: Hex
}

/** A `callFrame` as geth marshals it: this key order, optional keys left out when empty. */
export type CallFrameJson = {
  from: Hex
  gas: Hex
  gasUsed: Hex
  to?: Hex
  input: Hex
  output?: Hex
  error?: string
  revertReason?: string
  calls?: CallFrameJson[]
  logs?: CallLogJson[]
  value?: Hex
  type: FrameType
}

type CallLog = { address: Address; topics: Uint8Array[]; data: Uint8Array; position: number }

type CallFrame = {
  type: FrameType
  from: Address
  gas: bigint
  gasUsed: bigint
  to: Address | undefined
  input: Uint8Array
  output: Uint8Array | undefined
  error: string
  revertReason: string
  calls: CallFrame[]
  logs: CallLog[]
  value: bigint | undefined
}

/** Memory padding geth allows when copying a log's data (tracers.memoryPadLimit). */
const MEMORY_PAD_LIMIT = 1024 * 1024

export class CallTracer implements EvmTracer {
  readonly #config: CallTracerConfig
  readonly #stack: CallFrame[]
  #gasLimit = 0n

  constructor(config: CallTracerConfig = {}) {
    this.#config = config
    this.#stack = [newFrame('CALL', undefined)]
  }

  captureTxStart(gasLimit: bigint): void {
    this.#gasLimit = gasLimit
  }

  captureStart(from: Address, to: Address, create: boolean, input: Uint8Array, _gas: bigint, value: bigint): void {
    const top = newFrame(create ? 'CREATE' : 'CALL', from)
    top.to = to
    top.input = input
    top.gas = this.#gasLimit
    top.value = value
    this.#stack[0] = top
  }

  captureEnd(output: Uint8Array, _gasUsed: bigint, error: string | undefined): void {
    processOutput(this.#stack[0]!, output, error)
  }

  captureState(step: StepContext): void {
    if (!this.#config.withLog) return
    if (this.#config.onlyTopCall && step.depth > 1) return
    if (step.op < OP.LOG0 || step.op > OP.LOG4) return
    const size = step.op - OP.LOG0
    const stack = step.stack
    const n = stack.length
    const offset = stack[n - 1]!
    const length = stack[n - 2]!
    const topics: Uint8Array[] = []
    for (let i = 0; i < size; i++) topics.push(setLengthLeft(bigIntToBytes(stack[n - 2 - (i + 1)]!), 32))
    const data = memoryCopyPadded(step.memory, offset, length)
    if (!data) return
    const frame = this.#stack[this.#stack.length - 1]!
    frame.logs.push({ address: step.address, topics, data, position: frame.calls.length })
  }

  captureEnter(type: FrameType, from: Address, to: Address, input: Uint8Array, gas: bigint, value: bigint | undefined): void {
    if (this.#config.onlyTopCall) return
    const frame = newFrame(type, from)
    frame.to = to
    frame.input = input
    frame.gas = gas
    frame.value = value
    this.#stack.push(frame)
  }

  captureExit(output: Uint8Array, gasUsed: bigint, error: string | undefined): void {
    if (this.#config.onlyTopCall) return
    if (this.#stack.length <= 1) return
    const frame = this.#stack.pop()!
    frame.gasUsed = gasUsed
    processOutput(frame, output, error)
    this.#stack[this.#stack.length - 1]!.calls.push(frame)
  }

  captureTxEnd(gasUsed: bigint): void {
    this.#stack[0]!.gasUsed = gasUsed
    if (this.#config.withLog) clearFailedLogs(this.#stack[0]!, false)
  }

  result(): CallFrameJson {
    if (this.#stack.length !== 1) throw new Error('incorrect number of top-level calls')
    return toJson(this.#stack[0]!)
  }
}

function newFrame(type: FrameType, from: Address | undefined): CallFrame {
  return {
    type,
    from: from as Address,
    gas: 0n,
    gasUsed: 0n,
    to: undefined,
    input: new Uint8Array(),
    output: undefined,
    error: '',
    revertReason: '',
    calls: [],
    logs: [],
    value: undefined,
  }
}

/** geth's `callFrame.processOutput`. */
function processOutput(frame: CallFrame, output: Uint8Array, error: string | undefined): void {
  if (error === undefined) {
    frame.output = output
    return
  }
  frame.error = error
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined
  if (error !== 'execution reverted' || output.length === 0) return
  frame.output = output
  if (output.length < 4) return
  const reason = unpackRevert(output)
  if (reason !== undefined) frame.revertReason = reason
}

function clearFailedLogs(frame: CallFrame, parentFailed: boolean): void {
  const failed = frame.error.length > 0 || parentFailed
  if (failed) frame.logs = []
  for (const call of frame.calls) clearFailedLogs(call, failed)
}

/** tracers.GetMemoryCopyPadded: a copy of memory[offset, offset+size), zero-padded past its end. */
function memoryCopyPadded(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array | undefined {
  if (size === 0n) return new Uint8Array()
  const end = offset + size
  if (end > BigInt(memory.length) && end - BigInt(memory.length) > BigInt(MEMORY_PAD_LIMIT)) return undefined
  const out = new Uint8Array(Number(size))
  const start = Number(offset)
  if (start < memory.length) out.set(memory.subarray(start, Math.min(memory.length, Number(end))))
  return out
}

const REVERT_SELECTOR = '0x08c379a0'
const PANIC_SELECTOR = '0x4e487b71'

/** Solidity panic codes as geth's `abi.panicReasons` names them. */
const PANIC_REASONS: Record<string, string> = {
  '0': 'generic panic',
  '1': 'assert(false)',
  '17': 'arithmetic underflow or overflow',
  '18': 'division or modulo by zero',
  '33': 'enum overflow',
  '34': 'invalid encoded storage byte array accessed',
  '49': 'out-of-bounds array access; popping on an empty array',
  '50': 'out-of-bounds access of an array or bytesN',
  '65': 'out of memory',
  '81': 'uninitialized function',
}

/** geth's `abi.UnpackRevert`: the reason of `Error(string)` or `Panic(uint256)`, else undefined. */
export function unpackRevert(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const selector = bytesToHex(data.subarray(0, 4))
  const body = data.subarray(4)
  if (selector === REVERT_SELECTOR) {
    if (body.length < 32) return undefined
    const offset = bytesToBigInt(body.subarray(0, 32))
    if (offset > BigInt(body.length) - 32n) return undefined
    const lengthAt = Number(offset)
    const length = bytesToBigInt(body.subarray(lengthAt, lengthAt + 32))
    if (lengthAt + 32 + Number(length) > body.length || length > BigInt(body.length)) return undefined
    return new TextDecoder().decode(body.subarray(lengthAt + 32, lengthAt + 32 + Number(length)))
  }
  if (selector === PANIC_SELECTOR) {
    if (body.length < 32) return undefined
    const code = bytesToBigInt(body.subarray(0, 32))
    return PANIC_REASONS[code.toString()] ?? `unknown panic code: 0x${code.toString(16)}`
  }
  return undefined
}

function toJson(frame: CallFrame): CallFrameJson {
  const out: CallFrameJson = {
    from: frame.from ? (frame.from.toString() as Hex) : '0x0000000000000000000000000000000000000000',
    gas: toQuantity(frame.gas),
    gasUsed: toQuantity(frame.gasUsed),
  } as CallFrameJson
  if (frame.to) out.to = frame.to.toString() as Hex
  out.input = bytesToHex(frame.input) as Hex
  if (frame.output && frame.output.length > 0) out.output = bytesToHex(frame.output) as Hex
  if (frame.error) out.error = frame.error
  if (frame.revertReason) out.revertReason = frame.revertReason
  if (frame.calls.length > 0) out.calls = frame.calls.map(toJson)
  if (frame.logs.length > 0)
    out.logs = frame.logs.map((log) => ({
      address: log.address.toString() as Hex,
      topics: log.topics.map((t) => bytesToHex(t) as Hex),
      data: bytesToHex(log.data) as Hex,
      position: toQuantity(log.position),
    }))
  if (frame.value !== undefined) out.value = toQuantity(frame.value)
  out.type = frame.type
  return out
}
