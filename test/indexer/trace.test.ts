import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  concat,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  parseEther,
  toHex,
  type Abi,
  type Hex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { CallFrameJson } from '../../src/evm/trace.js'
import { createTraceIndexer, type InternalTransaction, type TraceIndexer } from '../../src/indexer/index.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { Caller, Child, Factory, Lib } from '../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob] = [0, 1].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [ReturnType<typeof mnemonicToAccount>, ReturnType<typeof mnemonicToAccount>]
const A = alice.address.toLowerCase() as Hex
const B = bob.address.toLowerCase() as Hex

/** Contracts exercising every frame kind: creates from a contract, value calls, delegate and static calls, a caught revert. */
let network: Network
let traces: TraceIndexer
let provider: ReturnType<typeof createEIP1193Provider>
const C = { Child, Lib, Factory, Caller } as const
const SALT = keccak256(toHex('salt'))
const tx: Record<string, Hex> = {}
const addr: Record<string, Hex> = {}

let send: (account: typeof alice, request: { to?: Hex; data?: Hex; value?: bigint; gas?: bigint }) => Promise<{ hash: Hex; contractAddress: Hex | null; blockNumber: bigint; status: string }>
let client: ReturnType<typeof createPublicClient>

const call = (name: keyof typeof C, functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: C[name].abi as Abi, functionName, args })
const deployData = (name: keyof typeof C, args: Hex = '0x') => concat([C[name].bytecode as Hex, args])

/** debug_traceTransaction's call tree, flattened below the top call. */
async function tracerFrames(hash: Hex): Promise<CallFrameJson[]> {
  const top = (await provider.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] })) as CallFrameJson
  const out: CallFrameJson[] = []
  const walk = (f: CallFrameJson) => (f.calls ?? []).forEach((c) => (out.push(c), walk(c)))
  walk(top)
  return out
}

const shape = (list: InternalTransaction[]) => list.map(({ from, to, internalTxType, value, isReverted }) => ({ from, to, internalTxType, value, isReverted }))

