import { describe, expect, it } from 'vitest'
import { createVM } from '@ethereumjs/vm'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { CHECKED_EVM_VERSION } from '../../src/evm/ethereumjsInternals/opcodeWatch.js'
import { installedVersion, watchOpcodes } from '../../src/evm/ethereumjsInternals.js'

// GAS POP PUSH1 1 PUSH1 0 SSTORE STOP
const CODE = hexToBytes('0x5a50600160005500')
const ADDRESS = createAddressFromString('0x00000000000000000000000000000000000c0de0')

describe('opcode watch (ethereumjs internals)', () => {
  it('is in place on the pinned @ethereumjs/evm: it reports the watched opcodes of its own EVM with the gas left, then puts the entries back', async () => {
    expect(installedVersion('@ethereumjs/evm')).toBe(CHECKED_EVM_VERSION)
    const vm = await createVM()
    const other = await createVM()
    for (const v of [vm, other]) await v.stateManager.putAccount(ADDRESS, new Account(1n))
    const table = (vm.evm as unknown as { _opcodeMap: { opHandler: unknown; gasHandler?: unknown }[] })._opcodeMap
    const before = [table[0x5a]!.opHandler, table[0x55]!.gasHandler]
    const seen: [number, bigint][] = []
    const watch = watchOpcodes(vm, [0x5a, 0x55], (op, gasLeft) => seen.push([op, gasLeft]))
    expect(watch).toBeDefined()
    await other.evm.runCode!({ code: CODE, gasLimit: 100_000n, to: ADDRESS })
    expect(seen).toEqual([])
    await vm.evm.runCode!({ code: CODE, gasLimit: 100_000n, to: ADDRESS })
    // GAS (fixed fee) from its handler, after its 2 gas; SSTORE (dynamic gas) from its gas
    // handler, before its charge, as the EIP-2200 sentry sees it: after GAS, POP, two PUSH1s.
    expect(seen).toEqual([[0x5a, 100_000n - 2n], [0x55, 100_000n - 10n]])
    expect(watch!.stop()).toBe(true)
    expect([table[0x5a]!.opHandler, table[0x55]!.gasHandler]).toEqual(before)
  })
})
