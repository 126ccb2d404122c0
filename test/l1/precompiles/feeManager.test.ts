import { describe, expect, it } from 'vitest'
import { encodeFunctionData, getAddress, numberToHex, parseEventLogs, parseGwei, type Hex } from 'viem'
import { admin, alice, bob, carol, l1Network, type L1Harness } from '../helpers.js'
import { allowListGenesis, allowListSuite, type AllowListSuiteOptions } from './allowListSuite.js'
import {
  FEE_MANAGER,
  GAS,
  PROXY_RUNTIME,
  calldataGas,
  deploy,
  expectCallError,
  feeManagerAbi,
  proxyData,
  rawBlock,
  sendTx,
} from './common.js'

const NONE_TARGET_FOR_FEES = '0x000000000000000000000000000000000000f00d'
const suite: AllowListSuiteOptions = { precompile: FEE_MANAGER, configKey: 'feeManagerConfig' }

type Fc = {
  gasLimit: bigint
  targetBlockRate: bigint
  minBaseFee: bigint
  targetGas: bigint
  baseFeeChangeDenominator: bigint
  minBlockGasCost: bigint
  maxBlockGasCost: bigint
  blockGasCostStep: bigint
}
/** testGenesis's feeConfig. */
const GENESIS_FC: Fc = {
  gasLimit: 20_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 1_000_000_000n,
  targetGas: 100_000_000n,
  baseFeeChangeDenominator: 48n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 10_000_000n,
  blockGasCostStep: 500_000n,
}
const NEW_FC: Fc = {
  gasLimit: 15_000_000n,
  targetBlockRate: 3n,
  minBaseFee: 5_000_000_000n,
  targetGas: 50_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 1n,
  maxBlockGasCost: 2_000_000n,
  blockGasCostStep: 100_000n,
}
const fields = (fc: Fc) => [fc.gasLimit, fc.targetBlockRate, fc.minBaseFee, fc.targetGas, fc.baseFeeChangeDenominator, fc.minBlockGasCost, fc.maxBlockGasCost, fc.blockGasCostStep] as const
const setData = (fc: Fc) => encodeFunctionData({ abi: feeManagerAbi, functionName: 'setFeeConfig', args: fields(fc) })
const SET_GAS = GAS.setFeeConfig + GAS.feeConfigChangedEvent
const json = (fc: Fc) => Object.fromEntries(Object.entries(fc).map(([k, v]) => [k, Number(v)]))
/** Fees high enough for any base fee these tests reach. */
const FEES = { maxFeePerGas: parseGwei('100'), maxPriorityFeePerGas: parseGwei('1') }

async function feeConfig(h: L1Harness, tag: string | bigint = 'latest') {
  return h.provider.request({ method: 'eth_feeConfig', params: [typeof tag === 'bigint' ? numberToHex(tag) : tag] })
}
async function setFee(h: L1Harness, from: typeof admin, fc: Fc, gas = 400_000n) {
  const hash = await h.wallet(from).sendTransaction({ to: FEE_MANAGER, data: setData(fc), gas, ...FEES })
  return h.publicClient.getTransactionReceipt({ hash })
}

