/**
 * A revert empties the state caches by what they hold (a few entries after a snapshot, a
 * transaction and a revert) instead of over their whole capacity: every account, slot and code
 * the reverted blocks wrote and the reads after them cached must read as before the snapshot,
 * whether the caches held a few entries or most of their capacity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, parseEther, type Chain, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
const BOB = '0x00000000000000000000000000000000000b0b0c' as Hex

describe('state caches after a revert', () => {
  let devnet: Devnet
  let token: Hex
  const chain: Chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [''] } } })
  let client: ReturnType<typeof createPublicClient>
  let wallet: ReturnType<typeof createWalletClient>
  let test: ReturnType<typeof createTestClient>
  const balanceOf = (holder: Hex) => client.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [holder] }) as Promise<bigint>

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

  /** A snapshot, a deployment, a transfer of tokens and of the native coin, reads of all of it, and the revert. */
  async function cycle(): Promise<void> {
    const before = {
      nonce: await client.getTransactionCount({ address: alice.address }),
      alice: await client.getBalance({ address: alice.address }),
      bob: await client.getBalance({ address: BOB }),
      tokens: await balanceOf(BOB),
      block: await client.getBlockNumber(),
    }
    const snapshot = await test.snapshot()
    const deploy = await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Other', 'OTH', 1n], chain, account: alice })
    const created = (await client.waitForTransactionReceipt({ hash: deploy })).contractAddress!
    const transfer = await wallet.writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [BOB, 5n], chain, account: alice })
    await client.waitForTransactionReceipt({ hash: transfer })
    const send = await wallet.sendTransaction({ to: BOB, value: 7n, chain, account: alice })
    await client.waitForTransactionReceipt({ hash: send })
    expect(await balanceOf(BOB)).toBe(before.tokens + 5n)
    expect(await client.getBalance({ address: BOB })).toBe(before.bob + 7n)
    expect(await client.getCode({ address: created })).not.toBe(undefined)
    expect(await test.revert({ id: snapshot })).toBe(undefined)
    expect(await client.getBlockNumber()).toBe(before.block)
    expect(await client.getTransactionCount({ address: alice.address })).toBe(before.nonce)
    expect(await client.getBalance({ address: alice.address })).toBe(before.alice)
    expect(await client.getBalance({ address: BOB })).toBe(before.bob)
    expect(await balanceOf(BOB)).toBe(before.tokens)
    expect(await client.getCode({ address: created })).toBe(undefined)
  }

  it('with a few entries cached, reads the state of the snapshot', async () => {
    await cycle()
    await cycle()
  })

  it('with most of the account cache filled, reads the state of the snapshot', async () => {
    // The chain's account cache holds 20,000 accounts: past an eighth of it, the whole is cleared.
    await Promise.all(Array.from({ length: 3000 }, (_, i) => client.getBalance({ address: `0x${(0xca0000 + i).toString(16).padStart(40, '0')}` })))
    await cycle()
  })
})
