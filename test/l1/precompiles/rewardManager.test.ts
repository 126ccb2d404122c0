import { describe, expect, it } from 'vitest'
import { encodeFunctionData, getAddress, parseEventLogs, type Address, type Hex } from 'viem'
import { admin, alice, bob, carol, l1Network, testGenesis, type L1Harness } from '../helpers.js'
import { allowListConfig, allowListGenesis, allowListSuite, type AllowListSuiteOptions } from './allowListSuite.js'
import {
  BLACKHOLE,
  GAS,
  PROXY_RUNTIME,
  REWARD_MANAGER,
  ZERO_ADDRESS,
  calldataGas,
  deploy,
  expectCallError,
  l1NetworkWith,
  proxyData,
  rawBlock,
  rewardManagerAbi,
  sendCall,
  sendTx,
} from './common.js'

const suite: AllowListSuiteOptions = { precompile: REWARD_MANAGER, configKey: 'rewardManagerConfig' }
const REWARD = getAddress('0x00000000000000000000000000000000000fee01')
const NODE_RECIPIENT = getAddress('0x00000000000000000000000000000000000fee02')
const SINK = '0x000000000000000000000000000000000000f00d' as const

async function views(h: L1Harness) {
  const current = await h.publicClient.readContract({ address: REWARD_MANAGER, abi: rewardManagerAbi, functionName: 'currentRewardAddress' })
  const allowed = await h.publicClient.readContract({ address: REWARD_MANAGER, abi: rewardManagerAbi, functionName: 'areFeeRecipientsAllowed' })
  return { current, allowed }
}

/** Sends a plain transfer in a new block and returns that block's miner, the fee paid and the receipt. */
async function nextBlock(h: L1Harness) {
  const receipt = await sendTx(h, admin, SINK, '0x', 21_000n, 1n)
  const block = await rawBlock(h, receipt.blockNumber)
  return { miner: getAddress(block.miner!), fee: receipt.gasUsed * receipt.effectiveGasPrice, receipt }
}

