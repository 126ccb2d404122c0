import { describe, expect, it } from 'vitest'
import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import type { Hex } from '../../../src/core/hex.js'
import { PRECOMPILE_ADDRESSES } from '../../../src/evm/config/types.js'
import { SELECTORS } from '../../../src/evm/precompiles/abi.js'
import { canModify, configureAllowList, getRole, roleName } from '../../../src/evm/precompiles/allowList.js'
import { deployerAllowListPrecompile } from '../../../src/evm/precompiles/deployerAllowList.js'
import { feeManagerPrecompile } from '../../../src/evm/precompiles/feeManager.js'
import { nativeMinterPrecompile } from '../../../src/evm/precompiles/nativeMinter.js'
import { rewardManagerPrecompile } from '../../../src/evm/precompiles/rewardManager.js'
import { isAllowListEnabled, txAllowListPrecompile } from '../../../src/evm/precompiles/txAllowList.js'
import type { StatefulPrecompile } from '../../../src/evm/precompiles/types.js'
import { ADMIN, ENABLED, MANAGER, MemoryState, NOBODY, NOBODY_CHECKSUM, calldata, invoke, word, wordHex } from './harness.js'

const ROLE_SET = '0xcdb7ea01f00a414d78757bdb0f6391664ba3fedf987eed280927c1e7d695be3e'
const NAMES = ['NoRole', 'EnabledRole', 'AdminRole', 'ManagerRole'] as const
const SETTER = [SELECTORS.setNone, SELECTORS.setEnabled, SELECTORS.setAdmin, SELECTORS.setManager] as const
const TARGET: Hex = '0x00000000000000000000000000000000000000aa'

/** The reference's rule, written out: Admin anything; Manager only None/Enabled → None/Enabled. */
function allowed(callerRole: number, from: number, to: number): boolean {
  if (callerRole === 2) return true
  if (callerRole === 3) return from <= 1 && to <= 1
  return false
}

const PRECOMPILES: [string, Hex, StatefulPrecompile][] = [
  ['deployerAllowList', PRECOMPILE_ADDRESSES.contractDeployerAllowListConfig, deployerAllowListPrecompile],
  ['nativeMinter', PRECOMPILE_ADDRESSES.contractNativeMinterConfig, nativeMinterPrecompile],
  ['txAllowList', PRECOMPILE_ADDRESSES.txAllowListConfig, txAllowListPrecompile],
  ['feeManager', PRECOMPILE_ADDRESSES.feeManagerConfig, feeManagerPrecompile],
  ['rewardManager', PRECOMPILE_ADDRESSES.rewardManagerConfig, rewardManagerPrecompile],
]

async function putRole(state: MemoryState, precompile: Hex, who: Hex, role: bigint) {
  await state.putStorage(precompile, word(who), word(role))
}

describe('role helpers', () => {
  it('names and predicates', () => {
    expect([0n, 1n, 2n, 3n, 4n].map(roleName)).toEqual([...NAMES, 'UnknownRole'])
    expect([0n, 1n, 2n, 3n, 4n].map(isAllowListEnabled)).toEqual([false, true, true, true, false])
    for (let c = 0; c < 4; c++)
      for (let f = 0; f < 4; f++)
        for (let t = 0; t < 4; t++) expect(canModify(BigInt(c), BigInt(f), BigInt(t))).toBe(allowed(c, f, t))
  })
  it('configure writes Enabled, then Admin, then Manager', async () => {
    const state = new MemoryState()
    const p = PRECOMPILE_ADDRESSES.txAllowListConfig
    await configureAllowList(state, p, {
      enabledAddresses: [ENABLED, ADMIN, MANAGER],
      adminAddresses: [ADMIN, MANAGER],
      managerAddresses: [MANAGER],
    })
    expect(await getRole(state, p, ENABLED)).toBe(1n)
    expect(await getRole(state, p, ADMIN)).toBe(2n)
    expect(await getRole(state, p, MANAGER)).toBe(3n)
    expect(await getRole(state, p, NOBODY)).toBe(0n)
    // slot = address left-padded, value = role word
    expect(bytesToHex(await state.getStorage(p, word(ADMIN)))).toBe(wordHex(2n))
  })
})

