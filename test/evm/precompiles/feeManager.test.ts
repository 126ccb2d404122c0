import { describe, expect, it } from 'vitest'
import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../../../src/core/hex.js'
import { DEFAULT_FEE_CONFIG, type FeeConfig } from '../../../src/evm/fees.js'
import { SELECTORS } from '../../../src/evm/precompiles/abi.js'
import { getRole } from '../../../src/evm/precompiles/allowList.js'
import {
  FEE_MANAGER_ADDRESS,
  configureFeeManager,
  feeManagerPrecompile as run,
  readFeeConfig,
  storeFeeConfig,
  verifyFeeConfig,
} from '../../../src/evm/precompiles/feeManager.js'
import { ADMIN, ENABLED, MANAGER, MemoryState, NOBODY, NOBODY_CHECKSUM, calldata, invoke, wordHex } from './harness.js'

const CHANGED = '0x4c98e43adb5962c18f3f0e6dd066e2a2de258d3b4f695b317b77c8f27cd044fc'
const ORDER = [
  'gasLimit',
  'targetBlockRate',
  'minBaseFee',
  'targetGas',
  'baseFeeChangeDenominator',
  'minBlockGasCost',
  'maxBlockGasCost',
  'blockGasCostStep',
] as const
const NEW: FeeConfig = {
  gasLimit: 20_000_000n,
  targetBlockRate: 3n,
  minBaseFee: 1_000_000_000n,
  targetGas: 50_000_000n,
  baseFeeChangeDenominator: 48n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 10_000_000n,
  blockGasCostStep: 500_000n,
}
const words = (fc: FeeConfig) => ORDER.map((k) => fc[k])
const setCall = (fc: FeeConfig) => calldata(SELECTORS.setFeeConfig, ...words(fc))
const hexWords = (fc: FeeConfig) => `0x${words(fc).map((v) => wordHex(v).slice(2)).join('')}`

async function setup(blockNumber = 3n) {
  const state = new MemoryState()
  await configureFeeManager(
    state,
    { adminAddresses: [ADMIN], managerAddresses: [MANAGER], enabledAddresses: [ENABLED], initialFeeConfig: undefined },
    blockNumber,
    DEFAULT_FEE_CONFIG,
  )
  return state
}

describe('configureFeeManager and storage layout', () => {
  it('stores the genesis fee config without initialFeeConfig, lastChangedAt = activation block', async () => {
    const state = await setup(3n)
    expect(await readFeeConfig(state)).toEqual({ feeConfig: DEFAULT_FEE_CONFIG, lastChangedAt: 3n })
    expect(await getRole(state, FEE_MANAGER_ADDRESS, MANAGER)).toBe(3n)
  })
  it('field i at Hash{byte(i)}, lastChangedAt at Hash{"lca"}', async () => {
    const state = new MemoryState()
    await storeFeeConfig(state, NEW, 0x42n)
    const slot = (hex: string) => `${FEE_MANAGER_ADDRESS}:0x${hex.padEnd(64, '0')}`
    ORDER.forEach((k, i) =>
      expect(bytesToHex(state.storage.get(slot(`0${i + 1}`))!)).toBe(wordHex(NEW[k])),
    )
    expect(bytesToHex(state.storage.get(slot('6c6361'))!)).toBe(wordHex(0x42n))
    expect(state.storage.size).toBe(9)
  })
  it('initialFeeConfig wins over genesis; an invalid one fails', async () => {
    const state = new MemoryState()
    const base = { adminAddresses: [], managerAddresses: [], enabledAddresses: [] }
    await configureFeeManager(state, { ...base, initialFeeConfig: NEW }, 0n, DEFAULT_FEE_CONFIG)
    expect((await readFeeConfig(state)).feeConfig).toEqual(NEW)
    await expect(
      configureFeeManager(state, { ...base, initialFeeConfig: { ...NEW, gasLimit: 0n } }, 0n, DEFAULT_FEE_CONFIG),
    ).rejects.toThrow(
      'cannot configure given initial fee config: cannot verify fee config: gasLimit cannot be less than or equal to 0: gasLimit = 0',
    )
  })
})

