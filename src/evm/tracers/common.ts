/**
 * The bridge between @ethereumjs/evm's events (`step`, `beforeMessage`, `newContract`,
 * `afterMessage`) and go-ethereum 1.13's `vm.EVMLogger` hooks (CaptureStart/State/Enter/Exit/End,
 * CaptureTxStart/TxEnd), as avalanchego's coreth runs them through libevm. The tracers in this
 * folder are written against the geth hooks, so their output follows geth's code line by line.
 *
 * What ethereumjs reports differently and is corrected here:
 * - opcode names (geth's `OpCode.String()`: `DIFFICULTY` for 0x44, `opcode 0xc not defined`);
 * - the cost of the CALL family includes the gas handed to the callee (geth's `callGasTemp`);
 * - depth is 1 for the transaction's own frame;
 * - the return-data buffer (`in.returnData`), which ethereumjs does not put in its step event;
 * - error texts (geth's `core/vm/errors.go`), and which step carries one: geth logs the error on
 *   the step that failed before executing (stack, gas), while ethereumjs only fails the frame;
 * - the frame's type and `from`, taken from the opcode that opened it and the calling frame.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { StateManagerInterface } from '@ethereumjs/common'
import { createAddressFromBigInt, type Address } from '@ethereumjs/util'

type RunState = NonNullable<EVMResult['execResult']['runState']>

/** geth's `opCodeToString` (libevm core/vm/opcodes.go); empty for undefined opcodes. */
const OPCODE_NAMES: string[] = (() => {
  const names: string[] = new Array<string>(256).fill('')
  const set = (code: number, list: string) => list.split(' ').forEach((name, i) => (names[code + i] = name))
  set(0x00, 'STOP ADD MUL SUB DIV SDIV MOD SMOD ADDMOD MULMOD EXP SIGNEXTEND')
  set(0x10, 'LT GT SLT SGT EQ ISZERO AND OR XOR NOT BYTE SHL SHR SAR')
  set(0x20, 'KECCAK256')
  set(0x30, 'ADDRESS BALANCE ORIGIN CALLER CALLVALUE CALLDATALOAD CALLDATASIZE CALLDATACOPY CODESIZE CODECOPY GASPRICE EXTCODESIZE EXTCODECOPY RETURNDATASIZE RETURNDATACOPY EXTCODEHASH')
  set(0x40, 'BLOCKHASH COINBASE TIMESTAMP NUMBER DIFFICULTY GASLIMIT CHAINID SELFBALANCE BASEFEE BLOBHASH BLOBBASEFEE')
  set(0x50, 'POP MLOAD MSTORE MSTORE8 SLOAD SSTORE JUMP JUMPI PC MSIZE GAS JUMPDEST TLOAD TSTORE MCOPY PUSH0')
  for (let i = 1; i <= 32; i++) names[0x5f + i] = `PUSH${i}`
  for (let i = 1; i <= 16; i++) names[0x7f + i] = `DUP${i}`
  for (let i = 1; i <= 16; i++) names[0x8f + i] = `SWAP${i}`
  set(0xa0, 'LOG0 LOG1 LOG2 LOG3 LOG4')
  set(0xf0, 'CREATE CALL CALLCODE RETURN DELEGATECALL CREATE2')
  names[0xfa] = 'STATICCALL'
  names[0xfd] = 'REVERT'
  names[0xfe] = 'INVALID'
  names[0xff] = 'SELFDESTRUCT'
  return names
})()

/** geth's `OpCode.String()`. */
export function opcodeName(code: number): string {
  return OPCODE_NAMES[code] || `opcode 0x${code.toString(16)} not defined`
}

export const OP = {
  SLOAD: 0x54,
  SSTORE: 0x55,
  LOG0: 0xa0,
  LOG4: 0xa4,
  CREATE: 0xf0,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  DELEGATECALL: 0xf4,
  CREATE2: 0xf5,
  STATICCALL: 0xfa,
  STOP: 0x00,
  RETURN: 0xf3,
  SELFDESTRUCT: 0xff,
} as const

