/**
 * @ethereumjs/evm 10.1.3's interpreter loop, without a promise per opcode. Its `run` awaits
 * `runStep` for every opcode and `runStep` is an async function, so each PUSH, ADD or JUMP costs
 * a promise, an async frame and a microtask turn, plus an argument array for the handler: about
 * a tenth of an eth_call's time and much of its garbage. Most opcodes are synchronous with a
 * fixed fee; those run here as the stock `runStep` runs them (fee, pc, handler), in the same
 * loop; so do steps with a dynamic fee or an asynchronous handler, awaiting those in the loop's
 * own frame instead of a `runStep` frame each. Invalid opcodes, EIP-7928, a pending EIP-7928
 * halt, a `step` listener or DEBUG (tracers see every step as before) go through the stock `runStep`.
 * Code the stock loop treats specially (EOF, stateless code chunks, the profiler, EIP-8037) runs
 * the stock `run` whole. Installed by `jumpAnalysisCache.ts` on the release it loads, which it
 * checks; the interpreter's fields are read as that release names them.
 */
import { EVM, EVMError } from '@ethereumjs/evm'
import { Account, createZeroAddress } from '@ethereumjs/util'

type OpEntry = {
  opcodeInfo: { code: number; feeBigInt: bigint; dynamicGas: boolean; isAsync: boolean; isInvalid: boolean }
  opHandler: (runState: RunState, common: unknown) => void | Promise<void>
  gasHandler?: (runState: RunState, gas: bigint, common: unknown) => Promise<bigint>
}
type RunState = {
  programCounter: number
  opCode: number
  code: Uint8Array
  gasLeft: bigint
  validJumps: Uint8Array
  cachedPushes: unknown
  shouldDoJumpAnalysis: boolean
  eip7928PostTargetCallOog?: unknown
  eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean
  env: { accessWitness?: { commit(): void; revert(): void } }
}
type StackAndMemory = { stack: { popN(count: number): bigint[] }; memory: { write(offset: number, size: number, value: Uint8Array): void } }
type InterpreterThis = {
  _runState: RunState
  common: { isActivatedEIP(eip: number): boolean }
  profilerOpts?: { enabled?: boolean }
  _evm: { DEBUG: boolean; events: { listenerCount(name: string): number }; _opcodeMap: OpEntry[] & { __l1simMstore?: true } }
  _getValidJumpDestinations(code: Uint8Array): { jumps: Uint8Array; pushes: unknown; opcodesCached: OpEntry[] }
  runStep(entry?: OpEntry): Promise<void>
  useGas(amount: bigint, context?: unknown): void
}
type RunResult = { runState: RunState; exceptionError: EVMError | undefined }
export type InterpreterProto = {
  run(this: InterpreterThis, code: Uint8Array, opts?: { pc?: number }): Promise<RunResult>
  __l1simSyncSteps?: true
}

/** EIPs under which the stock loop does more than run legacy code step by step. */
const SPECIAL_EIPS = [3540, 6800, 7864, 8037]

/**
 * One step as the stock `runStep` takes it when the opcode has a fixed fee and a synchronous
 * handler; `false` when it is not such a step (nothing done then).
 */
function syncStep(interpreter: InterpreterThis, entry: OpEntry, listened: boolean): boolean {
  const info = entry.opcodeInfo
  const runState = interpreter._runState
  if (info.dynamicGas || info.isAsync || info.isInvalid || listened || runState.eip7928PostTargetCallOog !== undefined) return false
  interpreter.useGas(info.feeBigInt, info)
  runState.programCounter++
  entry.opHandler(runState, interpreter.common)
  runState.env.accessWitness?.commit()
  return true
}

/**
 * MSTORE as the stock handler does it (the word as 32 big-endian bytes at the offset), without
 * its `setLengthLeft`, which pads by spreading both arrays into a new one: a few allocations per
 * MSTORE, the commonest memory opcode. The memory copies what it is given, so one buffer per
 * opcode table serves every write.
 */
function patchMstore(opcodeMap: InterpreterThis['_evm']['_opcodeMap']): void {
  opcodeMap.__l1simMstore = true
  const entry = opcodeMap[0x52]
  // Only the stock opcode: a custom opcode the VM was given at 0x52 keeps its own handler.
  if (entry?.opcodeInfo.code !== 0x52 || (entry.opcodeInfo as { name?: string }).name !== 'MSTORE') return
  const word32 = Buffer.alloc(32)
  entry.opHandler = (runState) => {
    const { stack, memory } = runState as unknown as StackAndMemory
    const [offset, word] = stack.popN(2) as [bigint, bigint]
    word32.write(word.toString(16).padStart(64, '0'), 'hex')
    memory.write(Number(offset), 32, word32)
  }
}

