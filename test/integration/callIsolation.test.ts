/**
 * Every eth_call, eth_estimateGas and debug_traceCall runs as a fresh message (geth's DoCall →
 * ApplyMessage → StateDB.Prepare): it starts with only the sender, the recipient, the active
 * precompiles, the coinbase and its own access list warm (EIP-2929), and leaves nothing warm
 * behind, so identical calls cost the same gas whatever ran before them, and a mined
 * transaction costs what it costs without them. GasProbe measures accesses with gasleft().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Contract, JsonRpcProvider } from 'ethers'
import { createPublicClient, createTestClient, createWalletClient, defineChain, encodeFunctionData, fromRlp, http, parseEther, toRlp, type Chain, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ERC20, GasProbe } from '../fixtures/contracts/index.js'
import { testGenesis } from '../l1/helpers.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })

/** Accounts no test ever touches in a transaction: cold in every message. */
const COLD = '0x00000000000000000000000000000000c01dc01d' as Hex
const COLD_2 = '0x00000000000000000000000000000000c01dc02d' as Hex
/** sha256, a precompile: warm in every message (geth's Prepare adds the active precompiles). */
const SHA256 = '0x0000000000000000000000000000000000000002' as Hex
const WARP = '0x0200000000000000000000000000000000000005' as Hex
const TX_ALLOW_LIST = '0x0200000000000000000000000000000000000002' as Hex
const GET_BLOCKCHAIN_ID = '0x4213cf78' as Hex