/** Items an opcode pops and pushes (geth's jump table `minStack`/`maxStack` inputs). */
function stackIO(code: number): [pops: number, pushes: number] {
  if (code >= 0x60 && code <= 0x7f) return [0, 1]
  if (code >= 0x80 && code <= 0x8f) return [code - 0x7f, code - 0x7e]
  if (code >= 0x90 && code <= 0x9f) return [code - 0x8e, code - 0x8e]
  if (code >= 0xa0 && code <= 0xa4) return [code - 0x9e, 0]
  const table: Record<number, [number, number]> = {
    0x00: [0, 0], 0x01: [2, 1], 0x02: [2, 1], 0x03: [2, 1], 0x04: [2, 1], 0x05: [2, 1], 0x06: [2, 1], 0x07: [2, 1],
    0x08: [3, 1], 0x09: [3, 1], 0x0a: [2, 1], 0x0b: [2, 1], 0x10: [2, 1], 0x11: [2, 1], 0x12: [2, 1], 0x13: [2, 1],
    0x14: [2, 1], 0x15: [1, 1], 0x16: [2, 1], 0x17: [2, 1], 0x18: [2, 1], 0x19: [1, 1], 0x1a: [2, 1], 0x1b: [2, 1],
    0x1c: [2, 1], 0x1d: [2, 1], 0x20: [2, 1], 0x30: [0, 1], 0x31: [1, 1], 0x32: [0, 1], 0x33: [0, 1], 0x34: [0, 1],
    0x35: [1, 1], 0x36: [0, 1], 0x37: [3, 0], 0x38: [0, 1], 0x39: [3, 0], 0x3a: [0, 1], 0x3b: [1, 1], 0x3c: [4, 0],
    0x3d: [0, 1], 0x3e: [3, 0], 0x3f: [1, 1], 0x40: [1, 1], 0x41: [0, 1], 0x42: [0, 1], 0x43: [0, 1], 0x44: [0, 1],
    0x45: [0, 1], 0x46: [0, 1], 0x47: [0, 1], 0x48: [0, 1], 0x49: [1, 1], 0x4a: [0, 1], 0x50: [1, 0], 0x51: [1, 1],
    0x52: [2, 0], 0x53: [2, 0], 0x54: [1, 1], 0x55: [2, 0], 0x56: [1, 0], 0x57: [2, 0], 0x58: [0, 1], 0x59: [0, 1],
    0x5a: [0, 1], 0x5b: [0, 0], 0x5c: [1, 1], 0x5d: [2, 0], 0x5e: [3, 0], 0x5f: [0, 1], 0xf0: [3, 1], 0xf1: [7, 1],
    0xf2: [7, 1], 0xf3: [2, 0], 0xf4: [6, 1], 0xf5: [4, 1], 0xfa: [6, 1], 0xfd: [2, 0], 0xff: [1, 0],
  }
  return table[code] ?? [0, 0]
}

const STACK_LIMIT = 1024

/** The frame kinds geth's tracers name by opcode. */
export type FrameType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT'

const FRAME_OPCODES: Record<number, FrameType> = {
  [OP.CALL]: 'CALL',
  [OP.CALLCODE]: 'CALLCODE',
  [OP.DELEGATECALL]: 'DELEGATECALL',
  [OP.STATICCALL]: 'STATICCALL',
  [OP.CREATE]: 'CREATE',
  [OP.CREATE2]: 'CREATE2',
}

/** What geth's `CaptureState` receives, in ethereumjs values. */
export type StepContext = {
  pc: number
  op: number
  /** Gas left before the opcode. */
  gas: bigint
  /** geth's `cost`: constant + dynamic gas, and for the CALL family the gas given to the callee. */
  cost: bigint
  /** 1 for the transaction's own frame, as geth counts. */
  depth: number
  /** Bottom first, as geth's `stack.Data()`. */
  stack: bigint[]
  /** Memory before the opcode expands it. */
  memory: Uint8Array
  /** The return data of the last call made by this frame (geth's `in.returnData`). */
  returnData: Uint8Array
  refund: bigint
  /** The storage context (geth's `contract.Address()`). */
  address: Address
  stateManager: StateManagerInterface
}

