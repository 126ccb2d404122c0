import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  parseEventLogs,
  publicActions,
  walletActions,
  webSocket,
  type Hex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
const bob = mnemonicToAccount(MNEMONIC, { addressIndex: 1 })

let devnet: Devnet
const chainOf = (url: string) =>
  defineChain({ id: 43112, name: 'l1sim C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } })

beforeEach(async () => {
  devnet = await startDevnet({ port: 0 })
})
afterEach(async () => {
  await devnet.close()
})

describe('viem public + wallet client', () => {
  it('sends value, deploys an ERC-20, transfers, reads balances and Transfer logs', async () => {
    const chain = chainOf(devnet.rpcUrl())
    const client = createPublicClient({ chain, transport: http(devnet.rpcUrl()) })
    const wallet = createWalletClient({ chain, transport: http(devnet.rpcUrl()), account: alice })

    const before = await client.getBalance({ address: bob.address })
    const sendHash = await wallet.sendTransaction({ to: bob.address, value: parseEther('1.5') })
    const sendReceipt = await client.getTransactionReceipt({ hash: sendHash })
    expect(sendReceipt.status).toBe('success')
    expect(await client.getBalance({ address: bob.address })).toBe(before + parseEther('1.5'))

    const deployHash = await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', parseEther('1000')] })
    const { contractAddress } = await client.waitForTransactionReceipt({ hash: deployHash })
    expect(contractAddress).toMatch(/^0x[0-9a-f]{40}$/)
    const token = contractAddress!

    const gas = await client.estimateContractGas({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, 10n], account: alice })
    expect(gas).toBeGreaterThan(21_000n)
    const transferHash = await wallet.writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, 10n] })
    const receipt = await client.waitForTransactionReceipt({ hash: transferHash })
    expect(await client.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [bob.address] })).toBe(10n)

    // The receipt's bloom and recipient as the block and the transaction write them (one transaction per block).
    const block = await client.getBlock({ blockHash: receipt.blockHash })
    expect(receipt.logsBloom).toBe(block.logsBloom)
    expect(receipt.logsBloom).not.toBe(`0x${'0'.repeat(512)}`)
    expect(receipt.to).toBe(token.toLowerCase())
    expect(sendReceipt.logsBloom).toBe(`0x${'0'.repeat(512)}`)
    expect(sendReceipt.to).toBe(bob.address.toLowerCase())

    const [event] = parseEventLogs({ abi: ERC20.abi, logs: receipt.logs, eventName: 'Transfer' })
    expect(event!.args).toEqual({ from: alice.address, to: bob.address, value: 10n })
    const logs = await client.getContractEvents({ address: token, abi: ERC20.abi, eventName: 'Transfer', fromBlock: 0n })
    expect(logs.map((l) => l.args.value)).toEqual([parseEther('1000'), 10n])

    const history = await client.getFeeHistory({ blockCount: 4, rewardPercentiles: [25, 75] })
    expect(history.baseFeePerGas).toHaveLength(4)
    expect(history.reward).toHaveLength(4)
  })

  it('watches blocks over WebSocket', async () => {
    const chain = chainOf(devnet.rpcUrl())
    const ws = createPublicClient({ chain, transport: webSocket(devnet.wsUrl()) })
    const wallet = createWalletClient({ chain, transport: http(devnet.rpcUrl()), account: alice })
    const seen: bigint[] = []
    const got = new Promise<void>((resolve) => {
      const unwatch = ws.watchBlocks({
        onBlock: (block) => {
          seen.push(block.number)
          if (seen.length === 2) {
            unwatch()
            resolve()
          }
        },
      })
    })
    // Give the subscription a moment to register through a round trip before sending.
    await ws.getBlockNumber()
    await wallet.sendTransaction({ to: bob.address, value: 1n })
    await wallet.sendTransaction({ to: bob.address, value: 1n })
    await got
    expect(seen).toEqual([1n, 2n])
    await (ws.transport as unknown as { getRpcClient?: () => Promise<{ close(): void }> }).getRpcClient?.().then((c) => c.close())
  })
})

describe('viem test client in anvil mode', () => {
  it('snapshot/revert, mine, increaseTime, setBalance, impersonate, dumpState/loadState', async () => {
    const chain = chainOf(devnet.rpcUrl())
    const test = createTestClient({ chain, mode: 'anvil', cacheTime: 0, transport: http(devnet.rpcUrl()) }).extend(publicActions).extend(walletActions)

    const id = await test.snapshot()
    await test.setBalance({ address: bob.address, value: 42n })
    expect(await test.getBalance({ address: bob.address })).toBe(42n)
    await test.mine({ blocks: 3 })
    expect(await test.getBlockNumber()).toBe(3n)
    await test.revert({ id })
    expect(await test.getBlockNumber()).toBe(0n)
    expect(await test.getBalance({ address: bob.address })).toBe(parseEther('10000'))

    const t0 = (await test.getBlock()).timestamp
    await test.increaseTime({ seconds: 3600 })
    await test.mine({ blocks: 1 })
    expect((await test.getBlock()).timestamp).toBeGreaterThanOrEqual(t0 + 3600n)

    const whale = '0x00000000000000000000000000000000000000aa'
    await test.setBalance({ address: whale, value: parseEther('5') })
    await test.impersonateAccount({ address: whale })
    const hash = await test.sendTransaction({ account: whale, to: bob.address, value: parseEther('1'), chain })
    expect((await test.getTransactionReceipt({ hash })).from).toBe(whale)
    await test.stopImpersonatingAccount({ address: whale })
    await expect(test.sendTransaction({ account: whale, to: bob.address, value: 1n, chain })).rejects.toThrow(/unknown account/)

    const state = await test.dumpState()
    await test.setBalance({ address: whale, value: 7n })
    await test.loadState({ state })
    expect(await test.getBalance({ address: whale })).toBeLessThan(parseEther('4'))
    expect(await test.getBalance({ address: whale })).toBeGreaterThan(parseEther('3.9'))
  })
})