/** A served network's chain through viem: public, wallet and test (cheat code) clients. */
function clients(devnet: Devnet, alias: string, id: number) {
  const url = devnet.rpcUrl(alias)
  const chain: Chain = defineChain({ id, name: alias, nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
  return {
    url,
    client: createPublicClient({ chain, transport: http(url) }),
    wallet: createWalletClient({ chain, transport: http(url), account: alice }),
    test: createTestClient({ chain, mode: 'anvil', transport: http(url) }),
  }
}

async function deploy(c: ReturnType<typeof clients>, abi: typeof GasProbe.abi | typeof ERC20.abi, bytecode: Hex, args?: readonly unknown[]): Promise<Hex> {
  const hash = await c.wallet.deployContract({ abi, bytecode, args } as Parameters<typeof c.wallet.deployContract>[0])
  return (await c.client.waitForTransactionReceipt({ hash })).contractAddress!
}

describe('eth_call, eth_estimateGas and debug_traceCall start cold and leave nothing warm (C-chain)', () => {
  let devnet: Devnet
  let c: ReturnType<typeof clients>
  let probe: Hex
  let token: Hex
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0 })
    c = clients(devnet, 'C', 43112)
    probe = await deploy(c, GasProbe.abi, GasProbe.bytecode as Hex)
    token = await deploy(c, ERC20.abi, ERC20.bytecode as Hex, ['Token', 'TOK', parseEther('1000')])
  })
  afterAll(() => devnet.close())

  const read = (functionName: 'probeCall' | 'probeBalance' | 'probeSload', args: readonly unknown[]) =>
    c.client.readContract({ address: probe, abi: GasProbe.abi, functionName, args } as Parameters<typeof c.client.readContract>[0]) as Promise<bigint>
  const figures = async () => ({
    coldCall: await read('probeCall', [COLD, '0x']),
    precompileCall: await read('probeCall', [SHA256, '0x']),
    coldBalance: await read('probeBalance', [COLD_2]),
    ownBalance: await read('probeBalance', [probe]),
    coldSlot: await read('probeSload', [7n]),
  })
  /** Calls that read other accounts and many slots, as a dapp's page load would. */
  const unrelatedCalls = async () => {
    for (let i = 0; i < 20; i++) {
      const holder = `0x${(0xabc000 + i).toString(16).padStart(40, '0')}` as Hex
      await c.client.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [holder] })
    }
  }

  it('identical eth_calls cost the same gas, before and after other calls, as a mined transaction does', async () => {
    const first = await figures()
    expect(await figures()).toEqual(first)
    await unrelatedCalls()
    expect(await figures()).toEqual(first)

    // EIP-2929's prices: the cold account and slot pay 2,600 / 2,100, the contract itself
    // (the message's recipient) is warm, and so is the precompile.
    expect(first.coldBalance - first.ownBalance).toBe(2_500n)
    expect(first.coldCall - first.precompileCall).toBeGreaterThan(2_000n)

    // The same probe in a mined transaction measures what the call measured.
    for (const [target, figure] of [[COLD, first.coldCall], [SHA256, first.precompileCall]] as const) {
      const hash = await c.wallet.writeContract({ address: probe, abi: GasProbe.abi, functionName: 'recordCall', args: [target, '0x'], gas: 200_000n })
      await c.client.waitForTransactionReceipt({ hash })
      expect(await c.client.readContract({ address: probe, abi: GasProbe.abi, functionName: 'last' })).toBe(figure)
    }
  })

  it("an access list naming a precompile's slots prices that call as geth does and leaves the next calls as they were", async () => {
    const first = await figures()
    const data = encodeFunctionData({ abi: GasProbe.abi, functionName: 'probeCall', args: [SHA256, '0x'] })
    const accessList = [{ address: SHA256, storageKeys: [`0x${'01'.padStart(64, '0')}` as Hex, `0x${'02'.padStart(64, '0')}` as Hex] }]
    const { data: listed } = await c.client.call({ to: probe, data, accessList })
    expect(BigInt(listed!)).toBe(first.precompileCall)
    expect(await figures()).toEqual(first)
  })

  it('through ethers too: a staticCall repeats its figure', async () => {
    const provider = new JsonRpcProvider(c.url, 43112, { staticNetwork: true })
    const contract = new Contract(probe, GasProbe.abi, provider)
    const other = '0x00000000000000000000000000000000c01dc03d'
    const once = (await contract.getFunction('probeBalance').staticCall(other)) as bigint
    expect(await contract.getFunction('probeBalance').staticCall(other)).toBe(once)
    expect(await contract.getFunction('probeBalance').staticCall(probe)).toBe(once - 2_500n)
    provider.destroy()
  })

  it('identical eth_estimateGas and debug_traceCall cost the same, before and after other calls', async () => {
    const request = { account: alice, address: probe, abi: GasProbe.abi, functionName: 'recordCall', args: [COLD, '0x'] } as const
    const estimate = await c.client.estimateContractGas(request)
    const data = encodeFunctionData({ abi: GasProbe.abi, functionName: 'recordCall', args: [COLD, '0x'] })
    const trace = () => c.client.request({ method: 'debug_traceCall' as never, params: [{ from: alice.address, to: probe, data }, 'latest', { tracer: 'callTracer' }] as never }) as Promise<{ gasUsed: Hex }>
    const traced = (await trace()).gasUsed
    await read('probeCall', [COLD, '0x'])
    expect(await c.client.estimateContractGas(request)).toBe(estimate)
    expect((await trace()).gasUsed).toBe(traced)
    await unrelatedCalls()
    expect(await c.client.estimateContractGas(request)).toBe(estimate)
    expect((await trace()).gasUsed).toBe(traced)
  })

  it("a mined transaction's gas does not depend on the calls before it", async () => {
    const send = async () => {
      const hash = await c.wallet.writeContract({ address: probe, abi: GasProbe.abi, functionName: 'recordCall', args: [COLD_2, '0x'], gas: 200_000n })
      return (await c.client.waitForTransactionReceipt({ hash })).gasUsed
    }
    const id = await c.test.snapshot()
    const alone = await send()
    await c.test.revert({ id })
    await read('probeCall', [COLD_2, '0x'])
    await read('probeBalance', [COLD_2])
    await unrelatedCalls()
    // A call that writes the slot the transaction writes, over an override of it: the value it
    // saw first must not become the transaction's original value (EIP-2200's SSTORE prices).
    const record = encodeFunctionData({ abi: GasProbe.abi, functionName: 'recordCall', args: [COLD_2, '0x'] })
    await c.client.call({ account: alice, to: probe, data: record, stateOverride: [{ address: probe, stateDiff: [{ slot: `0x${'0'.repeat(64)}`, value: `0x${'5'.padStart(64, '0')}` }] }] })
    expect(await send()).toBe(alone)
  })

  it('an account a call touched stays as it was once the next transaction is mined', async () => {
    // An existing empty account: a transaction that touched it would remove it (EIP-161), a call must not.
    const empty = '0x00000000000000000000000000000000e3e3e3e3' as Hex
    await c.test.setBalance({ address: empty, value: 0n })
    /** The account's own leaf ends its proof: [path, rlp([nonce 0, balance 0, storage root, code hash])]. */
    const exists = async () => {
      const proof = await c.client.getProof({ address: empty, storageKeys: [] })
      const leaf = fromRlp(proof.accountProof.at(-1)!)
      return leaf.length === 2 && leaf[1] === toRlp(['0x', '0x', proof.storageHash, proof.codeHash])
    }
    expect(await exists()).toBe(true)
    await c.client.call({ account: empty, to: COLD, data: '0x' })
    await c.client.call({ account: alice, to: empty, data: '0x' })
    // The gas is given, so no estimate (whose own run would forget the call) comes between.
    const hash = await c.wallet.sendTransaction({ to: '0x000000000000000000000000000000000000beef', value: 1n, gas: 21_000n })
    await c.client.waitForTransactionReceipt({ hash })
    expect(await exists()).toBe(true)
  })
})

