import { describe, expect, it } from 'vitest'
import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../../../src/core/hex.js'
import type { RewardConfig } from '../../../src/evm/config/types.js'
import { SELECTORS } from '../../../src/evm/precompiles/abi.js'
import {
  REWARD_MANAGER_ADDRESS,
  configureRewardManager,
  readRewardAddress,
  rewardManagerPrecompile as run,
} from '../../../src/evm/precompiles/rewardManager.js'
import { ADMIN, ENABLED, MANAGER, MemoryState, NOBODY, NOBODY_CHECKSUM, calldata, invoke, wordHex } from './harness.js'

const TOPIC = {
  RewardAddressChanged: '0xc2a9e07cba6f4920acaa5933bd0406949d5dbef7ee698e786ea23e8708f32a6c',
  FeeRecipientsAllowed: '0xabb1949bd129fef9b84601a48aee89d600d90074ca10216a02ce43996be55991',
  RewardsDisabled: '0xeb121f0335efe8f4b8ebef7793c18c171834696989656a8c345acc558359fabf',
}
const ZERO: Hex = '0x0000000000000000000000000000000000000000'
const BLACKHOLE: Hex = '0x0100000000000000000000000000000000000000'
const REWARD: Hex = '0x00000000000000000000000000000000000000c0'
const SLOT = `${REWARD_MANAGER_ADDRESS}:0x7261736b${'0'.repeat(56)}`
const AFRAV = `0x6166726176${'0'.repeat(54)}`

async function setup(initialRewardConfig?: RewardConfig, genesisAllowFeeRecipients = false) {
  const state = new MemoryState()
  await configureRewardManager(
    state,
    { adminAddresses: [ADMIN], managerAddresses: [MANAGER], enabledAddresses: [ENABLED], initialRewardConfig },
    genesisAllowFeeRecipients,
  )
  return state
}
const view = async (state: MemoryState, selector: Hex) => {
  const r = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: NOBODY, input: selector, readOnly: true })
  expect(r.error).toBeUndefined()
  expect(r.gasUsed).toBe(5_000n)
  return r.ret
}

describe('configureRewardManager', () => {
  it.each<[string, RewardConfig | undefined, boolean, string, Hex, boolean]>([
    ['initial allowFeeRecipients', { allowFeeRecipients: true, rewardAddress: REWARD }, false, AFRAV, ZERO, true],
    ['initial without address: disabled', { allowFeeRecipients: false, rewardAddress: undefined }, true, wordHex(BLACKHOLE), BLACKHOLE, false],
    ['initial zero address: disabled', { allowFeeRecipients: false, rewardAddress: ZERO }, true, wordHex(BLACKHOLE), BLACKHOLE, false],
    ['initial address', { allowFeeRecipients: false, rewardAddress: REWARD }, true, wordHex(REWARD), REWARD, false],
    ['genesis allowFeeRecipients', undefined, true, AFRAV, ZERO, true],
    ['nothing: disabled', undefined, false, wordHex(BLACKHOLE), BLACKHOLE, false],
  ])('%s', async (_n, initial, genesis, slotValue, address, allowed) => {
    const state = await setup(initial, genesis)
    expect(bytesToHex(state.storage.get(SLOT)!)).toBe(slotValue)
    expect(await readRewardAddress(state)).toEqual({ address, allowFeeRecipients: allowed })
    expect(await view(state, SELECTORS.currentRewardAddress)).toBe(wordHex(address))
    expect(await view(state, SELECTORS.areFeeRecipientsAllowed)).toBe(wordHex(allowed ? 1n : 0n))
  })
})