describe.each(PRECOMPILES)('%s allow list', (_name, address, run) => {
  const CALLER: Record<number, Hex> = { 0: NOBODY, 1: ENABLED, 2: ADMIN, 3: MANAGER }

  async function setup(targetRole: number) {
    const state = new MemoryState()
    await putRole(state, address, ENABLED, 1n)
    await putRole(state, address, ADMIN, 2n)
    await putRole(state, address, MANAGER, 3n)
    await putRole(state, address, TARGET, BigInt(targetRole))
    return state
  }

  for (let c = 0; c < 4; c++)
    for (let from = 0; from < 4; from++)
      for (let to = 0; to < 4; to++) {
        const ok = allowed(c, from, to)
        it(`${NAMES[c]} ${ok ? 'may' : 'may not'} move ${NAMES[from]} to ${NAMES[to]}`, async () => {
          const state = await setup(from)
          const caller = CALLER[c]!
          const r = await invoke(run, address, { state, caller, input: calldata(SETTER[to]!, TARGET) })
          if (ok) {
            expect(r.error).toBeUndefined()
            expect(r.gasUsed).toBe(22_131n)
            expect(r.returnData).toHaveLength(0)
            expect(r.logs).toEqual([
              { topics: [ROLE_SET, wordHex(BigInt(to)), wordHex(TARGET), wordHex(caller)], data: wordHex(BigInt(from)) },
            ])
            expect(await getRole(state, address, TARGET)).toBe(BigInt(to))
          } else {
            expect(r.error?.message).toBe(
              `cannot modify allow list: modify address: ${toChecksumAddress(caller)}, from role: ${NAMES[from]}, to role: ${NAMES[to]}`,
            )
            expect(r.gasLeft).toBe(0n)
            expect(r.logs).toEqual([])
            expect(await getRole(state, address, TARGET)).toBe(BigInt(from))
          }
        })
      }

  it('the message prints the caller, EIP-55', async () => {
    const state = await setup(0)
    const r = await invoke(run, address, { state, caller: NOBODY, input: calldata(SELECTORS.setAdmin, TARGET) })
    expect(r.error?.message).toBe(
      `cannot modify allow list: modify address: ${NOBODY_CHECKSUM}, from role: NoRole, to role: AdminRole`,
    )
  })

  it('pre-Durango: 20 000 gas, no event, no setManager', async () => {
    const state = await setup(0)
    const r = await invoke(run, address, {
      state,
      caller: ADMIN,
      input: calldata(SELECTORS.setEnabled, TARGET),
      durango: false,
    })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(20_000n)
    expect(r.logs).toEqual([])
    expect(await getRole(state, address, TARGET)).toBe(1n)
    const m = await invoke(run, address, { state, caller: ADMIN, input: calldata(SELECTORS.setManager, TARGET), durango: false })
    expect(m.error?.message).toBe('invalid non-activated function selector: 0xd0ebdbe7')
  })

  it('readAllowList: 5 000 gas, any caller, raw stored value', async () => {
    const state = await setup(3)
    for (const durango of [true, false]) {
      const r = await invoke(run, address, { state, caller: NOBODY, input: calldata(SELECTORS.readAllowList, TARGET), durango })
      expect(r.error).toBeUndefined()
      expect(r.gasUsed).toBe(5_000n)
      expect(r.ret).toBe(wordHex(3n))
    }
    await putRole(state, address, TARGET, 7n)
    const r = await invoke(run, address, { state, caller: NOBODY, input: calldata(SELECTORS.readAllowList, TARGET), readOnly: true })
    expect(r.ret).toBe(wordHex(7n))
  })

  it('an unknown stored role can do nothing', async () => {
    const state = await setup(0)
    await putRole(state, address, NOBODY, 9n)
    const r = await invoke(run, address, { state, caller: NOBODY, input: calldata(SELECTORS.setEnabled, TARGET) })
    expect(r.error?.message).toContain('from role: NoRole, to role: EnabledRole')
    await putRole(state, address, TARGET, 9n)
    const a = await invoke(run, address, { state, caller: ADMIN, input: calldata(SELECTORS.setNone, TARGET) })
    expect(a.logs[0]?.data).toBe(wordHex(9n))
  })

  it('read-only: write protection, checked after the input', async () => {
    const state = await setup(0)
    const r = await invoke(run, address, { state, caller: ADMIN, input: calldata(SELECTORS.setAdmin, TARGET), readOnly: true })
    expect(r.error?.message).toBe('write protection')
    expect(r.gasLeft).toBe(0n)
    const bad = await invoke(run, address, { state, caller: ADMIN, input: calldata(SELECTORS.setAdmin), readOnly: true })
    expect(bad.error?.message).toBe('abi: attempting to unmarshal an empty string while arguments are expected')
  })

  it('calldata length: strict before Durango, lenient after', async () => {
    const state = await setup(0)
    const long = calldata(SELECTORS.setEnabled, TARGET, 5n)
    const short = calldata(SELECTORS.setEnabled, new Uint8Array(31))
    const pre = (input: Uint8Array) => invoke(run, address, { state, caller: ADMIN, input, durango: false })
    const post = (input: Uint8Array) => invoke(run, address, { state, caller: ADMIN, input })
    expect((await pre(long)).error?.message).toBe('invalid input length for modifying allow list: 64')
    expect((await pre(short)).error?.message).toBe('invalid input length for modifying allow list: 31')
    expect((await post(long)).error).toBeUndefined()
    expect((await post(short)).error?.message).toBe('abi: cannot marshal in to go type: length insufficient 31 require 32')
    const read = calldata(SELECTORS.readAllowList, TARGET, 1n)
    expect((await pre(read)).error?.message).toBe('invalid input length for read allow list: 64')
    expect((await post(read)).ret).toBe(wordHex(1n))
  })

  it('dirty high bytes of the address word are ignored', async () => {
    const state = await setup(0)
    const dirty = word(TARGET)
    dirty[0] = 0xff
    const r = await invoke(run, address, { state, caller: ADMIN, input: calldata(SELECTORS.setEnabled, dirty) })
    expect(r.error).toBeUndefined()
    expect(await getRole(state, address, TARGET)).toBe(1n)
  })

  it('out of gas: before the base cost, and at the event (nothing written)', async () => {
    const state = await setup(0)
    const input = calldata(SELECTORS.setEnabled, TARGET)
    const a = await invoke(run, address, { state, caller: ADMIN, input, gas: 19_999n })
    expect(a.error?.message).toBe('out of gas')
    const b = await invoke(run, address, { state, caller: ADMIN, input, gas: 22_130n })
    expect(b.error?.message).toBe('out of gas')
    expect(b.gasLeft).toBe(0n)
    expect(b.logs).toEqual([])
    expect(await getRole(state, address, TARGET)).toBe(0n)
    const c = await invoke(run, address, { state, caller: ADMIN, input, gas: 22_131n })
    expect(c.error).toBeUndefined()
    expect(c.gasLeft).toBe(0n)
    const d = await invoke(run, address, { state, caller: NOBODY, input: calldata(SELECTORS.readAllowList, TARGET), gas: 4_999n })
    expect(d.error?.message).toBe('out of gas')
  })

  it('unknown selector and short calldata', async () => {
    const state = await setup(0)
    expect((await invoke(run, address, { state, caller: ADMIN, input: '0xdeadbeef' })).error?.message).toBe(
      'invalid function selector: 0xdeadbeef',
    )
    expect((await invoke(run, address, { state, caller: ADMIN, input: '0x70' })).error?.message).toBe(
      'missing function selector to precompile - input length (1)',
    )
  })
})