export function installSyncSteps(proto: InterpreterProto): void {
  if (proto.__l1simSyncSteps) return
  const stockRun = proto.run
  proto.run = async function (this: InterpreterThis, code, opts = {}) {
    const common = this.common
    if (this.profilerOpts?.enabled === true || SPECIAL_EIPS.some((eip) => common.isActivatedEIP(eip))) return stockRun.call(this, code, opts)
    const runState = this._runState
    runState.code = code
    runState.programCounter = opts.pc ?? runState.programCounter
    const start = runState.programCounter
    if (start !== 0 && (start < 0 || start >= code.length)) throw new Error('Internal error: program counter not in range')
    const evm = this._evm
    const opcodeMap = evm._opcodeMap
    if (!opcodeMap.__l1simMstore) patchMstore(opcodeMap)
    // EIP-7928 has the stock step settle a pending halt after each opcode: those steps go there.
    const stockSteps = common.isActivatedEIP(7928)
    let err: EVMError | undefined
    let cachedOpcodes: OpEntry[] | undefined
    while (runState.programCounter < runState.code.length) {
      const pc = runState.programCounter
      let opCode: number
      let entry: OpEntry | undefined
      if (cachedOpcodes === undefined) {
        opCode = runState.code[pc]!
        // The stock loop analyses jumps at the first JUMP, JUMPI or JUMPSUB it meets.
        if (opCode === 0x56 || opCode === 0x57 || opCode === 0x5e) {
          const { jumps, pushes, opcodesCached } = this._getValidJumpDestinations(runState.code)
          runState.validJumps = jumps
          runState.cachedPushes = pushes
          runState.shouldDoJumpAnalysis = false
          cachedOpcodes = opcodesCached
        }
      } else {
        entry = cachedOpcodes[pc]!
        opCode = entry.opcodeInfo.code
      }
      runState.opCode = opCode
      try {
        const listened = evm.DEBUG || evm.events.listenerCount('step') > 0
        const op = entry ?? opcodeMap[opCode]!
        if (!syncStep(this, op, listened)) {
          const info = op.opcodeInfo
          if (listened || stockSteps || info.isInvalid || runState.eip7928PostTargetCallOog !== undefined) await this.runStep(entry)
          else {
            // The stock `runStep` for a dynamic fee or an asynchronous handler, in this loop's
            // frame: without a promise and an async frame of its own per opcode.
            const gas = info.dynamicGas ? await op.gasHandler!(runState, info.feeBigInt, common) : info.feeBigInt
            this.useGas(gas, info)
            runState.programCounter++
            if (info.isAsync) await op.opHandler(runState, common)
            else op.opHandler(runState, common)
            runState.env.accessWitness?.commit()
          }
        }
      } catch (e) {
        runState.env.accessWitness?.revert()
        const error = e as { errorType?: unknown; error?: string }
        if (!(typeof e === 'object' && e !== null && 'errorType' in e && error.errorType === 'EVMError')) throw e
        if (error.error !== EVMError.errorMessages.STOP) err = e as EVMError
        break
      }
    }
    return { runState, exceptionError: err }
  }
  proto.__l1simSyncSteps = true
}

type EvmThis = {
  stateManager: { getAccount(address: unknown): Promise<unknown> }
  blockchain: unknown
  journal: unknown
  performanceLogger: unknown
  _optsCached: { profiler?: unknown }
  _tx: { gasPrice: bigint; origin?: unknown }
  _block?: unknown
}
type Message = Record<string, unknown> & { to?: unknown; caller?: unknown; gasLimit: bigint; code: Uint8Array; selfdestruct?: unknown; createdAddresses?: unknown }
type FrameResult = { logs: unknown; returnValue?: Uint8Array; selfdestruct: unknown; createdAddresses?: unknown }
type InterpreterClass = new (...args: unknown[]) => { _result: Record<string, unknown>; _env: object; run(code: Uint8Array, opts: object): Promise<RunResult & { runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint } }> }
type EvmProto = { runInterpreter(this: EvmThis, message: Message, opts?: { initialLogs?: unknown[] }): Promise<unknown>; __l1simLazyRunState?: true }

/** What a frame's lazy `runState` is built from, kept on its result under {@link FRAME}. */
type FrameSource = { interpreterRes: { runState: object }; frameResult: object; interpreter: { _env: object }; runState: object | undefined }

/** The hidden (symbol-keyed, not enumerable: spreads and JSON skip it) property holding a result's {@link FrameSource}. */
const FRAME = Symbol('l1sim.frame')

