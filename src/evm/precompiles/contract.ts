import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import {
  ERR_OUT_OF_GAS,
  ERR_WRITE_PROTECTION,
  PrecompileError,
  type PrecompileCall,
  type PrecompileResult,
  type PrecompileRules,
  type StatefulPrecompile,
} from './types.js'

/** subnet-EVM `contract.WriteGasCostPerSlot` / `ReadGasCostPerSlot` and geth's log prices. */
export const WRITE_GAS_PER_SLOT = 20_000n
export const READ_GAS_PER_SLOT = 5_000n
export const LOG_GAS = 375n
export const LOG_TOPIC_GAS = 375n
export const LOG_DATA_GAS = 8n

/** The gas left to a precompile function; `deduct` fails as `contract.DeductGas` does. */
export class GasMeter {
  constructor(public remaining: bigint) {}

  deduct(amount: bigint): void {
    if (this.remaining < amount) {
      this.remaining = 0n
      throw new PrecompileError(ERR_OUT_OF_GAS)
    }
    this.remaining -= amount
  }
}

/**
 * One function of a precompile. `args` is the calldata after the selector. Returns the output;
 * fails by throwing a {@link PrecompileError}.
 */
export type PrecompileFunction = (call: PrecompileCall, gas: GasMeter, args: Uint8Array) => Promise<Uint8Array>

export type StatefulPrecompileOptions = {
  /** Functions that exist only from some fork on (`setManager` needs Durango). */
  activation?: Partial<Record<Hex, (rules: PrecompileRules) => boolean>>
}

export function writeProtection(): PrecompileError {
  return new PrecompileError(ERR_WRITE_PROTECTION)
}

/**
 * A precompile dispatching on the 4-byte selector, without fallback (subnet-EVM
 * `contract.NewStatefulPrecompileContract`). Errors other than reverts leave no gas and no data,
 * as libevm applies them.
 */
export function createStatefulPrecompile(
  functions: Record<Hex, PrecompileFunction>,
  options: StatefulPrecompileOptions = {},
): StatefulPrecompile {
  const table = new Map<string, PrecompileFunction>(Object.entries(functions).map(([s, f]) => [s.toLowerCase(), f]))
  const activation = new Map<string, (rules: PrecompileRules) => boolean>(
    Object.entries(options.activation ?? {}).flatMap(([s, f]) => (f ? [[s.toLowerCase(), f]] : [])),
  )

  return async (call: PrecompileCall): Promise<PrecompileResult> => {
    const gas = new GasMeter(call.gas)
    try {
      if (call.input.length < 4)
        throw new PrecompileError(`missing function selector to precompile - input length (${call.input.length})`)
      const selector = bytesToHex(call.input.subarray(0, 4))
      const fn = table.get(selector)
      if (!fn) throw new PrecompileError(`invalid function selector: ${selector}`)
      const isActivated = activation.get(selector)
      if (isActivated && !isActivated(call.rules))
        throw new PrecompileError(`invalid non-activated function selector: ${selector}`)
      const returnData = await fn(call, gas, call.input.subarray(4))
      return { returnData, gasLeft: gas.remaining }
    } catch (err) {
      if (!(err instanceof PrecompileError)) throw err
      return { returnData: new Uint8Array(0), gasLeft: err.reverted ? gas.remaining : 0n, error: err }
    }
  }
}
