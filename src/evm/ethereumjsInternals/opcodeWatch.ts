/**
 * @ethereumjs/evm 10.1.3's opcode table, watched for a while: the entries of chosen opcodes call
 * back each time one of them runs in one EVM, then are put back. The gas left reported is the
 * frame's before a dynamic-gas opcode is charged (what its gas handler, e.g. SSTORE's EIP-2200
 * sentry, sees) and after a fixed-fee opcode's fee. A `step` listener would tell the same, but it takes every opcode
 * off the interpreter's synchronous path and copies the stack and memory at each one (a cold
 * constructor ran twice as long). The interpreter reaches an opcode through its table entry (the
 * jump analysis caches the entries themselves, per table), so an entry changed in place is seen
 * on every path; a dynamic-gas opcode is reported from its gas handler, the others from their
 * handler. Only on the release it was read from; elsewhere `watchOpcodes` gives undefined.
 */
import type { VM } from '@ethereumjs/vm'
import { installedVersion } from './sealing.js'

/** The @ethereumjs/evm release whose opcode table entries this was written against. */
export const CHECKED_EVM_VERSION = '10.1.3'
const EVM_VERSION = installedVersion('@ethereumjs/evm')

type RunState = { interpreter: { _evm: unknown; getGasLeft(): bigint } }
type Handler = (runState: RunState, ...rest: unknown[]) => unknown
type OpEntry = { opcodeInfo: { code: number; dynamicGas: boolean }; opHandler: Handler; gasHandler?: Handler }

export type OpcodeWatch = {
  /** Puts the entries back; false when the table was replaced or an entry changed meanwhile (a run not fully watched). */
  stop(): boolean
}

/** Calls `seen(opcode, gasLeft)` whenever one of `opcodes` runs in `vm`'s EVM, until `stop()`; undefined on another release. */
export function watchOpcodes(vm: VM, opcodes: readonly number[], seen: (opcode: number, gasLeft: bigint) => void): OpcodeWatch | undefined {
  if (EVM_VERSION !== CHECKED_EVM_VERSION) return undefined
  const evm = vm.evm as unknown as { _opcodeMap?: (OpEntry | undefined)[] }
  const table = evm._opcodeMap
  if (!Array.isArray(table)) return undefined
  const restore: (() => boolean)[] = []
  for (const op of opcodes) {
    const entry = table[op]
    // An opcode the fork does not have fails the run as invalid wherever it appears.
    if (!entry || entry.opcodeInfo.code !== op) continue
    const key = entry.opcodeInfo.dynamicGas && typeof entry.gasHandler === 'function' ? 'gasHandler' : 'opHandler'
    const original = entry[key]!
    const wrapper: Handler = function (this: unknown, runState, ...rest) {
      if (runState.interpreter._evm === evm) seen(op, runState.interpreter.getGasLeft())
      return original.call(this, runState, ...rest)
    }
    entry[key] = wrapper
    restore.push(() => {
      const intact = entry[key] === wrapper
      if (intact) entry[key] = original
      return intact
    })
  }
  return {
    stop() {
      let intact = evm._opcodeMap === table
      for (const put of restore) intact = put() && intact
      return intact
    },
  }
}
