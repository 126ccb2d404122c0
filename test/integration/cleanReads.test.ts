/**
 * The live state manager caches what it reads as clean: a read value survives the revert of the
 * checkpoint that read it (eth_call, eth_estimateGas) and is not written back at the next block.
 * What a checkpoint wrote, cleared or overrode must still go with its revert, and the blocks
 * must get the state roots they get without any calls between them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createTestClient, createWalletClient, defineChain, encodeAbiParameters, encodeFunctionData, http, keccak256, parseEther, type Chain, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
const BOB = '0x00000000000000000000000000000000000b0b0b' as Hex
/** The ERC-20 fixture keeps balances at slot 3: holder h's balance is at keccak256(h . 3). */
const balanceSlot = (holder: Hex) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 3n]))

describe('reads cached as clean (C-chain)', () => {
  let devnet: Devnet
  let token: Hex
  const chain: Chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [''] } } })
  let client: ReturnType<typeof createPublicClient>
  let wallet: ReturnType<typeof createWalletClient>
  let test: ReturnType<typeof createTestClient>
  const balanceOf = (holder: Hex, stateOverride?: Parameters<typeof client.readContract>[0]['stateOverride']) =>
    client.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [holder], stateOverride } as Parameters<typeof client.readContract>[0]) as Promise<bigint>

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0 })
    const transport = http(devnet.rpcUrl('C'))
    client = createPublicClient({ chain, transport })
    wallet = createWalletClient({ chain, transport, account: alice })
    test = createTestClient({ chain, mode: 'anvil', transport })
    const hash = await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', parseEther('1000')], chain, account: alice })
    token = (await client.waitForTransactionReceipt({ hash })).contractAddress!
  })
  afterAll(() => devnet.close())

  it('a call after a call that overrode, cleared or replaced what it reads sees the state, not the override', async () => {
    const supply = parseEther('1000')
    expect(await balanceOf(alice.address)).toBe(supply)
    // stateDiff writes the slot inside the call's checkpoint.
    expect(await balanceOf(alice.address, [{ address: token, stateDiff: [{ slot: balanceSlot(alice.address), value: `0x${'0'.repeat(63)}7` }] }])).toBe(7n)
    expect(await balanceOf(alice.address)).toBe(supply)
    // state replaces the whole storage: the slot reads empty inside the call, and only there.
    const bobOnly = [{ address: token, state: [{ slot: balanceSlot(BOB), value: `0x${'0'.repeat(63)}9` as Hex }] }]
    expect(await balanceOf(alice.address, bobOnly)).toBe(0n)
    expect(await balanceOf(alice.address)).toBe(supply)
    expect(await balanceOf(BOB, bobOnly)).toBe(9n)
    expect(await balanceOf(BOB)).toBe(0n)
    // Overridden code: the next call runs the real code again.
    await expect(balanceOf(alice.address, [{ address: token, code: '0x' }])).rejects.toThrow()
    expect(await balanceOf(alice.address)).toBe(supply)
  })

  it('a call after an estimate that moved balances, and after a reverted write, reads the unmoved balances', async () => {
    const transfer = encodeFunctionData({ abi: ERC20.abi, functionName: 'transfer', args: [BOB, 5n] })
    expect(await client.estimateGas({ account: alice.address, to: token, data: transfer })).toBeGreaterThan(21_000n)
    expect(await balanceOf(BOB)).toBe(0n)
    const snapshot = await test.snapshot()
    const hash = await wallet.writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [BOB, 5n], chain, account: alice })
    await client.waitForTransactionReceipt({ hash })
    expect(await balanceOf(BOB)).toBe(5n)
    await test.revert({ id: snapshot })
    expect(await balanceOf(BOB)).toBe(0n)
  })

  it('a block mined after many calls has the state root it has without them', async () => {
    const nonce = await client.getTransactionCount({ address: alice.address })
    const raw = await alice.signTransaction({
      chainId: 43112, type: 'eip1559', nonce, to: token, gas: 100_000n, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n,
      data: encodeFunctionData({ abi: ERC20.abi, functionName: 'transfer', args: [BOB, 3n] }),
    })
    const timestamp = (await client.getBlock()).timestamp + 10n
    const mine = async () => {
      await test.setNextBlockTimestamp({ timestamp })
      const hash = await client.sendRawTransaction({ serializedTransaction: raw })
      return (await client.getBlock({ blockNumber: (await client.waitForTransactionReceipt({ hash })).blockNumber })).stateRoot
    }
    const snapshot = await test.snapshot()
    const without = await mine()
    await test.revert({ id: snapshot })
    // Reads of accounts, code and slots the transaction also reads, and of ones it does not.
    for (let i = 0; i < 50; i++) {
      const holder = `0x${(0xc1ea4 + i).toString(16).padStart(40, '0')}` as Hex
      expect(await balanceOf(holder)).toBe(0n)
      expect(await balanceOf(alice.address)).toBeGreaterThan(0n)
      await client.getBalance({ address: holder })
    }
    await client.estimateGas({ account: alice.address, to: token, data: encodeFunctionData({ abi: ERC20.abi, functionName: 'transfer', args: [BOB, 1n] }) })
    expect(await mine()).toBe(without)
  })

  /**
   * A revert empties the state caches by what they hold (entry by entry while they hold little):
   * every account, slot and code the reverted blocks wrote, and the reads after them cached, read
   * as before the snapshot, whether the caches held a few entries or most of their capacity.
   */
  async function revertCycle(): Promise<void> {
    const other = '0x00000000000000000000000000000000000b0b0c' as Hex
    const before = {
      nonce: await client.getTransactionCount({ address: alice.address }),
      alice: await client.getBalance({ address: alice.address }),
      other: await client.getBalance({ address: other }),
      tokens: await balanceOf(other),
      block: await client.getBlockNumber(),
    }
    const snapshot = await test.snapshot()
    const deploy = await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Other', 'OTH', 1n], chain, account: alice })
    const created = (await client.waitForTransactionReceipt({ hash: deploy })).contractAddress!
    await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [other, 5n], chain, account: alice }) })
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: other, value: 7n, chain, account: alice }) })
    expect(await balanceOf(other)).toBe(before.tokens + 5n)
    expect(await client.getBalance({ address: other })).toBe(before.other + 7n)
    expect(await client.getCode({ address: created })).not.toBe(undefined)
    await test.revert({ id: snapshot })
    expect(await client.getBlockNumber()).toBe(before.block)
    expect(await client.getTransactionCount({ address: alice.address })).toBe(before.nonce)
    expect(await client.getBalance({ address: alice.address })).toBe(before.alice)
    expect(await client.getBalance({ address: other })).toBe(before.other)
    expect(await balanceOf(other)).toBe(before.tokens)
    expect(await client.getCode({ address: created })).toBe(undefined)
  }

  it('after a revert with a few entries cached, reads the state of the snapshot', async () => {
    await revertCycle()
    await revertCycle()
  })

  it('after a revert with most of the account cache filled, reads the state of the snapshot', async () => {
    // The chain's account cache holds 20,000 accounts: past an eighth of it, the whole is cleared.
    await Promise.all(Array.from({ length: 3000 }, (_, i) => client.getBalance({ address: `0x${(0xca0000 + i).toString(16).padStart(40, '0')}` })))
    await revertCycle()
  })
})