/**
 * The subset of geth's `vm.EVMLogger` (1.13) the tracers use. Errors are geth's texts; an
 * undefined error is success.
 */
export interface EvmTracer {
  captureTxStart?(gasLimit: bigint): void
  captureStart?(from: Address, to: Address, create: boolean, input: Uint8Array, gas: bigint, value: bigint): void
  captureState?(step: StepContext): void | Promise<void>
  /**
   * The step just captured failed before executing (geth logs that step with this error):
   * stack underflow/overflow or out of gas.
   */
  captureStepError?(error: string, depth: number): void
  captureEnter?(type: FrameType, from: Address, to: Address, input: Uint8Array, gas: bigint, value: bigint | undefined): void
  captureExit?(output: Uint8Array, gasUsed: bigint, error: string | undefined): void
  captureEnd?(output: Uint8Array, gasUsed: bigint, error: string | undefined): void
  captureTxEnd?(gasUsed: bigint): void
}

type LastStep = { op: number; stackLength: number }

/** geth's text for an ethereumjs `EVMError` (libevm core/vm/errors.go). */
export function gethErrorMessage(error: string, last: LastStep | undefined): string {
  switch (error) {
    case 'out of gas':
      return 'out of gas'
    case 'code store out of gas':
      return 'contract creation code storage out of gas'
    case 'code size to deposit exceeds maximum code size':
      return 'max code size exceeded'
    case 'stack underflow': {
      if (!last) return 'stack underflow'
      return `stack underflow (${last.stackLength} <=> ${stackIO(last.op)[0]})`
    }
    case 'stack overflow': {
      if (!last) return 'stack overflow'
      const [pops, pushes] = stackIO(last.op)
      return `stack limit reached ${last.stackLength} (${STACK_LIMIT + pops - pushes})`
    }
    case 'invalid JUMP':
      return 'invalid jump destination'
    case 'invalid opcode':
      return `invalid opcode: ${last ? opcodeName(last.op) : 'INVALID'}`
    case 'value out of range':
      return 'return data out of bounds'
    case 'revert':
      return 'execution reverted'
    case 'static state change':
      return 'write protection'
    case 'create collision':
      return 'contract address collision'
    case 'insufficient balance':
      return 'insufficient balance for transfer'
    case 'invalid bytecode deployed':
      return 'invalid code: must not begin with 0xef'
    case 'initcode exceeds max initcode size':
      return 'max initcode size exceeded'
    default:
      return error
  }
}

/** Errors geth raises before executing an opcode, so reports on that opcode's step. */
const PRE_EXECUTION_ERRORS = new Set(['out of gas', 'stack underflow', 'stack overflow'])

const EMPTY = new Uint8Array()
const ADDRESS_MASK = (1n << 160n) - 1n

type Frame = {
  depth: number
  /** Storage context of the frame (the address whose code, or delegated code, runs). */
  address: Address | undefined
  type: FrameType
  create: boolean
  from: Address
  input: Uint8Array
  gas: bigint
  value: bigint | undefined
  /** Whether the tracer has been told about the frame (creates wait for their address). */
  entered: boolean
  /** Last step run in this frame. */
  last: (LastStep & { address: Address; stateManager: StateManagerInterface }) | undefined
  /** The message, whose `code` ethereumjs fills in before the first step. */
  message: Message
  /** A SELFDESTRUCT about to run as the frame's last step: beneficiary and the balance it gets. */
  selfdestruct: { beneficiary: Address; balance: bigint } | undefined
}

/**
 * Subscribes `tracer` to `evm`'s events and returns the function that unsubscribes it. The
 * transaction hooks (`captureTxStart`/`captureTxEnd`) are the caller's: they wrap `runTx`.
 */
