import type { StateManagerInterface } from '@ethereumjs/common'
import { EVMError } from '@ethereumjs/evm'
import { Account, createAddressFromString, setLengthLeft, type Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { Hex } from '../core/hex.js'
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

/** Thrown out of the EVM when a transaction must not be included at all (pre-Granite delegatecall rule). */
export class InvalidatedExecutionError extends Error {
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
    if (!message.code && message.codeAddress) {
      const address = message.codeAddress.toString() as Hex
      if (address.startsWith('0x0200000000000000000000000000000000')) {
        const precompile = host.precompileAt(address, blockInfo().timestamp)
        if (precompile) {
          stateful.add(precompile)
          message.code = precompile
          message.isCompiled = true
          return
        }
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
      if (block.timestamp >= INVALIDATE_DELEGATE_UNIX)
        throw new InvalidatedExecutionError(`delegatecall to stateful precompile ${codeAddress} invalidates the transaction`)
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