describe('a call into an L1 stateful precompile stays cold in every eth_call', () => {
  let devnet: Devnet
  let c: ReturnType<typeof clients>
  let probe: Hex
  beforeAll(async () => {
    const at = { blockTimestamp: 1607144400 }
    devnet = await startDevnet({ port: 0, l1s: [{ name: 'dex', genesis: testGenesis({ warpConfig: at, txAllowListConfig: { ...at, adminAddresses: [alice.address] } }) }] })
    c = clients(devnet, 'dex', 99999)
    probe = await deploy(c, GasProbe.abi, GasProbe.bytecode as Hex)
  })
  afterAll(() => devnet.close())

  it('identical calls cost the same, before and after other calls, as a mined transaction does', async () => {
    const readAllowList = encodeFunctionData({ abi: [{ type: 'function', name: 'readAllowList', stateMutability: 'view', inputs: [{ name: 'a', type: 'address' }], outputs: [{ type: 'uint256' }] }], functionName: 'readAllowList', args: [alice.address] })
    const measure = (target: Hex, data: Hex) => c.client.readContract({ address: probe, abi: GasProbe.abi, functionName: 'probeCall', args: [target, data] })
    const warp = await measure(WARP, GET_BLOCKCHAIN_ID)
    const allowList = await measure(TX_ALLOW_LIST, readAllowList)
    expect(await measure(WARP, GET_BLOCKCHAIN_ID)).toBe(warp)
    expect(await measure(TX_ALLOW_LIST, readAllowList)).toBe(allowList)
    await c.client.readContract({ address: probe, abi: GasProbe.abi, functionName: 'probeBalance', args: [COLD] })
    expect(await measure(WARP, GET_BLOCKCHAIN_ID)).toBe(warp)

    const hash = await c.wallet.writeContract({ address: probe, abi: GasProbe.abi, functionName: 'recordCall', args: [WARP, GET_BLOCKCHAIN_ID], gas: 200_000n })
    await c.client.waitForTransactionReceipt({ hash })
    expect(await c.client.readContract({ address: probe, abi: GasProbe.abi, functionName: 'last' })).toBe(warp)
  })
})
