/**
 * Before Granite, from subnet-EVM's InvalidateDelegateUnix (2025-08-02), a DELEGATECALL or
 * CALLCODE into a stateful precompile voids the whole message (libevm's `InvalidateExecution`,
 * honoured by subnet-EVM's state transition): eth_call, eth_estimateGas and debug_traceCall
 * answer the node's error, and the miner leaves the transaction out. Nothing of such a message —
 * the call frames it opened, its writes, its transient storage, the sender's nonce and gas —
 * stays in the live state: the chain goes on exactly as a twin chain that never saw it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { BaseError, createPublicClient, createTestClient, createWalletClient, defineChain, encodeFunctionData, http, parseAbi, parseEther, type Chain, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../src/index.js'
import { DelegateCaller } from '../fixtures/contracts/index.js'
import { testGenesis } from '../l1/helpers.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
const bob = mnemonicToAccount(MNEMONIC, { addressIndex: 1 })

const NATIVE_MINTER = '0x0200000000000000000000000000000000000001' as Hex
/** An account without code: a DELEGATECALL into it succeeds and does nothing. */
const NO_CODE = '0x00000000000000000000000000000000c0dec0de' as Hex
/** Every upgrade at the local network's default (2020), except Granite, scheduled in 2100. */
const ACTIVE = 1607144400
const GRANITE = 4_102_444_800
/** The networks' virtual start: after InvalidateDelegateUnix, long before Granite. */
const START = 1_800_000_000
const GAS_PRICE = 2_000_000_000n
const CHAIN_ID = 99999

const mint = encodeFunctionData({ abi: parseAbi(['function mintNativeCoin(address addr, uint256 amount)']), functionName: 'mintNativeCoin', args: [bob.address, 5n] })
const through = (functionName: 'delegate' | 'nested' | 'callcode', target: Hex = NATIVE_MINTER) =>
  encodeFunctionData({ abi: DelegateCaller.abi, functionName, args: [target, mint] })

const devnets: Devnet[] = []
afterEach(async () => {
  await Promise.all(devnets.splice(0).map((d) => d.close()))
})

/** A served L1 before Granite with the native minter enabled (alice its admin), through viem. */
async function servedL1() {
  const genesis = testGenesis({ graniteTimestamp: GRANITE, contractNativeMinterConfig: { blockTimestamp: ACTIVE, adminAddresses: [alice.address] } })
  const devnet = await startDevnet({ port: 0, clock: { start: START }, l1s: [{ name: 'dex', genesis }] })
  devnets.push(devnet)
  const url = devnet.rpcUrl('dex')
  const chain: Chain = defineChain({ id: CHAIN_ID, name: 'dex', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
  const client = createPublicClient({ chain, transport: http(url) })
  const wallet = createWalletClient({ chain, transport: http(url), account: alice })
  const test = createTestClient({ chain, mode: 'anvil', transport: http(url) })
  // Fixed gas and price: no estimate runs, and the fees are the same on every chain here.
  const send = async (request: { to?: Hex; data?: Hex; value?: bigint; gas?: bigint }) => {
    const hash = await wallet.sendTransaction({ to: request.to ?? null, data: request.data, value: request.value ?? 0n, gas: request.gas ?? 300_000n, gasPrice: GAS_PRICE } as never)
    return client.waitForTransactionReceipt({ hash })
  }
  const receipt = await send({ data: DelegateCaller.bytecode as Hex, gas: 1_000_000n })
  const caller = receipt.contractAddress!
  const read = (functionName: 'writes' | 'transientValue') => client.readContract({ address: caller, abi: DelegateCaller.abi, functionName })
  /** What the chain holds for the accounts the messages touch; transient storage first, read by the next message. */
  const state = async () => ({
    transient: await read('transientValue'),
    aliceNonce: await client.getTransactionCount({ address: alice.address }),
    aliceBalance: await client.getBalance({ address: alice.address }),
    bobBalance: await client.getBalance({ address: bob.address }),
    writes: await read('writes'),
  })
  /** Transactions every chain here runs after what it ran before: a transfer and a good delegatecall. */
  const carryOn = async () => {
    expect((await send({ to: bob.address, value: parseEther('1'), gas: 21_000n })).status).toBe('success')
    expect((await send({ to: caller, data: through('delegate', NO_CODE) })).status).toBe('success')
    return { root: (await client.getBlock()).stateRoot, ...(await state()) }
  }
  return { client, test, send, caller, state, carryOn }
}

/** The JSON-RPC error under viem's wrappers: code and message as the node sent them. */
async function rpcFailure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise
  } catch (error) {
    const sent = (error as BaseError).walk((e) => typeof (e as { code?: unknown }).code === 'number') as { code: number; details: string } | null
    if (!sent) throw error
    return { code: sent.code, message: sent.details }
  }
  throw new Error('expected the request to fail')
}

describe('a message voided by a DELEGATECALL into a stateful precompile (before Granite) leaves the live state as it was', () => {
  it('eth_call, eth_estimateGas and debug_traceCall answer the node’s error; the chain goes on as one that never saw them', async () => {
    const l1 = await servedL1()
    const before = await l1.state()
    for (const [functionName, call] of [['delegate', 'DELEGATECALL'], ['nested', 'DELEGATECALL'], ['callcode', 'CALLCODE']] as const) {
      const request = { account: alice, to: l1.caller, data: through(functionName) }
      expect(await rpcFailure(l1.client.call(request))).toEqual({ code: -32000, message: `err: precompile cannot be called with ${call} (supplied gas 50000000)` })
      // geth's estimator bails out at its first run, at the block gas limit.
      expect(await rpcFailure(l1.client.estimateGas(request))).toEqual({ code: -32000, message: `failed with 20000000 gas: precompile cannot be called with ${call}` })
      const trace = l1.client.request({ method: 'debug_traceCall' as never, params: [{ from: alice.address, to: l1.caller, data: request.data }, 'latest', { tracer: 'callTracer' }] as never })
      expect(await rpcFailure(trace)).toEqual({ code: -32000, message: `tracing failed: precompile cannot be called with ${call}` })
      // Neither the write before the call, nor the transient value, nor the caller's nonce stayed.
      expect(await l1.state()).toEqual(before)
    }
    const after = await l1.carryOn()

    const twin = await servedL1()
    expect(await twin.carryOn()).toEqual(after)
    expect(after.writes).toBe(1n)
    expect(after.transient).toBe(0n)
  })

  it('a transaction doing it is left out (the sender pays nothing, its nonce is free); later blocks and a revert are as on a chain that never saw it', async () => {
    const l1 = await servedL1()
    const before = await l1.state()
    const id = await l1.test.snapshot()
    for (const [functionName, call] of [['delegate', 'DELEGATECALL'], ['nested', 'DELEGATECALL'], ['callcode', 'CALLCODE']] as const) {
      expect(await rpcFailure(l1.send({ to: l1.caller, data: through(functionName) }))).toEqual({ code: -32000, message: `precompile cannot be called with ${call}` })
      expect(await l1.state()).toEqual(before)
    }
    const after = await l1.carryOn()

    const twin = await servedL1()
    expect(await twin.carryOn()).toEqual(after)

    // Back to before the refused transactions: the same transactions again give the same state.
    await l1.test.revert({ id })
    expect(await l1.state()).toEqual(before)
    expect(await l1.carryOn()).toEqual(after)
  })
})
