import type { StateManagerInterface } from '@ethereumjs/common'
import { EVMError } from '@ethereumjs/evm'
import { Account, createAddressFromString, setLengthLeft, type Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { Hex } from '../core/hex.js'
import { TxRejectedError } from './errors.js'
import type { PrecompileRules, PrecompileState, StatefulPrecompile } from './precompiles/types.js'

/** Unix time from which a DELEGATECALL/CALLCODE into a stateful precompile invalidates its transaction (until Granite). */
export const INVALIDATE_DELEGATE_UNIX = 1_754_107_200n

/** What the EVM asks the chain about stateful precompiles, for the block in execution. */
export type StatefulHost = {
  /** The precompile enabled at `address` for a block at `timestamp`, if any. */
  precompileAt(address: Hex, timestamp: bigint): StatefulPrecompile | undefined
  rules(block: { number: bigint; timestamp: bigint }): PrecompileRules
  /** Why `origin` may not deploy a contract in a block at `timestamp` (deployer allow list), if it may not. */
  createRefusal(origin: Hex, timestamp: bigint, state: PrecompileState): Promise<string | undefined>
}

/**
 * Thrown out of the EVM when a message is void as a whole (the pre-Granite delegatecall rule):
 * libevm's `InvalidateExecution`, which subnet-EVM's state transition returns as the message's
 * error, so a call fails with it and the miner leaves the transaction out. Its message is the
 * node's (`params/hooks_libevm.go`). Unwinding the frames it crosses is
 * {@link installFrameUnwind}'s work.
 */
export class InvalidatedExecutionError extends TxRejectedError {
  override name = 'InvalidatedExecutionError'
}

type Message = {
  to?: Address
  caller: Address
  codeAddress?: Address
  value: bigint
  isStatic: boolean
  delegatecall: boolean
  code?: unknown
  isCompiled?: boolean
  gasLimit: bigint
  depth: number
  data: Uint8Array
}

type EvmInternals = {
  _executeCall(message: Message): Promise<unknown>
  _executeCreate(message: Message): Promise<unknown>
  _loadCode(message: Message): Promise<void>
  runPrecompile(code: unknown, data: Uint8Array, gasLimit: bigint): unknown
  _tx?: { origin: Address }
  _block?: { header: { number: bigint; timestamp: bigint } }
  stateManager: StateManagerInterface
  journal: { putAccount(address: Address, account: Account): Promise<void> }
}

const HOSTED = Symbol('l1sim.statefulHost')

/**
 * Puts subnet-EVM's stateful precompiles into an ethereumjs EVM. They are resolved per call in
 * `_loadCode` rather than registered as ethereumjs custom precompiles, because ethereumjs makes
 * every registered precompile warm (EIP-2929) while subnet-EVM charges cold access for them, and
 * because activation depends on the block's timestamp. The call's message (caller, static flag,
 * delegatecall) is kept on a stack, since ethereumjs passes a precompile only its input and gas.
 * Apply to every VM a chain makes (including shallow copies).
 */
export function installStatefulHost(vm: VM, host: StatefulHost): void {
  const evm = vm.evm as unknown as EvmInternals & { [HOSTED]?: boolean }
  if (evm[HOSTED]) return
  evm[HOSTED] = true
  const frames: Message[] = []
  // The host's functions, so runPrecompile tells them from ethereumjs' own precompiles.
  const stateful = new WeakSet<object>()
  const blockInfo = () => {
    const header = evm._block?.header
    return { number: header?.number ?? 0n, timestamp: header?.timestamp ?? 0n }
  }
  const state: PrecompileState = {
    async getStorage(address, slot) {
      return setLengthLeft(await evm.stateManager.getStorage(createAddressFromString(address), slot), 32)
    },
    async putStorage(address, slot, value) {
      await evm.stateManager.putStorage(createAddressFromString(address), slot, value)
    },
    async addBalance(address, amount) {
      const at = createAddressFromString(address)
      const account = (await evm.stateManager.getAccount(at)) ?? new Account()
      account.balance += amount
      await evm.journal.putAccount(at, account)
    },
  }

  const executeCall = evm._executeCall.bind(evm)
  evm._executeCall = async (message) => {
    frames.push(message)
    try {
      return await executeCall(message)
    } finally {
      frames.pop()
    }
  }

  const loadCode = evm._loadCode.bind(evm)
  evm._loadCode = async (message) => {
    // Every call frame passes here (the C-chain's too): test the bytes before building a hex string.
    if (!message.code && message.codeAddress && isStatefulRange(message.codeAddress.bytes)) {
      const precompile = host.precompileAt(message.codeAddress.toString() as Hex, blockInfo().timestamp)
      if (precompile) {
        stateful.add(precompile)
        message.code = precompile
        message.isCompiled = true
        return
      }
    }
    return loadCode(message)
  }

  const runPrecompile = evm.runPrecompile.bind(evm)
  evm.runPrecompile = (code, data, gasLimit) => {
    const message = frames[frames.length - 1]
    if (!message || !stateful.has(code as object)) return runPrecompile(code, data, gasLimit)
    return runStateful(code as StatefulPrecompile, message, data, gasLimit)
  }

  const executeCreate = evm._executeCreate.bind(evm)
  evm._executeCreate = async (message) => {
    const origin = (evm._tx?.origin ?? message.caller).toString() as Hex
    const refusal = await host.createRefusal(origin, blockInfo().timestamp, state)
    if (refusal) {
      return {
        createdAddress: undefined,
        execResult: { returnValue: new Uint8Array(0), exceptionError: new EVMError(refusal as never), executionGasUsed: message.gasLimit },
      }
    }
    return executeCreate(message)
  }

  async function runStateful(precompile: StatefulPrecompile, message: Message, data: Uint8Array, gasLimit: bigint) {
    const block = blockInfo()
    const rules = host.rules(block)
    const to = message.to?.toString()
    const codeAddress = (message.codeAddress ?? message.to)!.toString() as Hex
    if (message.delegatecall || (to !== undefined && to !== codeAddress)) {
      if (rules.isGranite) return { returnValue: new Uint8Array(0), executionGasUsed: gasLimit, exceptionError: new EVMError(EVMError.errorMessages.REVERT) }
      // libevm goes on running the message and voids it at the end; nothing of it survives, so
      // stopping here answers the same.
      if (block.timestamp >= INVALIDATE_DELEGATE_UNIX)
        throw new InvalidatedExecutionError(`precompile cannot be called with ${message.delegatecall ? 'DELEGATECALL' : 'CALLCODE'}`)
    }
    const logs: [Uint8Array, Uint8Array[], Uint8Array][] = []
    const addressBytes = createAddressFromString(codeAddress).bytes
    const result = await precompile({
      address: codeAddress,
      caller: message.caller.toString() as Hex,
      origin: (evm._tx?.origin ?? message.caller).toString() as Hex,
      input: data,
      gas: gasLimit,
      readOnly: message.isStatic,
      value: message.value,
      rules,
      state,
      log: (topics, logData) => logs.push([addressBytes, topics, logData]),
    })
    if (result.error) {
      // ethereumjs' error objects carry geth's text in `error`; 'revert' keeps the gas left.
      const reverted = result.error.reverted
      return {
        returnValue: reverted ? result.returnData : new Uint8Array(0),
        executionGasUsed: reverted ? gasLimit - result.gasLeft : gasLimit,
        exceptionError: reverted ? new EVMError(EVMError.errorMessages.REVERT) : new EVMError(result.error.shortMessage as never),
      }
    }
    return { returnValue: result.returnData, executionGasUsed: gasLimit - result.gasLeft, logs }
  }
}

/** Whether an address is in the stateful precompiles' range: 0x02, then 16 zero bytes, then any 3 bytes (`0x0200…0000` to `0x0200…00ffffff`). */
function isStatefulRange(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0x02) return false
  for (let i = 1; i < 17; i++) if (bytes[i] !== 0) return false
  return true
}

