import { describe, expect, it } from 'vitest'
import { encodeFunctionData, getAddress, parseEventLogs, type Hex } from 'viem'
import { admin, alice, bob, carol, l1Network } from '../helpers.js'
import { ENABLED_TARGET, NONE_TARGET, allowListGenesis, allowListSuite, type AllowListSuiteOptions } from './allowListSuite.js'
import { GAS, NATIVE_MINTER, PROXY_RUNTIME, ZERO_ADDRESS, allowListAbi, calldataGas, deploy, expectCallError, expectEstimate, minterAbi, proxyData, sendCall, sendTx } from './common.js'

const suite: AllowListSuiteOptions = {
  precompile: NATIVE_MINTER,
  configKey: 'contractNativeMinterConfig',
  extra: { initialMint: { [ENABLED_TARGET]: '0x3e8', [NONE_TARGET]: '5000' } },
}
const mintData = (to: Hex, amount: bigint) => encodeFunctionData({ abi: minterAbi, functionName: 'mintNativeCoin', args: [to, amount] })
const MINT_GAS = GAS.mint + GAS.mintEvent

describe('contractNativeMinter (0x0200…01)', () => {
  allowListSuite(suite)

  it('initialMint is credited at activation (hex and decimal amounts)', async () => {
    const h = await l1Network(allowListGenesis(suite))
    expect(await h.publicClient.getBalance({ address: ENABLED_TARGET })).toBe(1000n)
    expect(await h.publicClient.getBalance({ address: NONE_TARGET })).toBe(5000n)
    await h.network.close()
  })

  it('Admin, Manager and Enabled mint, with NativeCoinMinted and the exact gas', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const recipient = '0x00000000000000000000000000000000000a11ce' as const
    let expected = 0n
    for (const [minter, amount] of [[admin, 10n ** 18n], [alice, 7n], [bob, 123_456_789n]] as const) {
      const { receipt, data } = await sendCall(h, minter, NATIVE_MINTER, minterAbi, 'mintNativeCoin', [recipient, amount], 100_000n)
      expect(receipt.status).toBe('success')
      expect(receipt.gasUsed).toBe(GAS.tx + calldataGas(data) + MINT_GAS)
      expect(receipt.logs).toHaveLength(1)
      expect(receipt.logs[0]!.topics[0]).toBe('0x400cd392f3d56fd10bb1dbd5839fdda8298208ddaa97b368faa053e1850930ee')
      const [event] = parseEventLogs({ abi: minterAbi, logs: receipt.logs, eventName: 'NativeCoinMinted' })
      expect(getAddress(event!.address)).toBe(getAddress(NATIVE_MINTER))
      expect(event!.args).toEqual({ sender: minter.address, recipient: getAddress(recipient), amount })
      expected += amount
      expect(await h.publicClient.getBalance({ address: recipient })).toBe(expected)
    }
    // estimateGas agrees with the mined cost.
    const est = await h.publicClient.estimateGas({ account: bob.address, to: NATIVE_MINTER, data: mintData(recipient, 1n) })
    expectEstimate(est, GAS.tx + calldataGas(mintData(recipient, 1n)) + MINT_GAS)
    await h.network.close()
  })

  it('a None caller cannot mint: exact error via eth_call/estimateGas; a mined tx reverts with all gas used and no balance change', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const data = mintData(bob.address, 1000n)
    await expectCallError(h, carol.address, NATIVE_MINTER, data, `non-enabled cannot mint: ${carol.address}`)
    // viem surfaces the node message too.
    await expect(h.publicClient.call({ account: carol.address, to: NATIVE_MINTER, data })).rejects.toThrow(/non-enabled cannot mint: 0x90F79bf6EB2c4f870365E785982E1f101E93b906/)
    const bobBefore = await h.publicClient.getBalance({ address: bob.address })
    const carolBefore = await h.publicClient.getBalance({ address: carol.address })
    const receipt = await sendTx(h, carol, NATIVE_MINTER, data, 90_000n)
    expect(receipt.status).toBe('reverted')
    expect(receipt.gasUsed).toBe(90_000n)
    expect(receipt.logs).toHaveLength(0)
    expect(await h.publicClient.getBalance({ address: bob.address })).toBe(bobBefore)
    expect(await h.publicClient.getBalance({ address: carol.address })).toBe(carolBefore - 90_000n * receipt.effectiveGasPrice)
    await h.network.close()
  })

  it('a removed minter loses the right at once; a newly enabled one gains it', async () => {
    const h = await l1Network(allowListGenesis(suite))
    expect((await sendCall(h, alice, NATIVE_MINTER, allowListAbi, 'setNone', [bob.address], 200_000n)).receipt.status).toBe('success')
    await expectCallError(h, bob.address, NATIVE_MINTER, mintData(bob.address, 1n), `non-enabled cannot mint: ${bob.address}`)
    expect((await sendCall(h, alice, NATIVE_MINTER, allowListAbi, 'setEnabled', [carol.address], 200_000n)).receipt.status).toBe('success')
    const { receipt } = await sendCall(h, carol, NATIVE_MINTER, minterAbi, 'mintNativeCoin', [carol.address, 5n], 100_000n)
    expect(receipt.status).toBe('success')
    await h.network.close()
  })

  it('zero amounts and the zero address are accepted (subnet-EVM checks neither); a new recipient account is created', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const fresh = '0x00000000000000000000000000000000000f2e54' as const
    const zero = await sendCall(h, admin, NATIVE_MINTER, minterAbi, 'mintNativeCoin', [fresh, 0n], 100_000n)
    expect(zero.receipt.status).toBe('success')
    expect(zero.receipt.gasUsed).toBe(GAS.tx + calldataGas(zero.data) + MINT_GAS)
    expect(parseEventLogs({ abi: minterAbi, logs: zero.receipt.logs })[0]!.args).toEqual({ sender: admin.address, recipient: getAddress(fresh), amount: 0n })
    expect(await h.publicClient.getBalance({ address: fresh })).toBe(0n)

    const toZero = await sendCall(h, admin, NATIVE_MINTER, minterAbi, 'mintNativeCoin', [ZERO_ADDRESS, 42n], 100_000n)
    expect(toZero.receipt.status).toBe('success')
    expect(parseEventLogs({ abi: minterAbi, logs: toZero.receipt.logs })[0]!.args).toEqual({ sender: admin.address, recipient: ZERO_ADDRESS, amount: 42n })
    expect(await h.publicClient.getBalance({ address: ZERO_ADDRESS })).toBe(42n)

    // Mint to a fresh address: it now exists with the balance.
    const fresh2 = '0x00000000000000000000000000000000000f2e55' as const
    expect((await sendCall(h, admin, NATIVE_MINTER, minterAbi, 'mintNativeCoin', [fresh2, 9n], 100_000n)).receipt.status).toBe('success')
    expect(await h.publicClient.getBalance({ address: fresh2 })).toBe(9n)
    // A huge amount (2^255) is fine too.
    const huge = 2n ** 255n
    expect((await sendCall(h, admin, NATIVE_MINTER, minterAbi, 'mintNativeCoin', [fresh2, huge], 100_000n)).receipt.status).toBe('success')
    expect(await h.publicClient.getBalance({ address: fresh2 })).toBe(huge + 9n)
    await h.network.close()
  })

  it('bad mint input: short arguments wrapped as "failed to unpack input"; trailing bytes ignored; balances unchanged', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const before = await h.publicClient.getBalance({ address: bob.address })
    await expectCallError(h, admin.address, NATIVE_MINTER, '0x4f5aaaba', 'failed to unpack input: abi: attempting to unmarshal an empty string while arguments are expected')
    const short = mintData(bob.address, 1n).slice(0, 2 + 8 + 64 + 10) as Hex
    await expectCallError(h, admin.address, NATIVE_MINTER, short, 'failed to unpack input: abi: cannot marshal in to go type: length insufficient 37 require 64')
    // Unauthorized callers are checked after the input: a short input from carol fails on the input.
    await expectCallError(h, carol.address, NATIVE_MINTER, short, 'failed to unpack input: abi: cannot marshal in to go type: length insufficient 37 require 64')
    const r = await sendTx(h, admin, NATIVE_MINTER, short, 80_000n)
    expect(r.status).toBe('reverted')
    expect(r.gasUsed).toBe(80_000n)
    expect(await h.publicClient.getBalance({ address: bob.address })).toBe(before)
    // Post-Durango, trailing calldata is allowed.
    const long = (mintData(bob.address, 3n) + 'ab'.repeat(5)) as Hex
    const ok = await sendTx(h, admin, NATIVE_MINTER, long, 100_000n)
    expect(ok.status).toBe('success')
    expect(ok.gasUsed).toBe(GAS.tx + calldataGas(long) + MINT_GAS)
    expect(await h.publicClient.getBalance({ address: bob.address })).toBe(before + 3n)
    await h.network.close()
  })

  it('mintNativeCoin under STATICCALL fails with write protection (checked before the role); through CALL the proxy must be enabled', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const proxy = await deploy(h, admin, PROXY_RUNTIME)
    const data = mintData(carol.address, 77n)
    const before = await h.publicClient.getBalance({ address: carol.address })
    const staticTx = await sendTx(h, admin, proxy, proxyData('staticcall', NATIVE_MINTER, data), 300_000n)
    expect(staticTx.status).toBe('success')
    const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [staticTx.transactionHash, { tracer: 'callTracer' }] })) as { calls: { error?: string }[] }
    // The proxy has no role, yet the error is write protection: readOnly is checked first.
    expect(trace.calls[0]!.error).toBe('write protection')
    const callTx = await sendTx(h, admin, proxy, proxyData('call', NATIVE_MINTER, data), 300_000n)
    const trace2 = (await h.provider.request({ method: 'debug_traceTransaction', params: [callTx.transactionHash, { tracer: 'callTracer' }] })) as { calls: { error?: string }[] }
    expect(trace2.calls[0]!.error).toBe(`non-enabled cannot mint: ${getAddress(proxy)}`)
    expect(await h.publicClient.getBalance({ address: carol.address })).toBe(before)
    // Enabled, the proxy mints; the event's sender is the proxy (msg.sender), not tx.origin.
    await sendCall(h, admin, NATIVE_MINTER, allowListAbi, 'setEnabled', [proxy], 200_000n)
    const minted = await sendTx(h, carol, proxy, proxyData('call', NATIVE_MINTER, data), 300_000n)
    expect(minted.status).toBe('success')
    expect(parseEventLogs({ abi: minterAbi, logs: minted.logs, eventName: 'NativeCoinMinted' })[0]!.args).toEqual({ sender: proxy, recipient: carol.address, amount: 77n })
    expect(await h.publicClient.getBalance({ address: carol.address })).toBe(before + 77n - minted.gasUsed * minted.effectiveGasPrice)
    await h.network.close()
  })

  it('DELEGATECALL into the minter reverts after Granite (no mint, no event)', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const proxy = await deploy(h, admin, PROXY_RUNTIME)
    await sendCall(h, admin, NATIVE_MINTER, allowListAbi, 'setEnabled', [proxy], 200_000n)
    const before = await h.publicClient.getBalance({ address: NONE_TARGET })
    const r = await sendTx(h, admin, proxy, proxyData('delegatecall', NATIVE_MINTER, mintData(NONE_TARGET, 1n)), 300_000n)
    expect(r.status).toBe('success')
    expect(r.logs).toHaveLength(0)
    const trace = (await h.provider.request({ method: 'debug_traceTransaction', params: [r.transactionHash, { tracer: 'callTracer' }] })) as { calls: { type: string; error?: string }[] }
    expect(trace.calls[0]!.type).toBe('DELEGATECALL')
    expect(trace.calls[0]!.error).toBe('execution reverted')
    expect(await h.publicClient.getBalance({ address: NONE_TARGET })).toBe(before)
    await h.network.close()
  })
})
