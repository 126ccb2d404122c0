import { BaseError } from '../../core/errors.js'
import type { Hex } from '../../core/hex.js'

/**
 * What a stateful precompile sees of the chain: the precompile account's storage (and others'),
 * balances, and the log of the current call frame. Backed by the EVM journal, so a failed call
 * reverts what it wrote.
 */
export type PrecompileState = {
  /** 32-byte value of `slot` (32 bytes) in `address`'s storage; zeros when unset. */
  getStorage(address: Hex, slot: Uint8Array): Promise<Uint8Array>
  putStorage(address: Hex, slot: Uint8Array, value: Uint8Array): Promise<void>
  /** Adds to a balance, creating the account when it does not exist. */
  addBalance(address: Hex, amount: bigint): Promise<void>
}

/** Fork flags a precompile reads, evaluated at the block's timestamp. */
export type PrecompileRules = {
  isDurango: boolean
  isGranite: boolean
  blockNumber: bigint
  timestamp: bigint
}

/** One call into a stateful precompile. Addresses are lower-case hex. */
export type PrecompileCall = {
  /** The precompile's address. */
  address: Hex
  /** msg.sender as the precompile sees it. */
  caller: Hex
  /** tx.origin. */
  origin: Hex
  input: Uint8Array
  /** Gas given to the call. */
  gas: bigint
  /** True under STATICCALL: state-changing functions fail with `write protection`. */
  readOnly: boolean
  value: bigint
  rules: PrecompileRules
  state: PrecompileState
  /** Emits a log from the precompile's address. */
  log(topics: Uint8Array[], data: Uint8Array): void
}

export type PrecompileResult = {
  returnData: Uint8Array
  /** Gas left to return to the caller. Always 0 when `error` is set and not a revert. */
  gasLeft: bigint
  error?: PrecompileError
}

/**
 * A precompile's failure, with the Go error string the real node reports (`eth_call` surfaces it
 * as the JSON-RPC message). Any error other than a revert consumes all gas given to the call and
 * returns no data (libevm `core/vm/evm.go`).
 */
export class PrecompileError extends BaseError {
  override name = 'PrecompileError'
  /** True for `execution reverted` (keeps the remaining gas); false consumes all gas. */
  readonly reverted: boolean
  constructor(message: string, options: { reverted?: boolean } = {}) {
    super(message)
    this.reverted = options.reverted ?? false
  }
}

/** geth's `vm.ErrOutOfGas` text. */
export const ERR_OUT_OF_GAS = 'out of gas'
/** geth's `vm.ErrWriteProtection` text. */
export const ERR_WRITE_PROTECTION = 'write protection'
/** geth's `vm.ErrExecutionReverted` text. */
export const ERR_EXECUTION_REVERTED = 'execution reverted'

/** A stateful precompile: runs a call and returns what the EVM should see. */
export type StatefulPrecompile = (call: PrecompileCall) => Promise<PrecompileResult>