export function attachTracer(evm: EVM, tracer: EvmTracer): { detach: () => void; errors: unknown[] } {
  const events = evm.events
  const frames: Frame[] = []
  /** Return-data buffer per ethereumjs depth. */
  const returnData: Uint8Array[] = []
  let lastOp: number | undefined
  const errors: unknown[] = []

  const enter = (frame: Frame, to: Address) => {
    frame.entered = true
    if (frame.depth === 0) tracer.captureStart?.(frame.from, to, frame.create, frame.input, frame.gas, frame.value ?? 0n)
    else tracer.captureEnter?.(frame.type, frame.from, to, frame.input, frame.gas, frame.value)
  }

  const onBeforeMessage = (message: Message) => {
    const depth = message.depth
    const parent = frames[frames.length - 1]
    const create = message.to === undefined
    let type: FrameType
    if (depth === 0) type = create ? 'CREATE' : 'CALL'
    else type = (lastOp !== undefined ? FRAME_OPCODES[lastOp] : undefined) ?? typeFromMessage(message, parent)
    // geth's CaptureEnter `from` is the calling contract; ethereumjs gives DELEGATECALL the
    // caller's caller.
    const from = depth === 0 || !parent?.address ? message.caller : parent.address
    let value: bigint | undefined = message.value
    if (type === 'STATICCALL') value = undefined
    const frame: Frame = {
      depth,
      address: message.to,
      type,
      create,
      from,
      // ethereumjs hands over a view of the caller's memory, which later opcodes overwrite.
      input: message.data.slice(),
      gas: message.gasLimit,
      value,
      entered: false,
      last: undefined,
      message,
      selfdestruct: undefined,
    }
    frames.push(frame)
    returnData[depth] = EMPTY
    if (!create) enter(frame, type === 'CALLCODE' || type === 'DELEGATECALL' ? message.codeAddress : message.to!)
  }

  const onNewContract = (event: { address: Address }) => {
    const frame = frames[frames.length - 1]
    if (!frame || !frame.create || frame.entered) return
    frame.address = event.address
    enter(frame, event.address)
  }

  const onStep = async (step: InterpreterStep) => {
    const frame = frames[frames.length - 1]
    let op = step.opcode.code
    // ethereumjs runs every undefined opcode as INVALID (0xfe); geth names the byte itself.
    if (op === 0xfe) {
      const code = frame?.message.code
      if (code instanceof Uint8Array && code[step.pc] !== undefined) op = code[step.pc]!
    }
    lastOp = op
    if (frame) {
      frame.last = { op, stackLength: step.stack.length, address: step.address, stateManager: step.stateManager }
      frame.selfdestruct = undefined
      if (op === OP.SELFDESTRUCT && step.stack.length > 0) {
        const beneficiary = createAddressFromBigInt(step.stack[step.stack.length - 1]! & ADDRESS_MASK)
        const balance = (await step.stateManager.getAccount(step.address))?.balance ?? 0n
        frame.selfdestruct = { beneficiary, balance }
      }
    }
    let cost = step.opcode.dynamicFee ?? BigInt(step.opcode.fee)
    if (op === OP.CALL || op === OP.CALLCODE || op === OP.DELEGATECALL || op === OP.STATICCALL) {
      // geth adds the callee's gas (EIP-150 all but one 64th, capped by the request) to the cost.
      const available = step.gasLeft - cost
      if (available >= 0n) {
        const allowed = available - available / 64n
        const requested = step.stack[step.stack.length - 1] ?? 0n
        cost += requested < allowed ? requested : allowed
      }
    }
    const depth = step.depth
    const context: StepContext = {
      pc: step.pc,
      op,
      gas: step.gasLeft,
      cost,
      depth: depth + 1,
      stack: step.stack,
      memory: step.memory,
      returnData: returnData[depth] ?? EMPTY,
      refund: step.gasRefund,
      address: step.address,
      stateManager: step.stateManager,
    }
    if (FRAME_OPCODES[op] !== undefined) returnData[depth] = EMPTY
    await tracer.captureState?.(context)
  }

  const onAfterMessage = async (result: EVMResult) => {
    const frame = frames.pop()
    if (!frame) return
    const exec = result.execResult
    const raw = exec.exceptionError?.error
    if (!frame.entered) {
      // A create that never ran (geth fails these before telling the tracer).
      if (raw === 'create collision' && frame.depth > 0) return
      enter(frame, result.createdAddress ?? frame.address ?? frame.from)
    }
    const last = frame.last
    if (raw === undefined && last) {
      if (frame.selfdestruct) {
        // geth's opSelfdestruct reports the transfer as a frame of its own.
        const { beneficiary, balance } = frame.selfdestruct
        tracer.captureEnter?.('SELFDESTRUCT', last.address, beneficiary, EMPTY, 0n, balance)
        tracer.captureExit?.(EMPTY, 0n, undefined)
      } else if (last.op !== OP.STOP && last.op !== OP.RETURN) {
        // The code ran off its end: geth reads a STOP there and logs it, ethereumjs just stops.
        await implicitStop(frame, exec.runState, exec.gasRefund)
      }
    }
    const error = raw === undefined ? undefined : gethErrorMessage(raw, last)
    if (raw !== undefined && last && PRE_EXECUTION_ERRORS.has(raw)) tracer.captureStepError?.(error!, frame.depth + 1)
    const output = (exec.returnValue ?? EMPTY).slice()
    if (frame.depth > 0) {
      // The caller's return-data buffer: what geth's opCall/opCreate leave in `in.returnData`.
      const kept = raw === undefined ? (frame.create ? EMPTY : output) : raw === 'revert' ? output : EMPTY
      returnData[frame.depth - 1] = kept
    }
    if (frame.depth === 0) tracer.captureEnd?.(output, exec.executionGasUsed, error)
    else tracer.captureExit?.(output, exec.executionGasUsed, error)
  }

  const implicitStop = async (frame: Frame, runState: RunState | undefined, refund: bigint | undefined) => {
    const last = frame.last
    if (!tracer.captureState || !last || !runState) return
    const words = Number(runState.memoryWordCount)
    await tracer.captureState({
      pc: runState.programCounter,
      op: OP.STOP,
      gas: runState.gasLeft,
      cost: 0n,
      depth: frame.depth + 1,
      stack: runState.stack.getStack(),
      memory: runState.memory._store.slice(0, words * 32),
      returnData: returnData[frame.depth] ?? EMPTY,
      // The frame's final refund counter (the runState copy carries the frame's initial one).
      refund: refund ?? runState.gasRefund,
      address: last.address,
      stateManager: last.stateManager,
    })
  }

  // Listeners of two parameters are awaited by ethereumjs; exceptions are kept for the caller,
  // since a throwing listener would leave the EVM waiting.
  const guard =
    <T>(fn: (data: T) => void | Promise<void>) =>
    (data: T, resolve?: (result?: unknown) => void) => {
      try {
        const done = fn(data)
        if (done instanceof Promise) {
          done.catch((error: unknown) => errors.push(error)).finally(() => resolve?.())
          return
        }
      } catch (error) {
        errors.push(error)
      }
      resolve?.()
    }
  const listeners = {
    beforeMessage: guard(onBeforeMessage),
    newContract: guard(onNewContract),
    step: guard(onStep),
    afterMessage: guard(onAfterMessage),
  }
  events.on('beforeMessage', listeners.beforeMessage)
  events.on('newContract', listeners.newContract)
  events.on('step', listeners.step)
  events.on('afterMessage', listeners.afterMessage)
  return {
    errors,
    detach: () => {
      events.off('beforeMessage', listeners.beforeMessage)
      events.off('newContract', listeners.newContract)
      events.off('step', listeners.step)
      events.off('afterMessage', listeners.afterMessage)
    },
  }
}

/** The frame type when no opcode step was seen (never in practice: steps are always traced). */
function typeFromMessage(message: Message, parent: Frame | undefined): FrameType {
  if (message.to === undefined) return message.salt !== undefined ? 'CREATE2' : 'CREATE'
  if (message.delegatecall) return 'DELEGATECALL'
  if (!message.codeAddress.equals(message.to)) return 'CALLCODE'
  if (message.isStatic && !(parent?.type === 'STATICCALL')) return 'STATICCALL'
  return 'CALL'
}