beforeAll(async () => {
  network = await createNetwork()
  const chain = network.cChain
  provider = createEIP1193Provider({ network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  const wallet = (account: typeof alice) => createWalletClient({ chain: viemChain, account, transport: custom(provider) })
  // Automine: the block is sealed before the hash comes back, so the receipt is there at once.
  send = async (account, request) => {
    const hash = await wallet(account).sendTransaction({ ...request, to: request.to ?? null, chain: viemChain } as Parameters<ReturnType<typeof wallet>['sendTransaction']>[0])
    const receipt = await client.getTransactionReceipt({ hash })
    return { hash, contractAddress: receipt.contractAddress?.toLowerCase() as Hex | null, blockNumber: receipt.blockNumber, status: receipt.status }
  }
  for (const name of ['Factory', 'Caller', 'Lib'] as const) {
    const r = await send(alice, { data: deployData(name) })
    tx[`deploy${name}`] = r.hash
    addr[name] = r.contractAddress!
  }
  const made = await send(alice, { to: addr.Factory, data: call('Factory', 'make', [7n, SALT]), value: 5n })
  tx.make = made.hash
  addr.childA = getContractAddress({ from: addr.Factory!, nonce: 1n }).toLowerCase() as Hex
  addr.childB = getContractAddress({ opcode: 'CREATE2', from: addr.Factory!, salt: SALT, bytecode: deployData('Child', encodeAbiParameters([{ type: 'uint256' }], [8n])) }).toLowerCase() as Hex
  tx.multi = (await send(alice, { to: addr.Caller, data: call('Caller', 'multi', [addr.childA, addr.Lib]), value: 3n })).hash
  // A gas estimate would settle on the least gas that lets the caught call fail: give enough for it to run.
  tx.makeThenRevert = (await send(alice, { to: addr.Factory, data: call('Factory', 'makeThenRevert', [9n]), gas: 1_000_000n })).hash
  addr.revertedChild = getContractAddress({ from: addr.Factory!, nonce: 3n }).toLowerCase() as Hex
  const failed = await send(alice, { to: addr.Factory, data: call('Factory', 'innerMake', [1n]), gas: 300_000n })
  expect(failed.status).toBe('reverted')
  tx.failed = failed.hash
  tx.plain = (await send(alice, { to: bob.address, value: parseEther('1') })).hash
  traces = createTraceIndexer({ chain })
  traces.follow()
})
afterAll(async () => {
  await network.close()
})

describe('internalTransactions', () => {
  it('lists the CREATE and CREATE2 frames of a factory, with the tracer\'s gas', async () => {
    const list = (await traces.internalTransactions(tx.make!))!
    expect(shape(list)).toEqual([
      { from: addr.Factory, to: addr.childA, internalTxType: 'CREATE', value: 0n, isReverted: false },
      { from: addr.Factory, to: addr.childB, internalTxType: 'CREATE2', value: 5n, isReverted: false },
    ])
    const frames = await tracerFrames(tx.make!)
    expect(list.map((t) => [t.gasLimit, t.gasUsed])).toEqual(frames.map((f) => [BigInt(f.gas), BigInt(f.gasUsed)]))
    for (const t of list) expect(t.gasUsed > 0n && t.gasUsed < t.gasLimit).toBe(true)
    expect(await client.getCode({ address: addr.childB! })).not.toBe('0x')
  })

  it('lists value, delegate and static calls and a caught revert in execution order', async () => {
    const list = (await traces.internalTransactions(tx.multi!))!
    expect(shape(list)).toEqual([
      { from: addr.Caller, to: addr.childA, internalTxType: 'CALL', value: 2n, isReverted: false },
      // The call tracer gives a DELEGATECALL its caller's value (geth's CaptureEnter does the same).
      { from: addr.Caller, to: addr.Lib, internalTxType: 'DELEGATECALL', value: 3n, isReverted: false },
      { from: addr.Caller, to: addr.childA, internalTxType: 'STATICCALL', value: 0n, isReverted: false },
      { from: addr.Caller, to: addr.childA, internalTxType: 'CALL', value: 1n, isReverted: true },
    ])
    const frames = await tracerFrames(tx.multi!)
    expect(frames.map((f) => f.type)).toEqual(list.map((t) => t.internalTxType))
    expect(list.map((t) => [t.gasLimit, t.gasUsed])).toEqual(frames.map((f) => [BigInt(f.gas), BigInt(f.gasUsed)]))
    expect(frames[3]!.error).toBe('execution reverted')
  })

  it('marks every frame below a reverted one, and all of a failed transaction\'s', async () => {
    expect(shape((await traces.internalTransactions(tx.makeThenRevert!))!)).toEqual([
      { from: addr.Factory, to: addr.Factory, internalTxType: 'CALL', value: 0n, isReverted: true },
      { from: addr.Factory, to: addr.revertedChild, internalTxType: 'CREATE', value: 0n, isReverted: true },
    ])
    const failed = (await traces.internalTransactions(tx.failed!))!
    expect(failed.map((t) => [t.from, t.internalTxType, t.isReverted])).toEqual([[addr.Factory, 'CREATE', true]])
    // The top call is the native transaction itself, never an internal one.
    expect(await traces.internalTransactions(tx.deployFactory!)).toEqual([])
    expect(await traces.internalTransactions(`0x${'ab'.repeat(32)}`)).toBeUndefined()
  })

  it('never replays plain-transfer or empty blocks, and replays a block once', async () => {
    const fresh = createTraceIndexer({ chain: network.cChain })
    // The miner counted no inner message for a plain transfer: its block is not even looked at.
    expect(network.cChain.store.tx(tx.plain!)!.innerCalls).toBe(0)
    expect(await fresh.internalTransactions(tx.plain!)).toEqual([])
    expect(fresh.stats).toMatchObject({ tracedBlocks: 0, skippedBlocks: 0 })
    // Code put in place by a state edit first shows in an empty block: nothing created it.
    const edited = `0x${'ed'.repeat(20)}` as Hex
    await provider.request({ method: 'anvil_setCode', params: [edited, '0x00'] })
    await provider.request({ method: 'evm_mine', params: [] })
    expect(network.cChain.store.head.txs).toHaveLength(0)
    expect(await fresh.creationOf(edited)).toBeUndefined()
    expect(fresh.stats).toMatchObject({ tracedBlocks: 0, skippedBlocks: 1 })
    expect(await fresh.creationOf(addr.childA!)).toBeDefined()
    expect(fresh.stats.tracedBlocks).toBe(1)
    await fresh.internalTransactions(tx.make!)
    await fresh.internalTransactions(tx.make!)
    expect(fresh.stats).toMatchObject({ tracedBlocks: 1, skippedBlocks: 1 })
    expect(network.cChain.store.tx(tx.make!)!.innerCalls).toBe(2)
  })

  it('keeps at most maxBlocks traces', async () => {
    const small = createTraceIndexer({ chain: network.cChain, maxBlocks: 1 })
    await small.internalTransactions(tx.make!)
    await small.internalTransactions(tx.multi!)
    await small.internalTransactions(tx.make!)
    expect(small.stats).toMatchObject({ tracedBlocks: 3, memoized: 1 })
  })
})

describe('creationOf', () => {
  it('finds contracts made by transactions and by contracts', async () => {
    const blockOf = async (hash: Hex) => Number((await client.getTransactionReceipt({ hash })).blockNumber)
    expect(await traces.creationOf(addr.Factory!)).toMatchObject({
      address: addr.Factory,
      txHash: tx.deployFactory,
      deployer: A,
      origin: A,
      internalTxType: 'CREATE',
      internal: false,
      blockNumber: await blockOf(tx.deployFactory!),
    })
    const madeA = await traces.creationOf(addr.childA!.toUpperCase().replace('0X', '0x'))
    expect(madeA).toMatchObject({ address: addr.childA, txHash: tx.make, deployer: addr.Factory, origin: A, internalTxType: 'CREATE', internal: true, txIndex: 0 })
    expect(madeA!.blockNumber).toBe(await blockOf(tx.make!))
    expect(madeA!.blockHash).toBe(network.cChain.store.byNumber(BigInt(madeA!.blockNumber))!.hash)
    expect(await traces.creationOf(addr.childB!)).toMatchObject({ txHash: tx.make, deployer: addr.Factory, internalTxType: 'CREATE2', internal: true })
  })

  it('is undefined for accounts without code and contracts created in reverted frames', async () => {
    expect(await traces.creationOf(A)).toBeUndefined()
    expect(await traces.creationOf(`0x${'12'.repeat(20)}`)).toBeUndefined()
    expect(await traces.creationOf(addr.revertedChild!)).toBeUndefined()
  })
})

describe('after a revert', () => {
  it('serves the new history, not the reverted one', async () => {
    const setTarget = (t: Hex) => send(alice, { to: addr.Caller, data: call('Caller', 'setTarget', [t]) })
    await setTarget(addr.childA!)
    const snapshot = (await provider.request({ method: 'evm_snapshot', params: [] })) as Hex
    // One signed transaction, mined in two histories: it forwards its value to the stored target.
    const wallet = createWalletClient({ chain: client.chain!, account: alice, transport: custom(provider) })
    const prepared = await wallet.prepareTransactionRequest({ to: addr.Caller, data: call('Caller', 'forward'), value: 4n, gas: 200_000n })
    const raw = await wallet.signTransaction(prepared as Parameters<typeof wallet.signTransaction>[0])
    const forward = await client.sendRawTransaction({ serializedTransaction: raw })
    const salt2 = keccak256(toHex('gone'))
    const gone = await send(alice, { to: addr.Factory, data: call('Factory', 'make', [20n, salt2]) })
    const goneChild = getContractAddress({ opcode: 'CREATE2', from: addr.Factory!, salt: salt2, bytecode: deployData('Child', encodeAbiParameters([{ type: 'uint256' }], [21n])) }).toLowerCase() as Hex
    expect(shape((await traces.internalTransactions(forward))!)).toEqual([{ from: addr.Caller, to: addr.childA, internalTxType: 'CALL', value: 4n, isReverted: false }])
    expect(await traces.creationOf(goneChild)).toMatchObject({ txHash: gone.hash })
    const memoized = traces.stats.memoized

    expect(await provider.request({ method: 'evm_revert', params: [snapshot] })).toBe(true)
    expect(traces.stats.memoized).toBe(memoized - 2)
    expect(await traces.internalTransactions(forward)).toBeUndefined()
    expect(await traces.internalTransactions(gone.hash)).toBeUndefined()
    expect(await traces.creationOf(goneChild)).toBeUndefined()

    // Different history: bob points the target at himself first, then the same transaction runs.
    await send(bob, { to: addr.Caller, data: call('Caller', 'setTarget', [B]) })
    expect(await client.sendRawTransaction({ serializedTransaction: raw })).toBe(forward)
    expect(shape((await traces.internalTransactions(forward))!)).toEqual([{ from: addr.Caller, to: B, internalTxType: 'CALL', value: 4n, isReverted: false }])
  })
})
