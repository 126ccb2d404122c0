import { describe, expect, it } from 'vitest'
import { concatBytes } from '@ethereumjs/util'
import type { Hex } from '../../../src/core/hex.js'
import { SELECTORS } from '../../../src/evm/precompiles/abi.js'
import { getRole } from '../../../src/evm/precompiles/allowList.js'
import {
  NATIVE_MINTER_ADDRESS,
  configureNativeMinter,
  nativeMinterPrecompile as run,
} from '../../../src/evm/precompiles/nativeMinter.js'
import { ADMIN, ENABLED, MANAGER, MemoryState, NOBODY, NOBODY_CHECKSUM, calldata, invoke, word, wordHex } from './harness.js'

const MINTED = '0x400cd392f3d56fd10bb1dbd5839fdda8298208ddaa97b368faa053e1850930ee'
const TO: Hex = '0x00000000000000000000000000000000000000b0'
const ZERO: Hex = '0x0000000000000000000000000000000000000000'

async function setup() {
  const state = new MemoryState()
  await configureNativeMinter(state, {
    adminAddresses: [ADMIN],
    managerAddresses: [MANAGER],
    enabledAddresses: [ENABLED],
    initialMint: new Map(),
  })
  return state
}
const mint = (to: Hex, amount: bigint) => calldata(SELECTORS.mintNativeCoin, to, amount)

describe('mintNativeCoin', () => {
  it.each([
    ['Admin', ADMIN],
    ['Manager', MANAGER],
    ['Enabled', ENABLED],
  ])('%s mints: 30 000 + 1 756 gas after Durango, event, balance', async (_n, caller) => {
    const state = await setup()
    const r = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller, input: mint(TO, 1234n) })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(31_756n)
    expect(r.returnData).toHaveLength(0)
    expect(r.logs).toEqual([{ topics: [MINTED, wordHex(caller), wordHex(TO)], data: wordHex(1234n) }])
    expect(state.balances.get(TO)).toBe(1234n)
  })

  it('pre-Durango: 30 000 gas, no event', async () => {
    const state = await setup()
    const r = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ENABLED, input: mint(TO, 5n), durango: false })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(30_000n)
    expect(r.logs).toEqual([])
    expect(state.balances.get(TO)).toBe(5n)
  })

  it('a caller without role cannot mint', async () => {
    const state = await setup()
    const r = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: NOBODY, input: mint(TO, 5n) })
    expect(r.error?.message).toBe(`non-enabled cannot mint: ${NOBODY_CHECKSUM}`)
    expect(r.gasLeft).toBe(0n)
    expect(r.logs).toEqual([])
    expect(state.balances.size).toBe(0)
  })

  it('zero amount and the zero address are accepted (Go does not check them)', async () => {
    const state = await setup()
    const zero = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ADMIN, input: mint(TO, 0n) })
    expect(zero.error).toBeUndefined()
    expect(zero.logs[0]?.data).toBe(wordHex(0n))
    expect(state.balances.get(TO)).toBe(0n)
    const toZero = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ADMIN, input: mint(ZERO, 9n) })
    expect(toZero.error).toBeUndefined()
    expect(state.balances.get(ZERO)).toBe(9n)
  })

  it('read-only is checked before the input', async () => {
    const state = await setup()
    const r = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ADMIN, input: calldata(SELECTORS.mintNativeCoin), readOnly: true })
    expect(r.error?.message).toBe('write protection')
    expect(r.gasLeft).toBe(0n)
  })

  it('calldata errors', async () => {
    const state = await setup()
    const go = (input: Uint8Array, durango: boolean) =>
      invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ADMIN, input, durango }).then((r) => r.error?.message)
    const long = concatBytes(mint(TO, 1n), new Uint8Array(3))
    expect(await go(long, false)).toBe('invalid input length for minting: 67')
    expect(await go(calldata(SELECTORS.mintNativeCoin, TO), false)).toBe('invalid input length for minting: 32')
    expect(await go(long, true)).toBeUndefined()
    expect(await go(calldata(SELECTORS.mintNativeCoin, TO), true)).toBe(
      'failed to unpack input: abi: cannot marshal in to go type: length insufficient 32 require 64',
    )
    expect(await go(calldata(SELECTORS.mintNativeCoin), true)).toBe(
      'failed to unpack input: abi: attempting to unmarshal an empty string while arguments are expected',
    )
  })

  it('out of gas at the event mints nothing', async () => {
    const state = await setup()
    const r = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ADMIN, input: mint(TO, 1n), gas: 31_755n })
    expect(r.error?.message).toBe('out of gas')
    expect(state.balances.size).toBe(0)
    const r2 = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ADMIN, input: mint(TO, 1n), gas: 29_999n })
    expect(r2.error?.message).toBe('out of gas')
  })

  it('the full uint256 range is passed through', async () => {
    const state = await setup()
    const max = (1n << 256n) - 1n
    const r = await invoke(run, NATIVE_MINTER_ADDRESS, { state, caller: ADMIN, input: mint(TO, max) })
    expect(r.error).toBeUndefined()
    expect(state.balances.get(TO)).toBe(max)
  })
})

describe('configureNativeMinter', () => {
  it('credits the initial mint and writes the allow list', async () => {
    const state = new MemoryState()
    await configureNativeMinter(state, {
      adminAddresses: [ADMIN],
      managerAddresses: [],
      enabledAddresses: [],
      initialMint: new Map([
        [TO, 10n],
        [NOBODY, 20n],
      ]),
    })
    expect(state.balances.get(TO)).toBe(10n)
    expect(state.balances.get(NOBODY)).toBe(20n)
    expect(await getRole(state, NATIVE_MINTER_ADDRESS, ADMIN)).toBe(2n)
    expect(await state.getStorage(NATIVE_MINTER_ADDRESS, word(NOBODY))).toEqual(word(0n))
  })
})