const UNWINDS = Symbol('l1sim.frameUnwind')

type FrameInternals = {
  runCall(opts: unknown): Promise<unknown>
  journal: { revert(): Promise<void> }
  transientStorage: { revert(): void }
  [UNWINDS]?: boolean
}
/** Private fields of ethereumjs 10.1.3 read here: the depth of the journal's checkpoints and of transient storage's. */
type Depths = { journal: { journalHeight: number }; transientStorage: { _indices: number[] } }

/**
 * Makes every call frame of `vm`'s EVM give back, when an exception that is not an EVM error
 * escapes it, the checkpoints it took. In ethereumjs 10.1.3, `EVM.runCall` takes a journal
 * checkpoint (one of the state manager) and one of transient storage for each frame, and
 * reverts or commits them once the frame has a result; an exception (an
 * {@link InvalidatedExecutionError}, a failed read, a bug) skips both. The frames' checkpoints
 * then stay open under whoever ran the message: `runTx` reverts its own two levels, which are
 * now the frames', and leaves its own open (the sender's nonce and gas stay in the block being
 * built), a call's scratch checkpoint no longer covers what it wrote (the writes stay in the
 * live state), and transient storage keeps the values for the next message. Unwinding each frame
 * to the depths it found restores what the callers count on. Apply to every VM a chain makes.
 */
export function installFrameUnwind(vm: VM): void {
  const evm = vm.evm as unknown as FrameInternals
  if (evm[UNWINDS]) return
  evm[UNWINDS] = true
  const depths = evm as unknown as Depths
  const runCall = evm.runCall.bind(evm)
  evm.runCall = async (opts) => {
    const journalHeight = depths.journal.journalHeight
    const transientHeight = depths.transientStorage._indices.length
    try {
      return await runCall(opts)
    } catch (error) {
      while (depths.journal.journalHeight > journalHeight) await evm.journal.revert()
      while (depths.transientStorage._indices.length > transientHeight) evm.transientStorage.revert()
      throw error
    }
  }
}
