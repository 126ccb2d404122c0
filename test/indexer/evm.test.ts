import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, encodeAbiParameters, pad, parseEther, toEventSelector, toFunctionSelector, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { setCode } from '../../src/evm/cheats.js'
import type { StoredBlock } from '../../src/evm/types.js'
import {
  createEvmIndexer,
  InvalidCursorError,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_TOPIC,
  type EvmIndexer,
  type ListQuery,
  type Page,
} from '../../src/indexer/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob, carol] = [0, 1, 2].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
]
const A = alice.address.toLowerCase() as Hex
const B = bob.address.toLowerCase() as Hex
const C = carol.address.toLowerCase() as Hex
const ZERO = '0x0000000000000000000000000000000000000000'

/**
 * Runtime code that emits LOG4 with the first four calldata words as topics and the rest as data:
 * PUSH1 0x80 CALLDATASIZE SUB DUP1 PUSH1 0x80 PUSH1 0 CALLDATACOPY, the four CALLDATALOADs,
 * DUP5 PUSH1 0 LOG4 STOP. It stands in for ERC-721 and ERC-1155 contracts (all their transfer
 * events have four topics).
 */
const LOGGER_CODE = '0x60803603806080600037606035604035602035600035846000a400'
const LOGGER = '0x00000000000000000000000000000000000010c4' as Hex

let network: Network
let indexer: EvmIndexer
let stop: () => void

function harness() {
  const chain = network.cChain
  const provider = createEIP1193Provider({ network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  const wallet = (account: typeof alice) => createWalletClient({ chain: viemChain, account, transport: custom(provider) })
  return { chain, client, wallet }
}

const word = (a: Hex) => pad(a, { size: 32 })
const logCall = (topics: Hex[], data: Hex = '0x'): Hex => `0x${[...topics.map((t) => word(t).slice(2)), data.slice(2)].join('')}` as Hex

/** Every page of a query, following cursors. */
function all<T>(list: (q: ListQuery) => Page<T>, q: Omit<ListQuery, 'pageSize' | 'cursor'>, pageSize = 2): T[] {
  const out: T[] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 1000; guard++) {
    const page = list({ ...q, pageSize, ...(cursor ? { cursor } : {}) })
    expect(page.items.length).toBeLessThanOrEqual(pageSize)
    out.push(...page.items)
    if (!page.nextCursor) return out
    cursor = page.nextCursor
  }
  throw new Error('paging does not end')
}

/** Everything the queries answer, for comparing two indexers. */
function everything(ix: EvmIndexer) {
  const q = {}
  return {
    height: ix.height,
    blocks: all(ix.blocks, q, 3),
    txs: all(ix.transactions, q, 3),
    txsA: all(ix.transactions, { address: A }),
    erc20: all(ix.erc20Transfers, q),
    erc721: all(ix.erc721Transfers, q),
    erc1155: all(ix.erc1155Transfers, q),
    deployments: all(ix.deployments, q),
    balancesB: ix.erc1155Balances(B),
    balancesC: ix.erc1155Balances(C),
  }
}

function storedBlocks(): StoredBlock[] {
  const store = network.cChain.store
  const out: StoredBlock[] = []
  for (let n = 0n; n <= store.height; n++) out.push(store.byNumber(n)!)
  return out
}

beforeEach(async () => {
  network = await createNetwork()
  indexer = createEvmIndexer({ chainId: network.cChain.chainId })
  stop = indexer.follow(network.cChain)
})
afterEach(async () => {
  stop()
  await network.close()
})

/** Block 1: value; 2: ERC-20 deploy (mint); 3: ERC-20 transfer; 4: ERC-721 mint; 5: TransferSingle; 6: TransferBatch. */
async function scenario() {
  const { client, wallet, chain } = harness()
  const send = await wallet(alice).sendTransaction({ to: bob.address, value: parseEther('1.5') })
  const deploy = await wallet(alice).deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', 1000n] })
  const token = (await client.waitForTransactionReceipt({ hash: deploy })).contractAddress!.toLowerCase() as Hex
  const transfer = await wallet(alice).writeContract({ address: token, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, 10n] })
  await setCode(chain, LOGGER, Buffer.from(LOGGER_CODE.slice(2), 'hex'))
  const mint721 = await wallet(alice).sendTransaction({ to: LOGGER, data: logCall([TRANSFER_TOPIC, ZERO, B, '0x07']) })
  const single = await wallet(alice).sendTransaction({
    to: LOGGER,
    data: logCall([TRANSFER_SINGLE_TOPIC, A, ZERO, B], encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 5n])),
  })
  const batch = await wallet(bob).sendTransaction({
    to: LOGGER,
    data: logCall([TRANSFER_BATCH_TOPIC, B, B, C], encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [[1n, 9n], [2n, 0n]])),
  })
  return { token, hashes: { send, deploy, transfer, mint721, single, batch } }
}