describe('setFeeConfig', () => {
  it.each([
    ['Admin', ADMIN],
    ['Manager', MANAGER],
    ['Enabled', ENABLED],
  ])('%s sets it after Durango: 180 000 + 45 221 gas, event with old and new', async (_n, caller) => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller, input: setCall(NEW), blockNumber: 11n })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(225_221n)
    expect(r.returnData).toHaveLength(0)
    expect(r.logs).toEqual([
      { topics: [CHANGED, wordHex(caller)], data: `${hexWords(DEFAULT_FEE_CONFIG)}${hexWords(NEW).slice(2)}` },
    ])
    expect(r.logs[0]!.data.length).toBe(2 + 16 * 64)
    expect(await readFeeConfig(state)).toEqual({ feeConfig: NEW, lastChangedAt: 11n })
  })

  it('pre-Durango: 180 000 gas and no event', async () => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: ADMIN, input: setCall(NEW), durango: false })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(180_000n)
    expect(r.logs).toEqual([])
  })

  it('a caller without role cannot', async () => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: NOBODY, input: setCall(NEW) })
    expect(r.error?.message).toBe(`non-enabled cannot change fee config: ${NOBODY_CHECKSUM}`)
    expect(r.gasLeft).toBe(0n)
    expect((await readFeeConfig(state)).feeConfig).toEqual(DEFAULT_FEE_CONFIG)
  })

  it('read-only comes before the input', async () => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: ADMIN, input: SELECTORS.setFeeConfig, readOnly: true })
    expect(r.error?.message).toBe('write protection')
  })

  it.each<[string, Partial<FeeConfig>, string]>([
    ['gasLimit 0', { gasLimit: 0n }, 'gasLimit cannot be less than or equal to 0: gasLimit = 0'],
    ['targetGas 0', { targetGas: 0n }, 'targetGas cannot be less than or equal to 0: targetGas = 0'],
    [
      'denominator 0',
      { baseFeeChangeDenominator: 0n },
      'baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = 0',
    ],
    [
      'min > max block gas cost',
      { minBlockGasCost: 5n, maxBlockGasCost: 4n },
      'minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 5, maxBlockGasCost = 4',
    ],
    [
      'max block gas cost beyond uint64',
      { maxBlockGasCost: 1n << 64n },
      'maxBlockGasCost is not a valid uint64: maxBlockGasCost = 18446744073709551616',
    ],
    [
      'targetBlockRate 2^64 is read as its low 64 bits: 0',
      { targetBlockRate: 1n << 64n },
      'targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0',
    ],
  ])('invalid: %s', async (_n, patch, message) => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: ADMIN, input: setCall({ ...NEW, ...patch }) })
    expect(r.error?.message).toBe(`cannot verify fee config: ${message}`)
    expect(r.gasLeft).toBe(0n)
    expect(r.logs).toEqual([])
    expect(await readFeeConfig(state)).toEqual({ feeConfig: DEFAULT_FEE_CONFIG, lastChangedAt: 3n })
  })

  it('the event gas is charged before the config is verified', async () => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: ADMIN, input: setCall({ ...NEW, gasLimit: 0n }), gas: 225_220n })
    expect(r.error?.message).toBe('out of gas')
  })

  it('targetBlockRate keeps only its low 64 bits', async () => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: ADMIN, input: setCall({ ...NEW, targetBlockRate: (1n << 64n) + 7n }) })
    expect(r.error).toBeUndefined()
    expect((await readFeeConfig(state)).feeConfig.targetBlockRate).toBe(7n)
  })

  it('calldata length', async () => {
    const state = await setup()
    const go = (input: Uint8Array, durango: boolean) =>
      invoke(run, FEE_MANAGER_ADDRESS, { state, caller: ADMIN, input, durango }).then((r) => r.error?.message)
    const long = calldata(SELECTORS.setFeeConfig, ...words(NEW), 0n)
    const short = setCall(NEW).subarray(0, 4 + 200)
    expect(await go(long, false)).toBe('invalid input length for fee config Input: 288')
    expect(await go(short, false)).toBe('invalid input length for fee config Input: 200')
    expect(await go(long, true)).toBeUndefined()
    expect(await go(short, true)).toBe('failed to unpack input: abi: cannot marshal in to go type: length insufficient 200 require 224')
  })

  it('out of gas at the event changes nothing', async () => {
    const state = await setup()
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: ADMIN, input: setCall(NEW), gas: 225_220n })
    expect(r.error?.message).toBe('out of gas')
    expect((await readFeeConfig(state)).feeConfig).toEqual(DEFAULT_FEE_CONFIG)
  })
})

describe('getters', () => {
  it('getFeeConfig: 40 000 gas, 8 words, read-only allowed', async () => {
    const state = await setup()
    for (const durango of [true, false]) {
      const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: NOBODY, input: SELECTORS.getFeeConfig, readOnly: true, durango })
      expect(r.error).toBeUndefined()
      expect(r.gasUsed).toBe(40_000n)
      expect(r.ret).toBe(hexWords(DEFAULT_FEE_CONFIG))
    }
  })
  it('getFeeConfigLastChangedAt: 5 000 gas', async () => {
    const state = await setup(99n)
    const r = await invoke(run, FEE_MANAGER_ADDRESS, { state, caller: NOBODY, input: `${SELECTORS.getFeeConfigLastChangedAt}ff` as Hex })
    expect(r.error).toBeUndefined()
    expect(r.gasUsed).toBe(5_000n)
    expect(r.ret).toBe(wordHex(99n))
  })
})

describe('verifyFeeConfig', () => {
  it('accepts the defaults', () => expect(verifyFeeConfig(DEFAULT_FEE_CONFIG)).toBeUndefined())
  it.each<[Partial<FeeConfig>, string]>([
    [{ minBaseFee: -1n }, 'minBaseFee cannot be less than 0: minBaseFee = -1'],
    [{ minBlockGasCost: -1n }, 'minBlockGasCost cannot be less than 0: minBlockGasCost = -1'],
    [{ blockGasCostStep: -1n }, 'blockGasCostStep cannot be less than 0: blockGasCostStep = -1'],
    [{ targetBlockRate: 0n }, 'targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0'],
    [{ gasLimit: 1n << 256n }, 'gasLimit exceeds hash length: 32 bytes'],
    [{ minBaseFee: 1n << 256n }, 'minBaseFee exceeds hash length: 32 bytes'],
    [{ gasLimit: 0n, targetGas: 0n }, 'gasLimit cannot be less than or equal to 0: gasLimit = 0'],
  ])('%o → %s', (patch, message) => expect(verifyFeeConfig({ ...DEFAULT_FEE_CONFIG, ...patch })).toBe(message))
})
