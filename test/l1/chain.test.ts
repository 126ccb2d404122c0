import { describe, expect, it } from 'vitest'
import { parseEther } from 'viem'
import { alice, bob, l1Network, L1_CHAIN_ID, testGenesis } from './helpers.js'

describe('an L1 chain', () => {
  it('serves its own chain id, genesis alloc and subnet-EVM header fields', async () => {
    const { network, l1, publicClient, wallet } = await l1Network(testGenesis())
    expect(await publicClient.getChainId()).toBe(L1_CHAIN_ID)
    expect(network.chain(l1.blockchainId)).toBe(l1.chain)
    expect(network.chain('dex')).toBe(l1.chain)
    const hash = await wallet(alice).sendTransaction({ to: bob.address, value: parseEther('1') })
    const receipt = await publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const block = await publicClient.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }) as Record<string, string>
    // Granite is active on local: no block gas cost, millisecond timestamps, ACP-226's excess; no coreth fields.
    expect(block.blockGasCost).toBe('0x0')
    expect(BigInt(block.timestampMilliseconds!)).toBe(BigInt(block.timestamp!) * 1000n)
    expect(block.minDelayExcess).toBe('0x799d4c')
    expect(block.extDataHash).toBeUndefined()
    // The fee window (80 bytes) and, since Durango, empty predicate results (6 bytes).
    expect((block.extraData!.length - 2) / 2).toBe(86)
    expect(BigInt(block.baseFeePerGas!)).toBe(1_000_000_000n)
    expect(BigInt(block.gasLimit!)).toBe(20_000_000n)
    await network.close()
  })
})
