import { describe, expect, it } from 'vitest'
import { parseAbi } from 'viem'
import { admin, alice, bob, l1Network, testGenesis } from './helpers.js'

const minterAbi = parseAbi([
  'function mintNativeCoin(address addr, uint256 amount)',
  'function readAllowList(address addr) view returns (uint256)',
  'event NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount)',
])
const MINTER = '0x0200000000000000000000000000000000000001'

describe('stateful precompiles in the EVM', () => {
  it('native minter: an admin mints, with the event and the real gas; others get the node error', async () => {
    const { network, publicClient, wallet } = await l1Network(testGenesis({ contractNativeMinterConfig: { blockTimestamp: 1607144400, adminAddresses: [admin.address] } }))
    expect(await publicClient.getCode({ address: MINTER })).toBe('0x01')
    expect(await publicClient.readContract({ address: MINTER, abi: minterAbi, functionName: 'readAllowList', args: [admin.address] })).toBe(2n)
    const before = await publicClient.getBalance({ address: bob.address })
    const hash = await wallet(admin).writeContract({ address: MINTER, abi: minterAbi, functionName: 'mintNativeCoin', args: [bob.address, 1000n], gas: 100_000n })
    const receipt = await publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await publicClient.getBalance({ address: bob.address })).toBe(before + 1000n)
    expect(receipt.logs).toHaveLength(1)
    expect(receipt.logs[0]!.address).toBe(MINTER)
    await expect(
      publicClient.call({ account: alice.address, to: MINTER, data: '0x4f5aaaba' + '0'.repeat(24) + bob.address.slice(2) + '0'.repeat(63) + '1' as `0x${string}` }),
    ).rejects.toThrow(/non-enabled cannot mint: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8/)
    await network.close()
  })
})