describe.each([
  ['allowFeeRecipients', SELECTORS.allowFeeRecipients, TOPIC.FeeRecipientsAllowed, AFRAV],
  ['disableRewards', SELECTORS.disableRewards, TOPIC.RewardsDisabled, wordHex(BLACKHOLE)],
] as const)('%s', (name, selector, topic, stored) => {
  it.each([
    ['Admin', ADMIN],
    ['Manager', MANAGER],
    ['Enabled', ENABLED],
  ])('%s: 25 000 + 1 125 gas after Durango, event with the sender', async (_n, caller) => {
    const state = await setup({ allowFeeRecipients: false, rewardAddress: REWARD })
    const r = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller, input: `${selector}00` as Hex })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(26_125n)
    expect(r.logs).toEqual([{ topics: [topic, wordHex(caller)], data: '0x' }])
    expect(bytesToHex(state.storage.get(SLOT)!)).toBe(stored)
  })
  it('pre-Durango: 25 000 gas, no event', async () => {
    const state = await setup({ allowFeeRecipients: false, rewardAddress: REWARD })
    const r = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: ADMIN, input: selector, durango: false })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(25_000n)
    expect(r.logs).toEqual([])
    expect(bytesToHex(state.storage.get(SLOT)!)).toBe(stored)
  })
  it('role and read-only', async () => {
    const state = await setup({ allowFeeRecipients: false, rewardAddress: REWARD })
    const denied = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: NOBODY, input: selector })
    expect(denied.error?.message).toBe(`non-enabled cannot call ${name}: ${NOBODY_CHECKSUM}`)
    expect(denied.gasLeft).toBe(0n)
    const ro = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: ADMIN, input: selector, readOnly: true })
    expect(ro.error?.message).toBe('write protection')
    const oog = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: ADMIN, input: selector, gas: 26_124n })
    expect(oog.error?.message).toBe('out of gas')
    expect(bytesToHex(state.storage.get(SLOT)!)).toBe(wordHex(REWARD))
  })
})

describe('setRewardAddress', () => {
  const set = (addr: Hex | Uint8Array) => calldata(SELECTORS.setRewardAddress, addr)

  it.each([
    ['Admin', ADMIN],
    ['Manager', MANAGER],
    ['Enabled', ENABLED],
  ])('%s: 25 000 + 6 875 gas after Durango, event with old and new', async (_n, caller) => {
    const state = await setup(undefined, false)
    const r = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller, input: set(REWARD) })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(31_875n)
    expect(r.logs).toEqual([
      { topics: [TOPIC.RewardAddressChanged, wordHex(caller), wordHex(BLACKHOLE), wordHex(REWARD)], data: '0x' },
    ])
    expect(await readRewardAddress(state)).toEqual({ address: REWARD, allowFeeRecipients: false })
  })

  it('with fee recipients allowed the old address reads as zero', async () => {
    const state = await setup(undefined, true)
    const r = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: ADMIN, input: set(REWARD) })
    expect(r.logs[0]?.topics[2]).toBe(wordHex(ZERO))
  })

  it('pre-Durango: 25 000 gas, no event', async () => {
    const state = await setup()
    const r = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: ADMIN, input: set(REWARD), durango: false })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(25_000n)
    expect(r.logs).toEqual([])
  })

  it('the zero address is refused, after the role check', async () => {
    const state = await setup()
    const r = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: ADMIN, input: set(ZERO) })
    expect(r.error?.message).toBe('reward address cannot be empty')
    expect(r.gasLeft).toBe(0n)
    const denied = await invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: NOBODY, input: set(ZERO) })
    expect(denied.error?.message).toBe(`non-enabled cannot call setRewardAddress: ${NOBODY_CHECKSUM}`)
  })

  it('read-only before the input; bare ABI errors', async () => {
    const state = await setup()
    const go = (input: Uint8Array | Hex, durango = true, readOnly = false) =>
      invoke(run, REWARD_MANAGER_ADDRESS, { state, caller: ADMIN, input, durango, readOnly }).then((r) => r.error?.message)
    expect(await go(SELECTORS.setRewardAddress, true, true)).toBe('write protection')
    expect(await go(SELECTORS.setRewardAddress)).toBe('abi: attempting to unmarshal an empty string while arguments are expected')
    expect(await go(`${SELECTORS.setRewardAddress}0102`)).toBe('abi: cannot marshal in to go type: length insufficient 2 require 32')
    expect(await go(`${SELECTORS.setRewardAddress}4142`, false)).toBe('abi: improperly formatted input: AB - Bytes: [[65 66]]')
    // strict mode only wants a multiple of 32: a second word passes before Durango too
    expect(await go(calldata(SELECTORS.setRewardAddress, REWARD, 1n), false)).toBeUndefined()
  })
})
