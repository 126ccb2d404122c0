/**
 * Reused frame memory for @ethereumjs/evm 10.1.3's interpreter. Each frame's `Interpreter`
 * allocates an 8 KB `Memory` (a zeroed array outside the JavaScript heap) that lives as long as
 * the frame: for an eth_call as much time as the rest of the frame's setup. Here a frame takes a
 * memory an earlier frame of the same EVM gave back, zeroed; nested frames each take their own.
 *
 * A frame's memory is only given back when nothing can still read it: no tracer or DEBUG logging
 * (tracers read a frame's memory in `step` and `afterMessage`; `runState` on a frame's result
 * reaches it too) while the frame runs and when it ends. Nothing else keeps a view of a finished
 * frame's memory: RETURN, REVERT and LOG copy what they take out of it; views of it (a call's
 * input, CREATE's init code) go to inner frames, which end before it does.
 *
 * The interpreter is built the way its constructor builds it, only with the pooled memory; the
 * first frame is built by the constructor itself and its fields are compared with the ones set
 * here, so a release that builds it differently only ever gets the stock constructor.
 */
type MemoryLike = { _store: Uint8Array }
type Classes = { Memory: new () => MemoryLike; Stack: new () => unknown }
type RunStateLike = { memory: MemoryLike }
export type FrameInterpreter = { _runState: RunStateLike; _result: Record<string, unknown>; _env: object }
type InterpreterClass = { prototype: object; new (...args: unknown[]): unknown }

type EvmLike = {
  DEBUG: boolean
  common: { consensusType(): string }
  events: { listenerCount(name: string): number }
  _optsCached: { cliqueSigner?: unknown }
  [POOL]?: MemoryLike[]
}
type Env = { gasRefund?: bigint; initialLogs?: unknown[] }

const POOL = Symbol('l1sim.framePool')
/** The memory's first container, as @ethereumjs/evm sizes it: grown memories are not kept. */
const CONTAINER_SIZE = 8192
/** At most this many memories kept per EVM (the deepest nesting seen recently). */
const KEEP = 16

const INTERPRETER_KEYS = 'opDebuggers,_evm,_stateManager,common,_runState,journal,_env,_result,profilerOpts,performanceLogger'
const RUN_STATE_KEYS =
  'programCounter,opCode,memory,memoryWordCount,highestMemCost,stack,code,validJumps,cachedPushes,stateManager,blockchain,env,shouldDoJumpAnalysis,interpreter,gasRefund,gasLeft,stateGasSpilled,returnBytes'

/** Whether anything besides the frame itself may read its memory (tracers, DEBUG logging). */
function observed(evm: EvmLike): boolean {
  const { events } = evm
  return evm.DEBUG || events.listenerCount('step') > 0 || events.listenerCount('afterMessage') > 0 || events.listenerCount('beforeMessage') > 0 || events.listenerCount('newContract') > 0
}

export type FramePool = {
  /** The frame's interpreter, as `new Interpreter(...)` makes it, with a pooled memory when it may. */
  create(evm: EvmLike, stateManager: unknown, blockchain: unknown, env: Env, gasLeft: bigint, journal: unknown, performanceLogger: unknown, profilerOpts: unknown): FrameInterpreter
  /** Gives the frame's memory back once the frame has ended, if it came from the pool. */
  release(evm: EvmLike, interpreter: FrameInterpreter): void
}

export function createFramePool(Interpreter: InterpreterClass): FramePool {
  /** Undefined until the first frame; false when the constructor builds something else. */
  let classes: Classes | false | undefined
  const pooled = new WeakSet<FrameInterpreter>()

  function stock(args: unknown[]): FrameInterpreter {
    const interpreter = new Interpreter(...args) as FrameInterpreter
    if (classes === undefined) {
      const runState = interpreter._runState as RunStateLike & { stack: object }
      const same = Object.keys(interpreter).join() === INTERPRETER_KEYS && Object.keys(runState).join() === RUN_STATE_KEYS && runState.memory._store?.length === CONTAINER_SIZE
      classes = same ? { Memory: runState.memory.constructor as Classes['Memory'], Stack: runState.stack.constructor as Classes['Stack'] } : false
    }
    return interpreter
  }

  return {
    create(evm, stateManager, blockchain, env, gasLeft, journal, performanceLogger, profilerOpts) {
      const args = [evm, stateManager, blockchain, env, gasLeft, journal, performanceLogger, profilerOpts]
      // The constructor's own refusal (clique without a signer) comes from the constructor.
      if (!classes || observed(evm) || (evm.common.consensusType() === 'poa' && evm._optsCached.cliqueSigner === undefined)) return stock(args)
      const memories = (evm[POOL] ??= [])
      const interpreter = Object.create(Interpreter.prototype) as FrameInterpreter & Record<string, unknown>
      interpreter.opDebuggers = {}
      interpreter._evm = evm
      interpreter._stateManager = stateManager
      interpreter.common = evm.common
      interpreter._runState = {
        programCounter: 0,
        opCode: 0xfe,
        memory: memories.pop() ?? new classes.Memory(),
        memoryWordCount: 0n,
        highestMemCost: 0n,
        stack: new classes.Stack(),
        code: new Uint8Array(0),
        validJumps: new Uint8Array(0),
        cachedPushes: {},
        stateManager,
        blockchain,
        env,
        shouldDoJumpAnalysis: true,
        interpreter,
        gasRefund: env.gasRefund,
        gasLeft,
        stateGasSpilled: 0n,
        returnBytes: new Uint8Array(0),
      } as RunStateLike
      interpreter.journal = journal
      interpreter._env = env
      interpreter._result = { logs: env.initialLogs ? [...env.initialLogs] : [], returnValue: undefined, selfdestruct: new Map() }
      interpreter.profilerOpts = profilerOpts
      interpreter.performanceLogger = performanceLogger
      pooled.add(interpreter)
      return interpreter
    },
    release(evm, interpreter) {
      if (!pooled.has(interpreter) || observed(evm)) return
      pooled.delete(interpreter)
      const memory = interpreter._runState.memory
      const memories = evm[POOL]
      if (!memories || memories.length >= KEEP || memory._store.length !== CONTAINER_SIZE) return
      memory._store.fill(0)
      memories.push(memory)
    },
  }
}
