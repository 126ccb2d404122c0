/**
 * Internal transactions on /v1 (ops 3, 9, 10) and deployments made by contracts, served by a devnet
 * on port 0, with a revert through the node's JSON-RPC in the middle.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  concat,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  parseEther,
  toHex,
  type Abi,
  type Hex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { Caller, Child, Factory, Lib } from '../../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob] = [0, 1].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [ReturnType<typeof mnemonicToAccount>, ReturnType<typeof mnemonicToAccount>]
const DATA_DIR = 'test/.tmp/internal-txs'

const C = { Child, Lib, Factory, Caller } as const
const SALT = keccak256(toHex('salt'))
const call = (name: keyof typeof C, functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: C[name].abi as Abi, functionName, args })
const deployData = (name: keyof typeof C, args: Hex = '0x') => concat([C[name].bytecode as Hex, args])
const uint = (v: bigint) => encodeAbiParameters([{ type: 'uint256' }], [v])

let devnet: Devnet
let chainId: string
const tx: Record<string, Hex> = {}
const addr: Record<string, Hex> = {}

type Json = Record<string, any>
const get = async (path: string) => {
  const res = await fetch(`${devnet.url}/v1/chains/${chainId}${path}`)
  return { status: res.status, body: (await res.json()) as Json }
}
const rpc = async (method: string, params: unknown[] = []) => {
  const res = await fetch(devnet.rpcUrl('C'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: unknown }
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}
/** The hosted model of one frame, gas read from debug_traceTransaction's callTracer. */
const internal = (from: Hex, to: Hex, internalTxType: string, value: bigint, isReverted: boolean, frame: { gas: Hex; gasUsed: Hex }) => ({
  from: { address: getAddress(from) },
  to: { address: getAddress(to) },
  internalTxType,
  value: value.toString(10),
  isReverted,
  gasUsed: BigInt(frame.gasUsed).toString(10),
  gasLimit: BigInt(frame.gas).toString(10),
})
type Frame = { from: Hex; to?: Hex; type: string; gas: Hex; gasUsed: Hex; calls?: Frame[] }
const framesOf = async (hash: Hex): Promise<Frame[]> => {
  const out: Frame[] = []
  const walk = (f: Frame) => (f.calls ?? []).forEach((c) => (out.push(c), walk(c)))
  walk((await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }])) as Frame)
  return out
}