describe('feeManager (0x0200…03)', () => {
  allowListSuite(suite)

  it('activation stores the genesis fee config; views and eth_feeConfig report it, lastChangedAt = 0 (the genesis block)', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const view = await h.publicClient.readContract({ address: FEE_MANAGER, abi: feeManagerAbi, functionName: 'getFeeConfig' })
    expect(view).toEqual(fields(GENESIS_FC))
    expect(await h.publicClient.readContract({ address: FEE_MANAGER, abi: feeManagerAbi, functionName: 'getFeeConfigLastChangedAt' })).toBe(0n)
    expect(await feeConfig(h)).toEqual({ feeConfig: json(GENESIS_FC), lastChangedAt: 0 })
    // The views are not gated and cost 40000 and 5000.
    const getData = encodeFunctionData({ abi: feeManagerAbi, functionName: 'getFeeConfig' })
    const r1 = await sendTx(h, carol, FEE_MANAGER, getData, 100_000n)
    expect(r1.status).toBe('success')
    expect(r1.gasUsed).toBe(GAS.tx + calldataGas(getData) + GAS.getFeeConfig)
    const lcaData = encodeFunctionData({ abi: feeManagerAbi, functionName: 'getFeeConfigLastChangedAt' })
    const r2 = await sendTx(h, carol, FEE_MANAGER, lcaData, 100_000n)
    expect(r2.gasUsed).toBe(GAS.tx + calldataGas(lcaData) + GAS.getLastChangedAt)
    await h.network.close()
  })

  it('an initialFeeConfig is stored instead of the genesis one', async () => {
    const h = await l1Network(allowListGenesis({ ...suite, extra: { initialFeeConfig: json(NEW_FC) } }))
    expect(await feeConfig(h)).toEqual({ feeConfig: json(NEW_FC), lastChangedAt: 0 })
    // …and governs block 1 (gas limit of the config in force after its parent).
    const receipt = await sendTx(h, admin, NONE_TARGET_FOR_FEES, '0x', 21_000n)
    expect(receipt.blockNumber).toBe(1n)
    expect(BigInt((await rawBlock(h, 1n)).gasLimit!)).toBe(NEW_FC.gasLimit)
    await h.network.close()
  })

  it('setFeeConfig by an Enabled caller: FeeConfigChanged(old, new), exact gas, views and eth_feeConfig with lastChangedAt = the block', async () => {
    const h = await l1Network(allowListGenesis(suite))
    // A couple of blocks first, so that lastChangedAt is not trivially 1.
    await sendTx(h, admin, NONE_TARGET_FOR_FEES, '0x', 21_000n)
    await sendTx(h, admin, NONE_TARGET_FOR_FEES, '0x', 21_000n)
    const receipt = await setFee(h, bob, NEW_FC)
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBe(GAS.tx + calldataGas(setData(NEW_FC)) + SET_GAS)
    expect(receipt.logs).toHaveLength(1)
    expect(receipt.logs[0]!.topics[0]).toBe('0x4c98e43adb5962c18f3f0e6dd066e2a2de258d3b4f695b317b77c8f27cd044fc')
    expect((receipt.logs[0]!.data.length - 2) / 2).toBe(16 * 32)
    const [event] = parseEventLogs({ abi: feeManagerAbi, logs: receipt.logs, eventName: 'FeeConfigChanged' })
    expect(getAddress(event!.address)).toBe(getAddress(FEE_MANAGER))
    expect(event!.args).toEqual({ sender: bob.address, oldFeeConfig: GENESIS_FC, newFeeConfig: NEW_FC })

    const n = receipt.blockNumber
    expect(n).toBe(3n)
    expect(await feeConfig(h)).toEqual({ feeConfig: json(NEW_FC), lastChangedAt: Number(n) })
    expect(await feeConfig(h, n)).toEqual({ feeConfig: json(NEW_FC), lastChangedAt: Number(n) })
    expect(await feeConfig(h, n - 1n)).toEqual({ feeConfig: json(GENESIS_FC), lastChangedAt: 0 })
    expect(await h.publicClient.readContract({ address: FEE_MANAGER, abi: feeManagerAbi, functionName: 'getFeeConfig' })).toEqual(fields(NEW_FC))
    expect(await h.publicClient.readContract({ address: FEE_MANAGER, abi: feeManagerAbi, functionName: 'getFeeConfigLastChangedAt' })).toBe(n)

    // A second change: the event's old config is the first change's new one.
    const again = await setFee(h, alice, { ...NEW_FC, gasLimit: 16_000_000n })
    const [ev2] = parseEventLogs({ abi: feeManagerAbi, logs: again.logs, eventName: 'FeeConfigChanged' })
    expect(ev2!.args).toEqual({ sender: alice.address, oldFeeConfig: NEW_FC, newFeeConfig: { ...NEW_FC, gasLimit: 16_000_000n } })
    expect(await feeConfig(h)).toEqual({ feeConfig: { ...json(NEW_FC), gasLimit: 16_000_000 }, lastChangedAt: Number(again.blockNumber) })
    await h.network.close()
  })

  it('the new config governs the NEXT block: gas limit and minimum base fee', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const receipt = await setFee(h, admin, NEW_FC)
    expect(receipt.status).toBe('success')
    const changed = await rawBlock(h, receipt.blockNumber)
    // The block that changed the config was built under the old one.
    expect(BigInt(changed.gasLimit!)).toBe(GENESIS_FC.gasLimit)
    expect(BigInt(changed.baseFeePerGas!)).toBe(GENESIS_FC.minBaseFee)
    const hash = await h.wallet(alice).sendTransaction({ to: NONE_TARGET_FOR_FEES, value: 1n, gas: 21_000n, ...FEES })
    const next = await h.publicClient.getTransactionReceipt({ hash })
    expect(next.blockNumber).toBe(receipt.blockNumber + 1n)
    const block = await rawBlock(h, next.blockNumber)
    expect(BigInt(block.gasLimit!)).toBe(NEW_FC.gasLimit)
    // Below target, the base fee falls but is clamped to the new, higher minimum.
    expect(BigInt(block.baseFeePerGas!)).toBe(NEW_FC.minBaseFee)
    expect(next.effectiveGasPrice).toBe(NEW_FC.minBaseFee + parseGwei('1'))
    // A tx whose fee cap is below the new minimum is refused now.
    await expect(h.wallet(alice).sendTransaction({ to: NONE_TARGET_FOR_FEES, value: 1n, gas: 21_000n, maxFeePerGas: parseGwei('2'), maxPriorityFeePerGas: 1n })).rejects.toThrow()
    // A tx above the new block gas limit cannot be sent either (it was fine under the old 20M).
    await expect(h.wallet(alice).sendTransaction({ to: NONE_TARGET_FOR_FEES, value: 1n, gas: 16_000_000n, ...FEES })).rejects.toThrow(/gas limit/)
    await h.network.close()
  })

  it('a None caller: exact error via eth_call/estimateGas; a mined tx reverts with all gas used; the config is unchanged', async () => {
    const h = await l1Network(allowListGenesis(suite))
    await expectCallError(h, carol.address, FEE_MANAGER, setData(NEW_FC), `non-enabled cannot change fee config: ${carol.address}`)
    const receipt = await setFee(h, carol, NEW_FC, 300_000n)
    expect(receipt.status).toBe('reverted')
    expect(receipt.gasUsed).toBe(300_000n)
    expect(receipt.logs).toHaveLength(0)
    expect(await feeConfig(h)).toEqual({ feeConfig: json(GENESIS_FC), lastChangedAt: 0 })
    await h.network.close()
  })

  it('an invalid config fails with "cannot verify fee config: …" and changes nothing', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const cases: [Fc, string][] = [
      [{ ...NEW_FC, gasLimit: 0n }, 'gasLimit cannot be less than or equal to 0: gasLimit = 0'],
      [{ ...NEW_FC, targetBlockRate: 0n }, 'targetBlockRate cannot be less than or equal to 0: targetBlockRate = 0'],
      [{ ...NEW_FC, targetGas: 0n }, 'targetGas cannot be less than or equal to 0: targetGas = 0'],
      [{ ...NEW_FC, baseFeeChangeDenominator: 0n }, 'baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = 0'],
      [{ ...NEW_FC, minBlockGasCost: 3n, maxBlockGasCost: 2n }, 'minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 3, maxBlockGasCost = 2'],
      [{ ...NEW_FC, maxBlockGasCost: 2n ** 64n }, 'maxBlockGasCost is not a valid uint64: maxBlockGasCost = 18446744073709551616'],
    ]
    for (const [fc, message] of cases) await expectCallError(h, admin.address, FEE_MANAGER, setData(fc), `cannot verify fee config: ${message}`)
    const receipt = await setFee(h, admin, cases[0]![0], 300_000n)
    expect(receipt.status).toBe('reverted')
    expect(receipt.gasUsed).toBe(300_000n)
    expect(receipt.logs).toHaveLength(0)
    expect(await feeConfig(h)).toEqual({ feeConfig: json(GENESIS_FC), lastChangedAt: 0 })
    // The next block still uses the old gas limit.
    const next = await sendTx(h, admin, NONE_TARGET_FOR_FEES, '0x', 21_000n)
    expect(BigInt((await rawBlock(h, next.blockNumber)).gasLimit!)).toBe(GENESIS_FC.gasLimit)
    await h.network.close()
  })

  it('bad input and STATICCALL: unpack errors are wrapped; write protection comes before the role check', async () => {
    const h = await l1Network(allowListGenesis(suite))
    await expectCallError(h, admin.address, FEE_MANAGER, '0x8f10b586', 'failed to unpack input: abi: attempting to unmarshal an empty string while arguments are expected')
    const short = setData(NEW_FC).slice(0, 2 + 8 + 200) as Hex
    await expectCallError(h, admin.address, FEE_MANAGER, short, 'failed to unpack input: abi: cannot marshal in to go type: length insufficient 100 require 128')
    const proxy = await deploy(h, admin, PROXY_RUNTIME)
    const staticTx = await sendTx(h, admin, proxy, proxyData('staticcall', FEE_MANAGER, setData(NEW_FC)), 600_000n)
    expect(staticTx.status).toBe('success')
    const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [staticTx.transactionHash, { tracer: 'callTracer' }] })) as { calls: { error?: string }[] }
    expect(trace.calls[0]!.error).toBe('write protection')
    // getFeeConfig under STATICCALL works.
    const view = (await h.provider.request({ method: 'eth_call', params: [{ to: proxy, data: proxyData('staticcall', FEE_MANAGER, encodeFunctionData({ abi: feeManagerAbi, functionName: 'getFeeConfig' })) }, 'latest'] })) as Hex
    expect(BigInt(view.slice(0, 66))).toBe(1n)
    expect(BigInt(`0x${view.slice(66, 130)}`)).toBe(GENESIS_FC.gasLimit)
    expect(await feeConfig(h)).toEqual({ feeConfig: json(GENESIS_FC), lastChangedAt: 0 })
    await h.network.close()
  })
})
