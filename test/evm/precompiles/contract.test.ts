import { describe, expect, it } from 'vitest'
import { bytesToHex } from '@ethereumjs/util'
import { createStatefulPrecompile, type PrecompileFunction } from '../../../src/evm/precompiles/contract.js'
import { PrecompileError } from '../../../src/evm/precompiles/types.js'
import { NOBODY, MemoryState, invoke } from './harness.js'

const ADDRESS = '0x0300000000000000000000000000000000000000'
const echo: PrecompileFunction = async (_call, gas, args) => {
  gas.deduct(100n)
  return args
}
const reverting: PrecompileFunction = async (_call, gas) => {
  gas.deduct(10n)
  throw new PrecompileError('execution reverted', { reverted: true })
}
const failing: PrecompileFunction = async (_call, gas) => {
  gas.deduct(10n)
  throw new PrecompileError('boom')
}
const crashing: PrecompileFunction = async () => {
  throw new TypeError('bug')
}
const run = createStatefulPrecompile(
  { '0x11111111': echo, '0x22222222': reverting, '0x33333333': failing, '0x44444444': crashing, '0xAABBCCDD': echo },
  { activation: { '0xaabbccdd': (rules) => rules.isDurango } },
)
const state = new MemoryState()

describe('createStatefulPrecompile', () => {
  it('runs the selected function with the calldata after the selector', async () => {
    const r = await invoke(run, ADDRESS, { state, caller: NOBODY, input: '0x11111111beef', gas: 1000n })
    expect(r.error).toBeUndefined()
    expect(r.ret).toBe('0xbeef')
    expect(r.gasLeft).toBe(900n)
  })
  it.each([
    ['0x', 'missing function selector to precompile - input length (0)'],
    ['0x111111', 'missing function selector to precompile - input length (3)'],
    ['0x99999999', 'invalid function selector: 0x99999999'],
    ['0x00000000ffff', 'invalid function selector: 0x00000000'],
  ] as const)('%s fails: %s, all gas used', async (input, message) => {
    const r = await invoke(run, ADDRESS, { state, caller: NOBODY, input, gas: 1000n })
    expect(r.error?.message).toBe(message)
    expect(r.error?.reverted).toBe(false)
    expect(r.gasLeft).toBe(0n)
    expect(r.returnData).toHaveLength(0)
  })
  it('a function gated to a fork is refused before it', async () => {
    const before = await invoke(run, ADDRESS, { state, caller: NOBODY, input: '0xaabbccdd', durango: false })
    expect(before.error?.message).toBe('invalid non-activated function selector: 0xaabbccdd')
    const after = await invoke(run, ADDRESS, { state, caller: NOBODY, input: '0xaabbccdd01' })
    expect(after.error).toBeUndefined()
    expect(after.ret).toBe('0x01')
  })
  it('out of gas leaves nothing', async () => {
    const r = await invoke(run, ADDRESS, { state, caller: NOBODY, input: '0x11111111ff', gas: 99n })
    expect(r.error?.message).toBe('out of gas')
    expect(r.gasLeft).toBe(0n)
    expect(bytesToHex(r.returnData)).toBe('0x')
  })
  it('a revert keeps the gas left, another error consumes it', async () => {
    const rev = await invoke(run, ADDRESS, { state, caller: NOBODY, input: '0x22222222', gas: 1000n })
    expect(rev.error?.reverted).toBe(true)
    expect(rev.gasLeft).toBe(990n)
    const fail = await invoke(run, ADDRESS, { state, caller: NOBODY, input: '0x33333333', gas: 1000n })
    expect(fail.error?.message).toBe('boom')
    expect(fail.gasLeft).toBe(0n)
  })
  it('a non-precompile exception is a bug and propagates', async () => {
    await expect(invoke(run, ADDRESS, { state, caller: NOBODY, input: '0x44444444' })).rejects.toThrow(TypeError)
  })
})