describe('rewardManager (0x0200…04)', () => {
  allowListSuite(suite)

  it('without an initial config and allowFeeRecipients false, rewards start disabled (blackhole)', async () => {
    const h = await l1Network(allowListGenesis(suite))
    expect(await views(h)).toEqual({ current: getAddress(BLACKHOLE), allowed: false })
    expect((await nextBlock(h)).miner).toBe(getAddress(BLACKHOLE))
    await h.network.close()
  })

  it('the views cost 5000 each and anyone may call them', async () => {
    const h = await l1Network(allowListGenesis(suite))
    for (const functionName of ['currentRewardAddress', 'areFeeRecipientsAllowed'] as const) {
      const data = encodeFunctionData({ abi: rewardManagerAbi, functionName })
      const r = await sendTx(h, bob, REWARD_MANAGER, data, 100_000n)
      expect(r.status).toBe('success')
      expect(r.gasUsed).toBe(GAS.tx + calldataGas(data) + GAS.rewardView)
    }
    await h.network.close()
  })

  it('setRewardAddress: RewardAddressChanged, exact gas; the NEXT blocks have it as coinbase and it receives all the fees', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const { receipt, data } = await sendCall(h, bob, REWARD_MANAGER, rewardManagerAbi, 'setRewardAddress', [REWARD], 100_000n)
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBe(GAS.tx + calldataGas(data) + GAS.rewardSetter + GAS.rewardAddressChangedEvent)
    expect(receipt.logs[0]!.topics[0]).toBe('0xc2a9e07cba6f4920acaa5933bd0406949d5dbef7ee698e786ea23e8708f32a6c')
    const [event] = parseEventLogs({ abi: rewardManagerAbi, logs: receipt.logs, eventName: 'RewardAddressChanged' })
    expect(event!.args).toEqual({ sender: bob.address, oldRewardAddress: getAddress(BLACKHOLE), newRewardAddress: REWARD })
    // The block with the change still pays the old coinbase.
    expect(getAddress((await rawBlock(h, receipt.blockNumber)).miner!)).toBe(getAddress(BLACKHOLE))
    expect(await views(h)).toEqual({ current: REWARD, allowed: false })

    const blackholeBefore = await h.publicClient.getBalance({ address: BLACKHOLE })
    const first = await nextBlock(h)
    expect(first.miner).toBe(REWARD)
    // The whole fee (base fee included: nothing is burnt) goes to the coinbase.
    expect(await h.publicClient.getBalance({ address: REWARD })).toBe(first.fee)
    const second = await nextBlock(h)
    expect(second.miner).toBe(REWARD)
    expect(await h.publicClient.getBalance({ address: REWARD })).toBe(first.fee + second.fee)
    expect(await h.publicClient.getBalance({ address: BLACKHOLE })).toBe(blackholeBefore)

    // Changing it again: the event's old address is the current one.
    const again = await sendCall(h, alice, REWARD_MANAGER, rewardManagerAbi, 'setRewardAddress', [carol.address], 100_000n)
    expect(parseEventLogs({ abi: rewardManagerAbi, logs: again.receipt.logs })[0]!.args).toEqual({ sender: alice.address, oldRewardAddress: REWARD, newRewardAddress: carol.address })
    expect((await nextBlock(h)).miner).toBe(carol.address)
    await h.network.close()
  })

  it('allowFeeRecipients: FeeRecipientsAllowed, exact gas; the next blocks pay the node feeRecipient; the views say so', async () => {
    const h = await l1NetworkWith(allowListGenesis(suite), { feeRecipient: NODE_RECIPIENT })
    const { receipt, data } = await sendCall(h, admin, REWARD_MANAGER, rewardManagerAbi, 'allowFeeRecipients', [], 100_000n)
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBe(GAS.tx + calldataGas(data) + GAS.rewardSetter + GAS.senderEvent)
    expect(receipt.logs[0]!.topics[0]).toBe('0xabb1949bd129fef9b84601a48aee89d600d90074ca10216a02ce43996be55991')
    expect(parseEventLogs({ abi: rewardManagerAbi, logs: receipt.logs, eventName: 'FeeRecipientsAllowed' })[0]!.args).toEqual({ sender: admin.address })
    expect(getAddress((await rawBlock(h, receipt.blockNumber)).miner!)).toBe(getAddress(BLACKHOLE))
    expect(await views(h)).toEqual({ current: ZERO_ADDRESS, allowed: true })
    const next = await nextBlock(h)
    expect(next.miner).toBe(NODE_RECIPIENT)
    expect(await h.publicClient.getBalance({ address: NODE_RECIPIENT })).toBe(next.fee)

    // setRewardAddress afterwards: the old address reads as zero (the magic value's last 20 bytes).
    const set = await sendCall(h, admin, REWARD_MANAGER, rewardManagerAbi, 'setRewardAddress', [REWARD], 100_000n)
    expect(parseEventLogs({ abi: rewardManagerAbi, logs: set.receipt.logs })[0]!.args).toEqual({ sender: admin.address, oldRewardAddress: ZERO_ADDRESS, newRewardAddress: REWARD })
    expect((await nextBlock(h)).miner).toBe(REWARD)
    await h.network.close()
  })

  it('disableRewards: RewardsDisabled, exact gas; the next blocks go to the blackhole', async () => {
    const h = await l1Network(allowListGenesis({ ...suite, extra: { initialRewardConfig: { rewardAddress: REWARD } } }))
    expect(await views(h)).toEqual({ current: REWARD, allowed: false })
    expect((await nextBlock(h)).miner).toBe(REWARD)
    const { receipt, data } = await sendCall(h, alice, REWARD_MANAGER, rewardManagerAbi, 'disableRewards', [], 100_000n)
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBe(GAS.tx + calldataGas(data) + GAS.rewardSetter + GAS.senderEvent)
    expect(receipt.logs[0]!.topics[0]).toBe('0xeb121f0335efe8f4b8ebef7793c18c171834696989656a8c345acc558359fabf')
    expect(parseEventLogs({ abi: rewardManagerAbi, logs: receipt.logs, eventName: 'RewardsDisabled' })[0]!.args).toEqual({ sender: alice.address })
    // Mined under the old rule: paid to REWARD.
    expect(getAddress((await rawBlock(h, receipt.blockNumber)).miner!)).toBe(REWARD)
    expect(await views(h)).toEqual({ current: getAddress(BLACKHOLE), allowed: false })
    const blackholeBefore = await h.publicClient.getBalance({ address: BLACKHOLE })
    const rewardBefore = await h.publicClient.getBalance({ address: REWARD })
    const next = await nextBlock(h)
    expect(next.miner).toBe(getAddress(BLACKHOLE))
    expect(await h.publicClient.getBalance({ address: BLACKHOLE })).toBe(blackholeBefore + next.fee)
    expect(await h.publicClient.getBalance({ address: REWARD })).toBe(rewardBefore)
    await h.network.close()
  })

  it('initial configs: allowFeeRecipients (and the genesis allowFeeRecipients flag) make block 1 pay the node recipient', async () => {
    const a = await l1NetworkWith(allowListGenesis({ ...suite, extra: { initialRewardConfig: { allowFeeRecipients: true } } }), { feeRecipient: NODE_RECIPIENT })
    expect(await views(a)).toEqual({ current: ZERO_ADDRESS, allowed: true })
    expect((await nextBlock(a)).miner).toBe(NODE_RECIPIENT)
    await a.network.close()
    const b = await l1NetworkWith(testGenesis({ allowFeeRecipients: true, rewardManagerConfig: allowListConfig() }), { feeRecipient: NODE_RECIPIENT })
    expect(await views(b)).toEqual({ current: ZERO_ADDRESS, allowed: true })
    expect((await nextBlock(b)).miner).toBe(NODE_RECIPIENT)
    await b.network.close()
    // Allowed but the node has no feeRecipient: the blackhole.
    const c = await l1Network(allowListGenesis({ ...suite, extra: { initialRewardConfig: { allowFeeRecipients: true } } }))
    expect((await nextBlock(c)).miner).toBe(getAddress(BLACKHOLE))
    await c.network.close()
  })

  it('a None caller cannot call any setter (exact errors); mined failures consume all gas and change nothing', async () => {
    const h = await l1Network(allowListGenesis({ ...suite, extra: { initialRewardConfig: { rewardAddress: REWARD } } }))
    const calls: [string, unknown[]][] = [['setRewardAddress', [carol.address]], ['allowFeeRecipients', []], ['disableRewards', []]]
    for (const [functionName, args] of calls) {
      const data = encodeFunctionData({ abi: rewardManagerAbi, functionName, args } as never)
      await expectCallError(h, carol.address, REWARD_MANAGER, data, `non-enabled cannot call ${functionName}: ${carol.address}`)
      const r = await sendTx(h, carol, REWARD_MANAGER, data, 70_000n)
      expect(r.status).toBe('reverted')
      expect(r.gasUsed).toBe(70_000n)
      expect(r.logs).toHaveLength(0)
    }
    expect(await views(h)).toEqual({ current: REWARD, allowed: false })
    expect((await nextBlock(h)).miner).toBe(REWARD)
    await h.network.close()
  })

  it('setRewardAddress(0) fails with "reward address cannot be empty" (after the role check); bad input; STATICCALL → write protection', async () => {
    const h = await l1Network(allowListGenesis({ ...suite, extra: { initialRewardConfig: { rewardAddress: REWARD } } }))
    const zero = encodeFunctionData({ abi: rewardManagerAbi, functionName: 'setRewardAddress', args: [ZERO_ADDRESS] })
    await expectCallError(h, admin.address, REWARD_MANAGER, zero, 'reward address cannot be empty')
    await expectCallError(h, carol.address, REWARD_MANAGER, zero, `non-enabled cannot call setRewardAddress: ${carol.address}`)
    const r = await sendTx(h, admin, REWARD_MANAGER, zero, 80_000n)
    expect(r.status).toBe('reverted')
    expect(r.gasUsed).toBe(80_000n)
    // Unpack errors are the bare ABI ones.
    await expectCallError(h, admin.address, REWARD_MANAGER, '0x5e00e679', 'abi: attempting to unmarshal an empty string while arguments are expected')
    await expectCallError(h, admin.address, REWARD_MANAGER, '0x5e00e679ffff', 'abi: cannot marshal in to go type: length insufficient 2 require 32')
    // Functions without arguments ignore extra calldata.
    const extra = (encodeFunctionData({ abi: rewardManagerAbi, functionName: 'areFeeRecipientsAllowed' }) + '01'.repeat(3)) as Hex
    expect(await h.provider.request({ method: 'eth_call', params: [{ to: REWARD_MANAGER, data: extra }, 'latest'] })).toBe(`0x${'0'.repeat(64)}`)

    const proxy = await deploy(h, admin, PROXY_RUNTIME)
    for (const functionName of ['allowFeeRecipients', 'disableRewards'] as const) {
      const data = encodeFunctionData({ abi: rewardManagerAbi, functionName })
      const tx = await sendTx(h, admin, proxy, proxyData('staticcall', REWARD_MANAGER, data), 300_000n)
      const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [tx.transactionHash, { tracer: 'callTracer' }] })) as { calls: { error?: string }[] }
      expect(trace.calls[0]!.error).toBe('write protection')
    }
    const setData = encodeFunctionData({ abi: rewardManagerAbi, functionName: 'setRewardAddress', args: [carol.address] })
    const tx = await sendTx(h, admin, proxy, proxyData('staticcall', REWARD_MANAGER, setData), 300_000n)
    const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [tx.transactionHash, { tracer: 'callTracer' }] })) as { calls: { error?: string }[] }
    expect(trace.calls[0]!.error).toBe('write protection')
    // The views work under STATICCALL.
    const viewData = encodeFunctionData({ abi: rewardManagerAbi, functionName: 'currentRewardAddress' })
    const out = (await h.provider.request({ method: 'eth_call', params: [{ to: proxy, data: proxyData('staticcall', REWARD_MANAGER, viewData) }, 'latest'] })) as Hex
    expect(getAddress(`0x${out.slice(-40)}`) as Address).toBe(REWARD)
    expect(await views(h)).toEqual({ current: REWARD, allowed: false })
    await h.network.close()
  })
})