let wallet: (account: typeof alice) => ReturnType<typeof createWalletClient>
let client: ReturnType<typeof createPublicClient>
const send = async (account: typeof alice, request: { to?: Hex; data?: Hex; value?: bigint; gas?: bigint }) => {
  const hash = await wallet(account).sendTransaction({ ...request, to: request.to ?? null } as Parameters<ReturnType<typeof wallet>['sendTransaction']>[0])
  // Automine: the block is sealed before the hash comes back.
  const receipt = await client.getTransactionReceipt({ hash })
  return { hash, contractAddress: receipt.contractAddress?.toLowerCase() as Hex | undefined }
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, node: { dataDir: DATA_DIR } })
  const chain = devnet.network.cChain
  chainId = String(chain.chainId)
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('C')] } } })
  client = createPublicClient({ chain: viemChain, transport: http(devnet.rpcUrl('C')) })
  wallet = (account) => createWalletClient({ chain: viemChain, account, transport: http(devnet.rpcUrl('C')) })
  for (const name of ['Factory', 'Caller', 'Lib'] as const) {
    const r = await send(alice, { data: deployData(name) })
    tx[`deploy${name}`] = r.hash
    addr[name] = r.contractAddress!
  }
  tx.make = (await send(alice, { to: addr.Factory, data: call('Factory', 'make', [7n, SALT]), value: 5n })).hash
  addr.childA = getContractAddress({ from: addr.Factory!, nonce: 1n }).toLowerCase() as Hex
  addr.childB = getContractAddress({ opcode: 'CREATE2', from: addr.Factory!, salt: SALT, bytecode: deployData('Child', uint(8n)) }).toLowerCase() as Hex
  tx.multi = (await send(alice, { to: addr.Caller, data: call('Caller', 'multi', [addr.childA, addr.Lib]), value: 3n })).hash
  tx.makeThenRevert = (await send(alice, { to: addr.Factory, data: call('Factory', 'makeThenRevert', [9n]), gas: 1_000_000n })).hash
  addr.revertedChild = getContractAddress({ from: addr.Factory!, nonce: 3n }).toLowerCase() as Hex
  tx.split = (await send(alice, { to: addr.Caller, data: call('Caller', 'split', [alice.address, addr.childA]), value: 10n })).hash
  tx.plain = (await send(alice, { to: bob.address, value: parseEther('1') })).hash
})
afterAll(async () => {
  await devnet.close()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

describe('getTransaction (op 10)', () => {
  it('lists value calls and creations, reverted ones flagged, in the hosted field order', async () => {
    const { status, body } = await get(`/transactions/${tx.multi}`)
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['internalTransactions', 'networkTokenDetails', 'nativeTransaction'])
    const f = await framesOf(tx.multi!)
    expect(f.map((x) => x.type)).toEqual(['CALL', 'DELEGATECALL', 'STATICCALL', 'CALL'])
    // The delegate and static calls (and value-less calls) are not listed, as the hosted API says.
    expect(body.internalTransactions).toEqual([
      internal(addr.Caller!, addr.childA!, 'CALL', 2n, false, f[0]!),
      internal(addr.Caller!, addr.childA!, 'CALL', 1n, true, f[3]!),
    ])
    expect(Object.keys(body.internalTransactions[0])).toEqual(['from', 'to', 'internalTxType', 'value', 'isReverted', 'gasUsed', 'gasLimit'])

    const made = await get(`/transactions/${tx.make}`)
    const g = await framesOf(tx.make!)
    expect(made.body.internalTransactions).toEqual([
      internal(addr.Factory!, addr.childA!, 'CREATE', 0n, false, g[0]!),
      internal(addr.Factory!, addr.childB!, 'CREATE2', 5n, false, g[1]!),
    ])
    const reverted = await get(`/transactions/${tx.makeThenRevert}`)
    const h = await framesOf(tx.makeThenRevert!)
    expect(reverted.body.internalTransactions).toEqual([internal(addr.Factory!, addr.revertedChild!, 'CREATE', 0n, true, h[1]!)])
  })

  it('leaves the field out when nothing is listed', async () => {
    for (const hash of [tx.plain, tx.deployFactory]) {
      const { status, body } = await get(`/transactions/${hash}`)
      expect(status).toBe(200)
      expect(body.internalTransactions).toBeUndefined()
    }
  })
})

describe('getDeploymentTransaction (op 9)', () => {
  it('finds contracts created by contracts, with the transaction\'s internal transactions', async () => {
    for (const child of [addr.childA!, addr.childB!]) {
      const { status, body } = await get(`/contracts/${getAddress(child)}/transactions:getDeployment`)
      expect(status).toBe(200)
      expect(body.nativeTransaction.txHash).toBe(tx.make)
      expect(body.nativeTransaction.from.address).toBe(alice.address)
      expect(body.nativeTransaction.to.address).toBe(getAddress(addr.Factory!))
      expect((body.internalTransactions as Json[]).map((t) => [t.internalTxType, t.to.address])).toEqual([
        ['CREATE', getAddress(addr.childA!)],
        ['CREATE2', getAddress(addr.childB!)],
      ])
    }
    const factory = await get(`/contracts/${addr.Factory}/transactions:getDeployment`)
    expect(factory.body.nativeTransaction.txHash).toBe(tx.deployFactory)
  })

  it('answers 404 for a contract created in a reverted frame and for accounts', async () => {
    for (const a of [addr.revertedChild!, alice.address]) {
      const { status, body } = await get(`/contracts/${a}/transactions:getDeployment`)
      expect(status).toBe(404)
      expect(body.message).toBe(`No deployment transaction found for contract ${a}`)
    }
  })
})

describe('listTransactions (op 3)', () => {
  const list = async (address: string) => {
    const { status, body } = await get(`/addresses/${address}/transactions?pageSize=100`)
    expect(status).toBe(200)
    return new Map((body.transactions as Json[]).map((t) => [t.nativeTransaction.txHash as Hex, t]))
  }

  it('keeps only the frames the address sent or received', async () => {
    const f = await framesOf(tx.split!)
    const ofAlice = await list(alice.address)
    expect(ofAlice.get(tx.split!)!.internalTransactions).toEqual([internal(addr.Caller!, alice.address, 'CALL', 1n, false, f[0]!)])
    expect(ofAlice.get(tx.make!)!.internalTransactions).toBeUndefined()
    expect(Object.keys(ofAlice.get(tx.split!)!)).toEqual(['nativeTransaction', 'internalTransactions'])
    const ofCaller = await list(addr.Caller!)
    expect(ofCaller.get(tx.split!)!.internalTransactions).toEqual([
      internal(addr.Caller!, alice.address, 'CALL', 1n, false, f[0]!),
      internal(addr.Caller!, addr.childA!, 'CALL', 9n, false, f[1]!),
    ])
    const ofFactory = await list(addr.Factory!)
    expect((ofFactory.get(tx.make!)!.internalTransactions as Json[]).map((t) => t.internalTxType)).toEqual(['CREATE', 'CREATE2'])
    expect((ofFactory.get(tx.makeThenRevert!)!.internalTransactions as Json[]).map((t) => [t.internalTxType, t.isReverted])).toEqual([['CREATE', true]])
  })
})

describe('after evm_revert', () => {
  it('serves no frame or deployment of the reverted history', async () => {
    await send(alice, { to: addr.Caller, data: call('Caller', 'setTarget', [addr.childA]) })
    const snapshot = await rpc('evm_snapshot')
    // One signed transaction, mined in two histories: it forwards its value to the stored target.
    const w = wallet(alice)
    const prepared = await w.prepareTransactionRequest({ account: alice, chain: w.chain, to: addr.Caller, data: call('Caller', 'forward'), value: 4n, gas: 200_000n })
    const raw = await w.signTransaction(prepared as Parameters<typeof w.signTransaction>[0])
    const forward = (await rpc('eth_sendRawTransaction', [raw])) as Hex
    const salt2 = keccak256(toHex('gone'))
    await send(alice, { to: addr.Factory, data: call('Factory', 'make', [20n, salt2]) })
    const gone = getContractAddress({ opcode: 'CREATE2', from: addr.Factory!, salt: salt2, bytecode: deployData('Child', uint(21n)) })
    const before = await get(`/transactions/${forward}`)
    expect((before.body.internalTransactions as Json[]).map((t) => [t.to.address, t.value])).toEqual([[getAddress(addr.childA!), '4']])
    expect((await get(`/contracts/${gone}/transactions:getDeployment`)).status).toBe(200)

    expect(await rpc('evm_revert', [snapshot])).toBe(true)
    expect((await get(`/transactions/${forward}`)).status).toBe(404)
    expect((await get(`/contracts/${gone}/transactions:getDeployment`)).status).toBe(404)

    // Different history: bob points the target at himself, then the same transaction runs again.
    await send(bob, { to: addr.Caller, data: call('Caller', 'setTarget', [bob.address]) })
    expect(await rpc('eth_sendRawTransaction', [raw])).toBe(forward)
    const after = await get(`/transactions/${forward}`)
    expect(after.status).toBe(200)
    expect((after.body.internalTransactions as Json[]).map((t) => [t.from.address, t.to.address, t.value])).toEqual([[getAddress(addr.Caller!), bob.address, '4']])
  })
})
