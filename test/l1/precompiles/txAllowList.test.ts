import { describe, expect, it } from 'vitest'
import { parseGwei, type Hex } from 'viem'
import { admin, alice, bob, carol, l1Network, type L1Harness } from '../helpers.js'
import { NONE_TARGET, SECOND_ADMIN, allowListGenesis, allowListSuite, type AllowListSuiteOptions } from './allowListSuite.js'
import { TX_ALLOW_LIST, allowListAbi, rpcError, sendCall } from './common.js'

const suite: AllowListSuiteOptions = { precompile: TX_ALLOW_LIST, configKey: 'txAllowListConfig' }
const refusal = (address: string) => `cannot issue transaction from non-allow listed address: ${address}`

async function signedTransfer(h: L1Harness, from: typeof admin, nonceOffset = 0): Promise<Hex> {
  const nonce = (await h.publicClient.getTransactionCount({ address: from.address })) + nonceOffset
  return from.signTransaction({
    chainId: h.publicClient.chain.id,
    type: 'eip1559',
    to: NONE_TARGET,
    value: 1n,
    gas: 21_000n,
    nonce,
    maxFeePerGas: parseGwei('100'),
    maxPriorityFeePerGas: parseGwei('1'),
  })
}

describe('txAllowList (0x0200…02)', () => {
  allowListSuite(suite)

  it('a None sender is refused at submission with the exact message; its nonce and balance do not move', async () => {
    const h = await l1Network(allowListGenesis(suite))
    const balance = await h.publicClient.getBalance({ address: carol.address })
    const blockBefore = await h.publicClient.getBlockNumber()
    const err = await rpcError(h, 'eth_sendRawTransaction', [await signedTransfer(h, carol)])
    expect(err.code).toBe(-32000)
    expect(err.message).toBe(refusal('0x90F79bf6EB2c4f870365E785982E1f101E93b906'))
    // Through viem's wallet the same message surfaces.
    await expect(h.wallet(carol).sendTransaction({ to: NONE_TARGET, value: 1n, gas: 21_000n })).rejects.toThrow(
      /cannot issue transaction from non-allow listed address: 0x90F79bf6EB2c4f870365E785982E1f101E93b906/,
    )
    expect(await h.publicClient.getTransactionCount({ address: carol.address })).toBe(0)
    expect(await h.publicClient.getBalance({ address: carol.address })).toBe(balance)
    expect(await h.publicClient.getBlockNumber()).toBe(blockBefore)
    await h.network.close()
  })

  it('Enabled, Manager and Admin senders may send', async () => {
    const h = await l1Network(allowListGenesis(suite))
    for (const sender of [bob, alice, admin]) {
      const hash = (await h.provider.request({ method: 'eth_sendRawTransaction', params: [await signedTransfer(h, sender)] })) as Hex
      expect((await h.publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    }
    expect(await h.publicClient.getBalance({ address: NONE_TARGET })).toBe(3n)
    await h.network.close()
  })

  it('eth_call and eth_estimateGas skip the check (SkipAccountChecks)', async () => {
    const h = await l1Network(allowListGenesis(suite))
    expect(await h.provider.request({ method: 'eth_call', params: [{ from: carol.address, to: NONE_TARGET, value: '0x1' }, 'latest'] })).toBe('0x')
    expect(BigInt((await h.provider.request({ method: 'eth_estimateGas', params: [{ from: carol.address, to: NONE_TARGET, value: '0x1' }] })) as Hex)).toBe(21_000n)
    await h.network.close()
  })

  it('role changes take effect for the next submission: enabling carol, removing bob', async () => {
    const h = await l1Network(allowListGenesis(suite))
    expect((await sendCall(h, alice, TX_ALLOW_LIST, allowListAbi, 'setEnabled', [carol.address], 200_000n)).receipt.status).toBe('success')
    const hash = (await h.provider.request({ method: 'eth_sendRawTransaction', params: [await signedTransfer(h, carol)] })) as Hex
    expect((await h.publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    expect((await sendCall(h, alice, TX_ALLOW_LIST, allowListAbi, 'setNone', [bob.address], 200_000n)).receipt.status).toBe('success')
    const err = await rpcError(h, 'eth_sendRawTransaction', [await signedTransfer(h, bob)])
    expect(err.message).toBe(refusal(bob.address))
    // An admin demoted to None cannot even send a tx to restore itself.
    expect((await sendCall(h, admin, TX_ALLOW_LIST, allowListAbi, 'setNone', [SECOND_ADMIN.address], 200_000n)).receipt.status).toBe('success')
    const err2 = await rpcError(h, 'eth_sendRawTransaction', [await signedTransfer(h, SECOND_ADMIN)])
    expect(err2.message).toBe(refusal(SECOND_ADMIN.address))
    await h.network.close()
  })

  it('the list is also a block rule: a pooled tx whose sender is removed earlier in the block is not included', async () => {
    const h = await l1Network(allowListGenesis(suite))
    await h.provider.request({ method: 'evm_setAutomine', params: [false] })
    // bob's transfer is admitted (bob is Enabled now)…
    const bobTx = (await h.provider.request({ method: 'eth_sendRawTransaction', params: [await signedTransfer(h, bob)] })) as Hex
    // …then the admin removes bob with a higher tip, so that it runs first in the block.
    const removal = await h.wallet(admin).sendTransaction({
      to: TX_ALLOW_LIST,
      data: `0x8c6bfb3b${bob.address.slice(2).toLowerCase().padStart(64, '0')}`,
      gas: 200_000n,
      maxPriorityFeePerGas: parseGwei('50'),
      maxFeePerGas: parseGwei('200'),
    })
    await h.provider.request({ method: 'evm_mine', params: [] })
    const receipt = await h.publicClient.getTransactionReceipt({ hash: removal })
    expect(receipt.status).toBe('success')
    const block = await h.publicClient.getBlock({ blockNumber: receipt.blockNumber })
    expect(block.transactions).toEqual([removal])
    await expect(h.publicClient.getTransactionReceipt({ hash: bobTx })).rejects.toThrow()
    expect(await h.publicClient.getBalance({ address: NONE_TARGET })).toBe(0n)
    await h.network.close()
  })
})