describe('EVM indexer', () => {
  it('uses the standard event topics', () => {
    expect(TRANSFER_TOPIC).toBe(toEventSelector('Transfer(address,address,uint256)'))
    expect(TRANSFER_SINGLE_TOPIC).toBe(toEventSelector('TransferSingle(address,address,address,uint256,uint256)'))
    expect(TRANSFER_BATCH_TOPIC).toBe(toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])'))
  })

  it('indexes blocks, transactions, token transfers, deployments and ERC-1155 balances', async () => {
    const { token, hashes } = await scenario()
    expect(indexer.height).toBe(6)

    const blocks = all(indexer.blocks, {}, 4)
    expect(blocks.map((b) => b.number)).toEqual([6, 5, 4, 3, 2, 1, 0])
    expect(blocks[0]!.hash).toBe(network.cChain.store.byNumber(6n)!.hash)
    expect(indexer.blockByHash(blocks[2]!.hash)!.number).toBe(4)
    expect(indexer.block(1)!.txCount).toBe(1)

    const sent = indexer.transaction(hashes.send)!
    expect(sent).toMatchObject({ blockNumber: 1, index: 0, from: A, to: B, value: parseEther('1.5'), status: 1, methodId: null, gasUsed: 21000n })
    const t = indexer.transaction(hashes.transfer)!
    expect(t.methodId).toBe(toFunctionSelector('transfer(address,uint256)'))
    expect(t.to).toBe(token)
    expect(indexer.transaction(hashes.deploy)).toMatchObject({ to: null, contractAddress: token, methodId: null })
    expect(indexer.transactionsOfBlock(3)!.map((x) => x.hash)).toEqual([hashes.transfer])
    expect(indexer.transactionsOfBlock(0)).toEqual([])
    expect(indexer.transactionsOfBlock(7)).toBeUndefined()

    // Alice sent 1, 2, 3, 4, 5; bob received 1 and sent 6; carol never appears in a native tx.
    expect(all(indexer.transactions, { address: alice.address }).map((x) => x.blockNumber)).toEqual([5, 4, 3, 2, 1])
    expect(all(indexer.transactions, { address: B }).map((x) => x.hash)).toEqual([hashes.batch, hashes.send])
    expect(all(indexer.transactions, { address: C })).toEqual([])
    expect(all(indexer.transactions, { address: A, startBlock: 2, endBlock: 4 }).map((x) => x.blockNumber)).toEqual([3, 2])

    const erc20 = all(indexer.erc20Transfers, {})
    expect(erc20.map((x) => [x.from, x.to, x.value, x.blockNumber])).toEqual([[A, B, 10n, 3], [ZERO, A, 1000n, 2]])
    expect(all(indexer.erc20Transfers, { address: B }).map((x) => x.txHash)).toEqual([hashes.transfer])
    expect(all((q) => indexer.tokenTransfers.erc20({ ...q, address: token }), {})).toHaveLength(2)
    expect(all((q) => indexer.tokenTransfers.erc20({ ...q, address: LOGGER }), {})).toEqual([])

    expect(all(indexer.erc721Transfers, {})).toMatchObject([{ token: LOGGER, from: ZERO, to: B, tokenId: 7n, txHash: hashes.mint721 }])
    const e1155 = all(indexer.erc1155Transfers, {})
    expect(e1155).toMatchObject([
      { kind: 'batch', operator: B, from: B, to: C, ids: [1n, 9n], values: [2n, 0n], blockNumber: 6 },
      { kind: 'single', operator: A, from: ZERO, to: B, ids: [1n], values: [5n], blockNumber: 5 },
    ])
    expect(all((q) => indexer.tokenTransfers.erc1155({ ...q, address: LOGGER }), {})).toHaveLength(2)
    expect(all(indexer.erc1155Transfers, { address: C })).toHaveLength(1)

    expect(indexer.erc1155Balances(B)).toEqual([{ token: LOGGER, tokenId: 1n, balance: 3n }])
    expect(indexer.erc1155Balances(C)).toEqual([{ token: LOGGER, tokenId: 1n, balance: 2n }])
    expect(indexer.erc1155Balances(B, 5)).toEqual([{ token: LOGGER, tokenId: 1n, balance: 5n }])
    expect(indexer.erc1155Balances(C, 5)).toEqual([])
    expect(indexer.erc1155Balances(B, 4)).toEqual([])

    expect(all(indexer.deployments, {})).toMatchObject([{ address: token, deployer: A, txHash: hashes.deploy, blockNumber: 2 }])
    expect(all(indexer.deployments, { address: B })).toEqual([])
    expect(indexer.deployment(token)!.deployer).toBe(A)

    expect(() => indexer.transactions({ pageSize: 2, cursor: 'x' })).toThrow(InvalidCursorError)
    expect(() => indexer.transactions({ pageSize: 2, cursor: '1.99999999' })).toThrow(InvalidCursorError)
  })

  it('keeps pages stable when new blocks arrive', async () => {
    const { wallet } = harness()
    for (let i = 0; i < 5; i++) await wallet(alice).sendTransaction({ to: bob.address, value: BigInt(i + 1) })
    const before = all(indexer.transactions, { address: B }, 5).map((x) => x.value)
    expect(before).toEqual([5n, 4n, 3n, 2n, 1n])
    const first = indexer.transactions({ address: B, pageSize: 2 })
    expect(first.items.map((x) => x.value)).toEqual([5n, 4n])
    for (let i = 0; i < 3; i++) await wallet(alice).sendTransaction({ to: bob.address, value: 100n + BigInt(i) })
    const second = indexer.transactions({ address: B, pageSize: 2, cursor: first.nextCursor! })
    expect(second.items.map((x) => x.value)).toEqual([3n, 2n])
    const third = indexer.transactions({ address: B, pageSize: 2, cursor: second.nextCursor! })
    expect(third.items.map((x) => x.value)).toEqual([1n])
    expect(third.nextCursor).toBeUndefined()
    // The first page of the same query now starts with the new blocks.
    expect(indexer.transactions({ address: B, pageSize: 2 }).items.map((x) => x.value)).toEqual([102n, 101n])
    // A page that fills exactly at the end of the range has no next cursor.
    expect(indexer.blocks({ pageSize: 9 }).nextCursor).toBeUndefined()
    expect(indexer.blocks({ pageSize: 8 }).nextCursor).toBeDefined()
  })

  it('truncates on revert and indexes the new history', async () => {
    const { wallet } = harness()
    await wallet(alice).sendTransaction({ to: bob.address, value: 1n })
    const snapshot = await network.snapshot()
    const atSnapshot = everything(indexer)
    await scenario()
    expect(indexer.height).toBe(7)
    await network.revert(snapshot)
    expect(network.cChain.store.height).toBe(1n)
    expect(everything(indexer)).toEqual(atSnapshot)
    expect(indexer.erc1155Balances(B)).toEqual([])
    const { hashes } = await scenario()
    expect(indexer.transaction(hashes.batch)!.blockNumber).toBe(7)
    expect(indexer.erc1155Balances(C)).toEqual([{ token: LOGGER, tokenId: 1n, balance: 2n }])
  })

  it('rebuilt from blocks answers as the incremental indexer does', async () => {
    await scenario()
    const snapshot = await network.snapshot()
    await harness().wallet(carol).sendTransaction({ to: alice.address, value: 3n })
    await network.revert(snapshot)
    await harness().wallet(carol).sendTransaction({ to: bob.address, value: 4n })
    const rebuilt = createEvmIndexer({ chainId: network.cChain.chainId })
    rebuilt.rebuild(storedBlocks())
    const incremental = everything(indexer)
    expect(incremental.txs).toHaveLength(7)
    expect(everything(rebuilt)).toEqual(incremental)
    // Rebuilding an indexer in place drops what it had.
    indexer.rebuild(storedBlocks().slice(0, 3))
    expect(indexer.height).toBe(2)
    expect(all(indexer.erc20Transfers, {})).toHaveLength(1)
    expect(indexer.erc1155Balances(B)).toEqual([])
  })
})