/**
 * One accessor pair for every frame's `runState`. With a getter and a setter made for each frame
 * (closures over its variables), measured on node 20: every frame's objects survived scavenges
 * until the next full GC (promoted, ~4 KB an eth_call with the spread below: 1–3 ms scavenge
 * pauses every ~120 calls); shared functions reading the result's own {@link FRAME} leave none.
 */
const RUN_STATE: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: { [FRAME]: FrameSource }) {
    const source = this[FRAME]
    return (source.runState ??= { ...source.interpreterRes.runState, ...source.frameResult, ...source.interpreter._env })
  },
  set(this: { [FRAME]: FrameSource }, value: object) {
    this[FRAME].runState = value
  },
}

/**
 * The frame's result, keys in the stock order (`{ ...result, runState, exceptionError, gas,
 * executionGasUsed, gasRefund, stateGasSpilled, returnValue }`), written out instead of spread:
 * on node 20's V8 an object spread followed by more properties, made per frame, kept every
 * frame's objects alive through scavenges (all promoted, freed only by a full GC). `result` is
 * the interpreter's `_result` (logs, returnValue, selfdestruct, and createdAddresses when the
 * message has them) or the failed frame's copy, which always has all four.
 */
function frameOutcome(result: FrameResult, interpreterRes: Awaited<ReturnType<InstanceType<InterpreterClass>['run']>>, gasUsed: bigint, source: FrameSource): object {
  const runState = interpreterRes.runState
  const returnValue = result.returnValue ?? new Uint8Array(0)
  const out =
    'createdAddresses' in result
      ? { logs: result.logs, returnValue, selfdestruct: result.selfdestruct, createdAddresses: result.createdAddresses, runState: undefined as unknown, exceptionError: interpreterRes.exceptionError, gas: runState?.gasLeft, executionGasUsed: gasUsed, gasRefund: runState.gasRefund, stateGasSpilled: runState.stateGasSpilled }
      : { logs: result.logs, returnValue, selfdestruct: result.selfdestruct, runState: undefined as unknown, exceptionError: interpreterRes.exceptionError, gas: runState?.gasLeft, executionGasUsed: gasUsed, gasRefund: runState.gasRefund, stateGasSpilled: runState.stateGasSpilled }
  Object.defineProperty(out, FRAME, { value: source, writable: false, enumerable: false, configurable: false })
  Object.defineProperty(out, 'runState', RUN_STATE)
  return out
}

/**
 * @ethereumjs/evm 10.1.3's `runInterpreter` builds each frame's result with a `runState` that
 * spreads the interpreter's run state, its result and its whole environment into one new
 * object (~50 properties, a tenth of an eth_call's time), which nothing in ethereumjs reads and
 * l1sim's tracers read once per frame. Here it is the same object, built on first read (after
 * the frame has ended, when none of the three changes any more). Everything else is the stock
 * method's, in its order.
 */
export function installLazyRunState(Interpreter: InterpreterClass): void {
  const proto = EVM.prototype as unknown as EvmProto
  if (proto.__l1simLazyRunState || typeof proto.runInterpreter !== 'function') return
  const stockRunInterpreter = proto.runInterpreter
  proto.runInterpreter = async function (this: EvmThis, message, opts = {}) {
    // Without a block the stock method makes a stand-in one (l1sim always passes a block).
    if (this._block === undefined) return stockRunInterpreter.call(this, message, opts)
    let contract = await this.stateManager.getAccount(message.to ?? createZeroAddress())
    if (!contract) contract = new Account()
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? 0n,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    }
    const interpreter = new Interpreter(this, this.stateManager, this.blockchain, env, message.gasLimit, this.journal, this.performanceLogger, this._optsCached.profiler)
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses
    const interpreterRes = await interpreter.run(message.code, opts)
    let result = interpreter._result as FrameResult
    let gasUsed = message.gasLimit - interpreterRes.runState.gasLeft
    if (interpreterRes.exceptionError) {
      const error = interpreterRes.exceptionError.error
      if (error !== EVMError.errorMessages.REVERT && error !== EVMError.errorMessages.INVALID_EOF_FORMAT) gasUsed = message.gasLimit
      // The stock `{ ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() }`, written out (see frameOutcome).
      result = { logs: [], returnValue: result.returnValue, selfdestruct: new Map(), createdAddresses: new Set() }
    }
    ;(message.accessWitness as { commit(): void } | undefined)?.commit()
    return frameOutcome(result, interpreterRes, gasUsed, { interpreterRes, frameResult: result, interpreter, runState: undefined })
  }
  proto.__l1simLazyRunState = true
}
