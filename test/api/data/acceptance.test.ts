/**
 * Acceptance of the /v1 data API: every one of the 17 operations called through the hosted API's
 * own client, @avalabs/glacier-sdk 3.0.2, against a devnet on port 0 with native, ERC-20, ERC-721
 * and ERC-1155 activity, internal calls, contracts created by contracts, a teleporter message,
 * P- and X-chain transactions, primary-network validators and L1 validators. Each answer is
 * checked against what the chains themselves say (eth_*, debug_*, platform.*, avm.* and the
 * contracts' own views), not only for its shape.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CurrencyCode, Glacier, Network, SortOrder, ValidationStatusType } from '@avalabs/glacier-sdk'
import {
  bytesToHex,
  concat,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  encodeAbiParameters,
  formatUnits,
  getAddress,
  getContractAddress,
  keccak256,
  parseEther,
  toFunctionSelector,
  toHex,
  type Abi,
  type Hex,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { formatAddress, hrpForNetworkId } from '../../../src/core/address.js'
import { cb58Decode } from '../../../src/core/cb58.js'
import { PRIMARY_NETWORK_ID, idFromString } from '../../../src/core/ids.js'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { Caller, Child, ERC20, Factory, Lib, TeleporterEvents, TestNFT1155, TestNFT721 } from '../../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob, carol] = [0, 1, 2].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
]
type Account = typeof alice
const DATA_DIR = 'test/.tmp/acceptance'
const KEY = 'acceptance-key'
const AVAX = 1_000_000_000n
const DAY = 86_400
/** Alice's second transaction deploys the token; its price is configured before it exists. */
const TOKEN = getContractAddress({ from: alice.address, nonce: 1n })
const PRICES = { usd: { [TOKEN]: '2.5', AVAX: '20' }, rates: { eur: '0.5' } }
const NFT_META = { name: 'Art #1', description: 'the first', image: 'ipfs://img/1', attributes: [{ trait_type: 'color', value: 'red' }] }
const NFT_URI = `data:application/json;base64,${Buffer.from(JSON.stringify(NFT_META)).toString('base64')}`
const ITEM_URI = 'data:application/json,{"name":"Item {id}"}'
const SALT = keccak256(toHex('acceptance'))
const MESSAGE_ID = keccak256(toHex('acceptance message'))

type Json = Record<string, any>
let devnet: Devnet
let glacier: Glacier
let chainId: string
let client: ReturnType<typeof createPublicClient>
let send: (account: Account, args: { to?: Hex; abi?: Abi; functionName?: string; args?: readonly unknown[]; bytecode?: Hex; value?: bigint }) => Promise<Hex>
/** EVM transaction hashes and contract addresses of the scenario. */
const tx: Record<string, Hex> = {}
const addr: Record<string, Hex> = {}
/** P- and X-chain transaction ids of the scenario. */
const ids = {} as Record<
  'xSend' | 'xExport' | 'pImport' | 'pSend' | 'addValidator' | 'addDelegator' | 'createSubnet' | 'createChain' | 'convert' | 'increase' | 'setWeight' | 'register' | 'disable' | 'pExport' | 'cImport' | 'cExport' | 'xImport',
  string
>
let subnetId: string
let validatorNodeId: string
let l1Validations: string[]
let registered: string
let pAddr: string
let xAddr: string

const rpc = async (method: string, params: unknown[] = []) => {
  const res = await fetch(devnet.rpcUrl('C'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: unknown }
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result as any
}
/** A node API call (platform.*, avm.*) on node 0. */
const nodeCall = async (path: string, method: string, params: Json) => {
  const res = await fetch(`${devnet.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: any; error?: unknown }
  if (body.error) throw new Error(JSON.stringify(body.error))
  return body.result
}
/** Every page of an SDK list, following nextPageToken, with the number of pages. */
async function pages<T>(list: (pageToken?: string) => Promise<{ nextPageToken?: string } & Record<string, unknown>>, key: string): Promise<{ items: T[]; count: number }> {
  const items: T[] = []
  let token: string | undefined
  let count = 0
  do {
    const page = await list(token)
    count++
    items.push(...(page[key] as T[]))
    token = page.nextPageToken
    expect(count).toBeLessThan(100)
  } while (token)
  return { items, count }
}
/** The block as eth_getBlockByNumber writes it, with coreth's Granite fields. */
const rawBlock = (n: bigint) => rpc('eth_getBlockByNumber', [toHex(n), false]) as Promise<{ timestampMilliseconds: Hex; minDelayExcess?: Hex }>
/** `NativeTransaction` as the chain describes the transaction (eth_getTransaction, receipt and block). */
async function nativeFromChain(hash: Hex, method: Json): Promise<Json> {
  const [t, receipt] = await Promise.all([client.getTransaction({ hash }), client.getTransactionReceipt({ hash })])
  const block = await client.getBlock({ blockNumber: receipt.blockNumber })
  const raw = await rawBlock(receipt.blockNumber)
  return {
    blockNumber: String(receipt.blockNumber),
    blockTimestamp: Number(block.timestamp),
    blockTimestampMilliseconds: Number(raw.timestampMilliseconds),
    blockMinDelayExcess: Number(raw.minDelayExcess),
    blockHash: receipt.blockHash,
    chainId,
    blockIndex: receipt.transactionIndex,
    txHash: hash,
    txStatus: receipt.status === 'success' ? '1' : '0',
    txType: 2,
    gasLimit: String(t.gas),
    gasUsed: String(receipt.gasUsed),
    gasPrice: String(receipt.effectiveGasPrice),
    nonce: String(t.nonce),
    from: { address: getAddress(t.from) },
    to: { address: getAddress(t.to ?? receipt.contractAddress!) },
    method,
    value: String(t.value),
  }
}
const selector = (abi: Abi, name: string) => toFunctionSelector(abi.find((e) => e.type === 'function' && e.name === name) as never)
const CONTRACT_CALL = (abi: Abi, name: string, methodName?: string) => ({ callType: 'CONTRACT_CALL', methodHash: selector(abi, name), ...(methodName ? { methodName } : {}) })
const CREATION = { callType: 'CONTRACT_CREATION', methodHash: '', methodName: 'Contract Created' }
const NATIVE = { callType: 'NATIVE_TRANSFER', methodHash: '', methodName: 'Native Transfer' }
const avax = (amount: bigint) => ({ assetId: expect.any(String), name: 'Avalanche', symbol: 'AVAX', denomination: 9, type: 'secp256k1', amount: String(amount) })
/** The devnet's own network name: the SDK types only the hosted names, and sends any string. */
const LOCAL = 'local' as Network

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, nodes: 2, node: { dataDir: DATA_DIR }, dataApi: { apiKeys: { [KEY]: 'free' }, prices: PRICES } })
  const network = devnet.network
  const chain = network.cChain
  chainId = String(chain.chainId)
  const provider = createEIP1193Provider({ network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('C')] } } })
  client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  send = async (account, { to, abi, functionName, args = [], bytecode, value }) => {
    const wallet = createWalletClient({ chain: viemChain, account, transport: custom(provider) })
    const hash = bytecode
      ? await wallet.deployContract({ abi: abi!, bytecode, args, ...(value ? { value } : {}) })
      : abi
        ? await wallet.writeContract({ address: to!, abi, functionName: functionName!, args, ...(value ? { value } : {}) } as never)
        : await wallet.sendTransaction({ to: to!, value: value ?? 0n })
    // Automine: the block is sealed before the hash comes back.
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success')
    return hash
  }
  const A = (artifact: { abi: unknown }) => artifact.abi as Abi
  const deploy = async (name: string, artifact: { abi: unknown; bytecode: string }, args: readonly unknown[] = []) => {
    tx[`deploy${name}`] = await send(alice, { abi: A(artifact), bytecode: artifact.bytecode as Hex, args })
    addr[name] = getAddress((await client.getTransactionReceipt({ hash: tx[`deploy${name}`]! })).contractAddress!)
  }

  // Native and ERC-20.
  tx.native = await send(alice, { to: bob.address, value: parseEther('1.5') })
  await deploy('Token', ERC20, ['Token', 'TOK', 1000n])
  expect(addr.Token).toBe(TOKEN)
  tx.erc20Bob = await send(alice, { to: TOKEN, abi: A(ERC20), functionName: 'transfer', args: [bob.address, 10n] })
  tx.erc20Carol = await send(alice, { to: TOKEN, abi: A(ERC20), functionName: 'transfer', args: [carol.address, 20n] })
  tx.erc20Bob2 = await send(alice, { to: TOKEN, abi: A(ERC20), functionName: 'transfer', args: [bob.address, 30n] })
  // ERC-721: token 1 with a data: URI, minted to bob, then sent to carol; token 2 without a URI.
  await deploy('Nft', TestNFT721, ['Art', 'ART', false])
  tx.setUri = await send(alice, { to: addr.Nft, abi: A(TestNFT721), functionName: 'setTokenURI', args: [1n, NFT_URI] })
  tx.mint1 = await send(alice, { to: addr.Nft, abi: A(TestNFT721), functionName: 'mint', args: [bob.address, 1n] })
  tx.mint2 = await send(alice, { to: addr.Nft, abi: A(TestNFT721), functionName: 'mint', args: [bob.address, 2n] })
  tx.nftToCarol = await send(bob, { to: addr.Nft, abi: A(TestNFT721), functionName: 'transferFrom', args: [bob.address, carol.address, 1n] })
  // ERC-1155: id 1 (5), then ids 2 and 3 (6, 7) in one batch, all to bob.
  await deploy('Items', TestNFT1155, [ITEM_URI])
  tx.itemMint = await send(alice, { to: addr.Items, abi: A(TestNFT1155), functionName: 'mint', args: [bob.address, 1n, 5n] })
  tx.itemBatch = await send(alice, { to: addr.Items, abi: A(TestNFT1155), functionName: 'mintBatch', args: [bob.address, [2n, 3n], [6n, 7n]] })
  // Contracts made by a contract (CREATE and CREATE2), and value calls with a caught revert.
  await deploy('Factory', Factory)
  await deploy('Lib', Lib)
  await deploy('Caller', Caller)
  tx.make = await send(alice, { to: addr.Factory, abi: A(Factory), functionName: 'make', args: [7n, SALT], value: 5n })
  addr.childA = getContractAddress({ from: addr.Factory!, nonce: 1n })
  addr.childB = getContractAddress({ opcode: 'CREATE2', from: addr.Factory!, salt: SALT, bytecode: concat([Child.bytecode as Hex, encodeAbiParameters([{ type: 'uint256' }], [8n])]) })
  tx.multi = await send(alice, { to: addr.Caller, abi: A(Caller), functionName: 'multi', args: [addr.childA, addr.Lib], value: 3n })
  // A teleporter message sent to the X-chain's blockchain id.
  await deploy('Messenger', TeleporterEvents)
  tx.teleport = await send(alice, { to: addr.Messenger, abi: A(TeleporterEvents), functionName: 'sendMessage', args: [MESSAGE_ID, bytesToHex(cb58Decode(network.preset.xChainId, 32)), '0x1234'] })
  // One block with three transactions (manual mining).
  await rpc('evm_setAutomine', [false])
  const carolWallet = createWalletClient({ chain: viemChain, account: carol, transport: custom(provider) })
  const carolNonce = await client.getTransactionCount({ address: carol.address })
  for (let i = 0; i < 3; i++) {
    tx[`batch${i}`] = await carolWallet.sendTransaction({ to: alice.address, value: BigInt(i + 1), nonce: carolNonce + i, gas: 21_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
  }
  await rpc('evm_mine')
  await rpc('evm_setAutomine', [true])
  network.registerArtifact(Factory)

  // The primary network: X and P transfers, a validator with a delegator, an L1 and its validators.
  const w = network.wallets(0)!
  const hrp = hrpForNetworkId(network.preset.networkId)
  pAddr = formatAddress('P', hrp, w.address)
  xAddr = formatAddress('X', hrp, w.address)
  const other = network.wallets(1)!.address
  ids.xSend = network.primary.xchain.issueTx(w.x.send([{ address: other, amount: 5n * AVAX }])).txId
  ;({ exportTxId: ids.xExport, importTxId: ids.pImport } = await network.transfer({ from: 'X', to: 'P', amount: 10n * AVAX, account: 0 }))
  ids.pSend = w.p.send([{ address: other, amount: AVAX }]).txId
  const t = network.primary.pchain.timestamp
  const node = network.newValidatorIdentity()
  validatorNodeId = node.nodeId
  ids.addValidator = w.p.addValidator({ node, stake: 2_000n * AVAX, end: t + 30 * DAY, delegationFee: 50_000 }).txId
  ids.addDelegator = w.p.addDelegator({ nodeId: node.nodeId, stake: 100n * AVAX, end: t + 10 * DAY }).txId
  const subnet = w.p.createSubnet()
  ids.createSubnet = subnet.txId
  subnetId = subnet.subnetId
  const created = w.p.createChain({ subnetId, name: 'accept', vmId: new Uint8Array(32).fill(1), genesis: '{"config":{"chainId":99999},"alloc":{}}' })
  ids.createChain = created.txId
  const l1Nodes = [network.newValidatorIdentity(), network.newValidatorIdentity()]
  const conv = w.p.convertSubnetToL1({
    subnetId, chainId: created.blockchainId, address: new Uint8Array(20).fill(0xee),
    validators: l1Nodes.map((n, i) => ({ node: n, weight: 100n + BigInt(i), balance: AVAX })),
  })
  ids.convert = conv.txId
  l1Validations = l1Nodes.map((n) => conv.validators.find((v) => v.nodeId === n.nodeId)!.validationId)
  ids.increase = w.p.increaseL1ValidatorBalance({ validationId: l1Validations[0]!, amount: 5_000n }).txId
  ids.setWeight = w.p.setL1ValidatorWeight({ validationId: l1Validations[1]!, weight: 250n, warpSigners: l1Nodes }).txId
  const reg = w.p.registerL1Validator({ subnetId, node: network.newValidatorIdentity(), weight: 50n, balance: 2n * AVAX, warpSigners: l1Nodes })
  ids.register = reg.txId
  registered = reg.validationId
  ids.disable = w.p.disableL1Validator({ validationId: registered }).txId
  ;({ exportTxId: ids.pExport, importTxId: ids.cImport } = await network.transfer({ from: 'P', to: 'C', amount: 3n * AVAX, account: 0 }))
  ;({ exportTxId: ids.cExport, importTxId: ids.xImport } = await network.transfer({ from: 'C', to: 'X', amount: AVAX, account: 0 }))
  // A day later (virtual clock): transactions have a historical price, L1 balances have paid fees.
  await network.advanceTime(DAY + 100)

  glacier = new Glacier({ BASE: devnet.url, HEADERS: { 'x-data-api-key': KEY } })
}, 30_000)

afterAll(async () => {
  await devnet?.close()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

describe('EVM chains (ops 1, 2)', () => {
  it('lists the C-chain and describes it as the network does', async () => {
    const { chains } = await glacier.evmChains.supportedChains({ network: LOCAL })
    expect(chains.map((c) => c.chainId)).toEqual([chainId])
    expect((await glacier.evmChains.supportedChains({ network: Network.MAINNET })).chains).toEqual([])
    const info = await glacier.evmChains.getChainInfo({ chainId })
    expect(info).toMatchObject({
      chainId, status: 'OK', platformChainId: devnet.network.preset.cChainId, subnetId: PRIMARY_NETWORK_ID, vmName: 'EVM',
      networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    })
    expect(chains[0]).toEqual(info)
    // The rpcUrl it gives serves the chain it describes.
    const res = await fetch(info.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })
    expect(BigInt(((await res.json()) as { result: Hex }).result)).toBe(BigInt(chainId))
    expect((await glacier.evmChains.getChainInfo({ chainId: devnet.network.preset.cChainId })).chainId).toBe(chainId)
  })
})

describe('blocks (ops 11, 12)', () => {
  it('pages every block to genesis, newest first, each as eth_getBlockByNumber has it', async () => {
    const height = await client.getBlockNumber()
    const { items, count } = await pages<Json>((pageToken) => glacier.evmBlocks.getLatestBlocks({ chainId, pageSize: 10, ...(pageToken ? { pageToken } : {}) }), 'blocks')
    expect(count).toBe(Math.ceil(Number(height + 1n) / 10))
    expect(items.map((b) => b.blockNumber)).toEqual(Array.from({ length: Number(height) + 1 }, (_, i) => String(Number(height) - i)))
    let cumulative = 0
    const ascending = [...items].reverse()
    for (const b of ascending) {
      const block = await client.getBlock({ blockNumber: BigInt(b.blockNumber) })
      cumulative += block.transactions.length
      const raw = await rawBlock(block.number)
      expect(b.blockTimestampMilliseconds).toBe(Number(raw.timestampMilliseconds))
      expect(b.blockMinDelayExcess).toBe(raw.minDelayExcess === undefined ? undefined : Number(raw.minDelayExcess))
      expect(b).toMatchObject({
        chainId, blockHash: block.hash, parentHash: block.parentHash, blockTimestamp: Number(block.timestamp), txCount: block.transactions.length,
        gasUsed: String(block.gasUsed), gasLimit: String(block.gasLimit), baseFee: String(block.baseFeePerGas ?? 0n), cumulativeTransactions: String(cumulative),
      })
    }
  })

  it('lists a block\'s transactions by number and by hash, paged within the block', async () => {
    const receipt = await client.getTransactionReceipt({ hash: tx.batch0! })
    const block = await client.getBlock({ blockNumber: receipt.blockNumber })
    expect(block.transactions).toEqual([tx.batch0, tx.batch1, tx.batch2])
    const expected = await Promise.all(block.transactions.map((h) => nativeFromChain(h, NATIVE)))
    for (const blockId of [String(receipt.blockNumber), block.hash!]) {
      const { items, count } = await pages<Json>((pageToken) => glacier.evmTransactions.getTransactionsForBlock({ chainId, blockId, pageSize: 1, ...(pageToken ? { pageToken } : {}) }), 'transactions')
      expect(count).toBe(3)
      expect(items).toEqual(expected)
    }
    expect(expected.map((t) => [t.blockIndex, t.value, t.to.address])).toEqual([[0, '1', alice.address], [1, '2', alice.address], [2, '3', alice.address]])
    const one = await glacier.evmTransactions.getTransactionsForBlock({ chainId, blockId: String((await client.getTransactionReceipt({ hash: tx.erc20Bob! })).blockNumber) })
    expect(one.transactions).toEqual([await nativeFromChain(tx.erc20Bob!, CONTRACT_CALL(ERC20.abi as Abi, 'transfer', 'transfer(address,uint256)'))])
  })
})

describe('native transactions (op 4)', () => {
  it('pages every transaction alice sent or received, as the blocks list them', async () => {
    const height = await client.getBlockNumber()
    const mine: Hex[] = []
    for (let n = 1n; n <= height; n++) {
      const block = await client.getBlock({ blockNumber: n, includeTransactions: true })
      for (const t of block.transactions) if (t.from === alice.address.toLowerCase() || t.to === alice.address.toLowerCase()) mine.push(t.hash)
    }
    const { items, count } = await pages<Json>((pageToken) => glacier.evmTransactions.listNativeTransactions({ chainId, address: alice.address, pageSize: 4, ...(pageToken ? { pageToken } : {}) }), 'transactions')
    expect(count).toBe(Math.ceil(mine.length / 4))
    expect(items.map((t) => t.txHash)).toEqual([...mine].reverse())
    const byHash = new Map(items.map((t) => [t.txHash as Hex, t]))
    expect(byHash.get(tx.native!)).toEqual(await nativeFromChain(tx.native!, NATIVE))
    expect(byHash.get(tx.deployToken!)).toEqual(await nativeFromChain(tx.deployToken!, CREATION))
    // A method named by an ABI registered with the network (registerArtifact).
    expect(byHash.get(tx.make!)).toEqual(await nativeFromChain(tx.make!, CONTRACT_CALL(Factory.abi as Abi, 'make', 'make(uint256,bytes32)')))
    expect(byHash.get(tx.make!)!.value).toBe('5')
  })

  it('names a method once its ABI is registered', async () => {
    const before = await glacier.evmTransactions.listNativeTransactions({ chainId, address: addr.Messenger!, pageSize: 1 })
    expect(before.transactions[0]!.txHash).toBe(tx.teleport)
    expect(before.transactions[0]!.method).toEqual(CONTRACT_CALL(TeleporterEvents.abi as Abi, 'sendMessage'))
    expect(devnet.network.registerAbi(TeleporterEvents.abi as never)).toContain('sendMessage(bytes32,bytes32,bytes)')
    const after = await glacier.evmTransactions.listNativeTransactions({ chainId, address: addr.Messenger!, pageSize: 1 })
    expect(after.transactions[0]!.method).toEqual(CONTRACT_CALL(TeleporterEvents.abi as Abi, 'sendMessage', 'sendMessage(bytes32,bytes32,bytes)'))
  })
})

describe('token transfers (ops 5, 6, 7)', () => {
  const head = async (hash: Hex) => {
    const r = await client.getTransactionReceipt({ hash })
    const block = await client.getBlock({ blockNumber: r.blockNumber })
    const raw = await rawBlock(r.blockNumber)
    return { blockNumber: String(r.blockNumber), blockTimestamp: Number(block.timestamp), blockTimestampMilliseconds: Number(raw.timestampMilliseconds), blockHash: r.blockHash, txHash: hash }
  }
  const token = { address: TOKEN, name: 'Token', symbol: 'TOK', decimals: 18, ercType: 'ERC-20', price: { currencyCode: 'usd', value: 2.5 } }

  it('lists bob\'s ERC-20 transfers with the token\'s configured price', async () => {
    const { transactions } = await glacier.evmTransactions.listErc20Transactions({ chainId, address: bob.address })
    expect(transactions).toEqual([
      { ...(await head(tx.erc20Bob2!)), from: { address: alice.address }, to: { address: bob.address }, logIndex: 0, value: '30', erc20Token: token },
      { ...(await head(tx.erc20Bob!)), from: { address: alice.address }, to: { address: bob.address }, logIndex: 0, value: '10', erc20Token: token },
    ])
    expect(await client.readContract({ address: TOKEN, abi: ERC20.abi as Abi, functionName: 'balanceOf', args: [bob.address] })).toBe(40n)
  })

  it('pages every transfer of the token, the mint included', async () => {
    const { items, count } = await pages<Json>((pageToken) => glacier.evmTransactions.listTransfers({ chainId, address: TOKEN, pageSize: 1, ...(pageToken ? { pageToken } : {}) }), 'transfers')
    expect(count).toBe(4)
    expect(items.map((t) => [t.txHash, t.from.address, t.to.address, t.value])).toEqual([
      [tx.erc20Bob2, alice.address, bob.address, '30'],
      [tx.erc20Carol, alice.address, carol.address, '20'],
      [tx.erc20Bob, alice.address, bob.address, '10'],
      [tx.deployToken, '0x0000000000000000000000000000000000000000', alice.address, '1000'],
    ])
    // What the logs say: one Transfer per transaction.
    const logs = await client.getLogs({ address: TOKEN, fromBlock: 0n })
    expect(logs.map((l) => l.transactionHash).reverse()).toEqual(items.map((t) => t.txHash))
    expect(items.map((t) => t.logIndex)).toEqual(logs.map((l) => l.logIndex).reverse())
  })

  it('lists bob\'s ERC-721 transfers and an ERC-1155 collection\'s transfers', async () => {
    const { transactions } = await glacier.evmTransactions.listErc721Transactions({ chainId, address: bob.address })
    expect(transactions.map((t) => [t.txHash, t.from.address, t.to.address, t.erc721Token.tokenId, t.erc721Token.address, t.erc721Token.name, t.erc721Token.symbol])).toEqual([
      [tx.nftToCarol, bob.address, carol.address, '1', getAddress(addr.Nft!), 'Art', 'ART'],
      [tx.mint2, '0x0000000000000000000000000000000000000000', bob.address, '2', getAddress(addr.Nft!), 'Art', 'ART'],
      [tx.mint1, '0x0000000000000000000000000000000000000000', bob.address, '1', getAddress(addr.Nft!), 'Art', 'ART'],
    ])
    expect(transactions[0]).toMatchObject(await head(tx.nftToCarol!))
    expect(transactions[0]!.erc721Token.tokenUri).toBe(NFT_URI)
    const items = await glacier.evmTransactions.listTransfers({ chainId, address: addr.Items! })
    expect((items.transfers as Json[]).map((t) => [t.txHash, t.to.address, t.erc1155Token.tokenId, t.value, t.erc1155Token.ercType])).toEqual([
      // One TransferBatch log: its ids in the log's order.
      [tx.itemBatch, bob.address, '2', '6', 'ERC-1155'],
      [tx.itemBatch, bob.address, '3', '7', 'ERC-1155'],
      [tx.itemMint, bob.address, '1', '5', 'ERC-1155'],
    ])
  })
})

describe('NFTs and balances (ops 8, 13)', () => {
  it('lists the ERC-721 collection with owners, token URIs and the data: URI metadata', async () => {
    const { tokens } = await glacier.nfTs.listTokens({ chainId, address: addr.Nft! })
    const owner = (id: bigint) => client.readContract({ address: addr.Nft!, abi: TestNFT721.abi as Abi, functionName: 'ownerOf', args: [id] })
    const uri = (id: bigint) => client.readContract({ address: addr.Nft!, abi: TestNFT721.abi as Abi, functionName: 'tokenURI', args: [id] })
    expect(await owner(1n)).toBe(carol.address)
    expect(await owner(2n)).toBe(bob.address)
    expect(tokens).toEqual([
      {
        address: getAddress(addr.Nft!), name: 'Art', symbol: 'ART', ercType: 'ERC-721', tokenId: '1', tokenUri: await uri(1n),
        metadata: {
          indexStatus: 'INDEXED', metadataLastUpdatedTimestamp: expect.any(Number), name: NFT_META.name, imageUri: NFT_META.image,
          description: NFT_META.description, attributes: JSON.stringify(NFT_META.attributes),
        },
        ownerAddress: await owner(1n),
      },
      {
        address: getAddress(addr.Nft!), name: 'Art', symbol: 'ART', ercType: 'ERC-721', tokenId: '2', tokenUri: await uri(2n),
        metadata: { indexStatus: 'INVALID_TOKEN_URI', metadataLastUpdatedTimestamp: expect.any(Number) },
        ownerAddress: await owner(2n),
      },
    ])
  })

  it('lists bob\'s ERC-1155 balances and his priced native balance', async () => {
    const { items, count } = await pages<Json>((pageToken) => glacier.evmBalances.listErc1155Balances({ chainId, address: bob.address, pageSize: 2, ...(pageToken ? { pageToken } : {}) }), 'erc1155TokenBalances')
    expect(count).toBe(2)
    const onChain = async (id: bigint) => String(await client.readContract({ address: addr.Items!, abi: TestNFT1155.abi as Abi, functionName: 'balances', args: [id, bob.address] }))
    expect(items.map((b) => [b.address, b.tokenId, b.balance, b.chainId])).toEqual([
      [getAddress(addr.Items!), '1', await onChain(1n), chainId],
      [getAddress(addr.Items!), '2', await onChain(2n), chainId],
      [getAddress(addr.Items!), '3', await onChain(3n), chainId],
    ])
    expect(items.map((b) => b.balance)).toEqual(['5', '6', '7'])
    expect(items[2]!.metadata).toMatchObject({ indexStatus: 'INDEXED', name: `Item ${(3n).toString(16).padStart(64, '0')}` })
    const page = await glacier.evmBalances.listErc1155Balances({ chainId, address: bob.address, contractAddress: addr.Items! })
    const balance = await client.getBalance({ address: bob.address })
    expect(page.nativeTokenBalance).toEqual({
      name: 'Avalanche', symbol: 'AVAX', decimals: 18, chainId, price: { currencyCode: 'usd', value: 20 },
      balance: String(balance), balanceValue: { currencyCode: 'usd', value: Number(formatUnits(balance * 20n, 18)) },
    })
    // At an earlier block: before the batch, only id 1.
    const before = (await client.getTransactionReceipt({ hash: tx.itemBatch! })).blockNumber - 1n
    const old = await glacier.evmBalances.listErc1155Balances({ chainId, address: bob.address, blockNumber: String(before) })
    expect(old.erc1155TokenBalances.map((b) => [b.tokenId, b.balance])).toEqual([['1', '5']])
    expect(old.nativeTokenBalance.balance).toBe(String(await client.getBalance({ address: bob.address, blockNumber: before })))
  })
})

type Frame = { from: Hex; to?: Hex; type: string; value?: Hex; gas: Hex; gasUsed: Hex; error?: string; calls?: Frame[] }
/** The frames the hosted API lists as internal transactions (value calls and creations), from debug_traceTransaction. */
async function internalFromTrace(hash: Hex): Promise<Json[]> {
  const out: Json[] = []
  const walk = (f: Frame, reverted: boolean) => {
    for (const c of f.calls ?? []) {
      const isReverted = reverted || c.error !== undefined
      const value = BigInt(c.value ?? '0x0')
      if (c.type.startsWith('CREATE') || (c.type === 'CALL' && value > 0n)) {
        out.push({ from: { address: getAddress(c.from) }, to: { address: getAddress(c.to!) }, internalTxType: c.type, value: String(value), isReverted, gasUsed: String(BigInt(c.gasUsed)), gasLimit: String(BigInt(c.gas)) })
      }
      walk(c, isReverted)
    }
  }
  walk((await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }])) as Frame, false)
  return out
}
/** `FullNativeTransactionDetails`: the list model plus what the transaction and its block add. */
async function fullFromChain(hash: Hex, method: Json): Promise<Json> {
  const t = await client.getTransaction({ hash })
  const block = await client.getBlock({ blockNumber: t.blockNumber! })
  return { ...(await nativeFromChain(hash, method)), input: t.input, baseFeePerGas: String(block.baseFeePerGas), maxFeePerGas: String(t.maxFeePerGas), maxPriorityFeePerGas: String(t.maxPriorityFeePerGas) }
}
const NETWORK_TOKEN = { name: 'Avalanche', symbol: 'AVAX', decimals: 18 }

describe('one transaction (ops 9, 10)', () => {
  it('gives an ERC-20 transfer with its token, full native fields and prices', async () => {
    const body = await glacier.evmTransactions.getTransaction({ chainId, txHash: tx.erc20Carol! })
    const usd = { currencyCode: 'usd', value: 20 }
    expect(body).toEqual({
      erc20Transfers: [{ from: { address: alice.address }, to: { address: carol.address }, logIndex: 0, value: '20', erc20Token: { address: TOKEN, name: 'Token', symbol: 'TOK', decimals: 18, ercType: 'ERC-20', price: { currencyCode: 'usd', value: 2.5 } } }],
      networkTokenDetails: { networkToken: expect.objectContaining(NETWORK_TOKEN), currentPrice: usd, historicalPrice: usd },
      nativeTransaction: await fullFromChain(tx.erc20Carol!, CONTRACT_CALL(ERC20.abi as Abi, 'transfer', 'transfer(address,uint256)')),
    })
  })

  it('gives the internal transactions as the call tracer has them', async () => {
    const multi = await glacier.evmTransactions.getTransaction({ chainId, txHash: tx.multi! })
    const frames = await internalFromTrace(tx.multi!)
    expect(frames.map((f) => [f.internalTxType, f.value, f.isReverted])).toEqual([['CALL', '2', false], ['CALL', '1', true]])
    expect(multi.internalTransactions).toEqual(frames)
    expect(multi.nativeTransaction).toEqual(await fullFromChain(tx.multi!, CONTRACT_CALL(Caller.abi as Abi, 'multi')))
    const made = await glacier.evmTransactions.getTransaction({ chainId, txHash: tx.make! })
    expect(made.internalTransactions).toEqual(await internalFromTrace(tx.make!))
    expect(made.internalTransactions!.map((f) => [f.internalTxType, f.to.address, f.value])).toEqual([['CREATE', getAddress(addr.childA!), '0'], ['CREATE2', getAddress(addr.childB!), '5']])
    expect(await client.getBalance({ address: addr.childB! })).toBe(5n)
  })

  it('gives ERC-721 and ERC-1155 transfers of a transaction', async () => {
    const moved = await glacier.evmTransactions.getTransaction({ chainId, txHash: tx.nftToCarol! })
    expect(moved.erc721Transfers).toEqual([{
      from: { address: bob.address }, to: { address: carol.address }, logIndex: 0,
      erc721Token: { address: getAddress(addr.Nft!), name: 'Art', symbol: 'ART', ercType: 'ERC-721', tokenId: '1', tokenUri: NFT_URI, metadata: expect.objectContaining({ indexStatus: 'INDEXED', name: NFT_META.name }) },
    }])
    const batch = await glacier.evmTransactions.getTransaction({ chainId, txHash: tx.itemBatch! })
    expect(batch.erc1155Transfers!.map((t) => [t.from.address, t.to.address, t.erc1155Token.tokenId, t.value, t.logIndex])).toEqual([
      ['0x0000000000000000000000000000000000000000', bob.address, '2', '6', 0],
      ['0x0000000000000000000000000000000000000000', bob.address, '3', '7', 0],
    ])
  })

  it('marks the teleporter send as the source transaction', async () => {
    const body = await glacier.evmTransactions.getTransaction({ chainId, txHash: tx.teleport! })
    expect(body.teleporterMessageInfo).toEqual({ teleporterMessageId: MESSAGE_ID.slice(2), direction: 'SOURCE_TRANSACTION', destinationChainId: devnet.network.preset.xChainId })
    const logs = (await client.getTransactionReceipt({ hash: tx.teleport! })).logs
    expect(logs[0]!.topics[1]).toBe(MESSAGE_ID)
  })

  it('finds the deployment of a contract, one a contract created included, with prices in the asked currency', async () => {
    const token = await glacier.evmTransactions.getDeploymentTransaction({ chainId, address: TOKEN, currency: CurrencyCode.EUR })
    const eur = { currencyCode: 'eur', value: 10 }
    expect(token).toEqual({
      erc20Transfers: [{ from: { address: '0x0000000000000000000000000000000000000000' }, to: { address: alice.address }, logIndex: 0, value: '1000', erc20Token: expect.objectContaining({ address: TOKEN, price: { currencyCode: 'eur', value: 1.25 } }) }],
      networkTokenDetails: { networkToken: expect.objectContaining(NETWORK_TOKEN), currentPrice: eur, historicalPrice: eur },
      nativeTransaction: await fullFromChain(tx.deployToken!, CREATION),
    })
    for (const child of [addr.childA!, addr.childB!]) {
      const body = await glacier.evmTransactions.getDeploymentTransaction({ chainId, address: child })
      expect(body.nativeTransaction).toEqual(await fullFromChain(tx.make!, CONTRACT_CALL(Factory.abi as Abi, 'make', 'make(uint256,bytes32)')))
      expect(body.nativeTransaction.from.address).toBe(alice.address)
      expect(body.internalTransactions).toEqual(await internalFromTrace(tx.make!))
    }
    await expect(glacier.evmTransactions.getDeploymentTransaction({ chainId, address: bob.address })).rejects.toMatchObject({ status: 404 })
  })
})

describe('address transactions (op 3)', () => {
  it('gives each of bob\'s transactions with the transfers he sent or received', async () => {
    const { items, count } = await pages<Json>((pageToken) => glacier.evmTransactions.listTransactions({ chainId, address: bob.address, pageSize: 3, ...(pageToken ? { pageToken } : {}) }), 'transactions')
    const expected = [tx.itemBatch, tx.itemMint, tx.nftToCarol, tx.mint2, tx.mint1, tx.erc20Bob2, tx.erc20Bob, tx.native]
    expect(items.map((t) => t.nativeTransaction.txHash)).toEqual(expected)
    expect(count).toBe(3)
    const by = new Map(items.map((t) => [t.nativeTransaction.txHash as Hex, t]))
    expect(by.get(tx.native!)).toEqual({ nativeTransaction: await nativeFromChain(tx.native!, NATIVE) })
    expect(by.get(tx.erc20Bob!)!.erc20Transfers.map((t: Json) => [t.from.address, t.to.address, t.value])).toEqual([[alice.address, bob.address, '10']])
    expect(by.get(tx.nftToCarol!)!.erc721Transfers.map((t: Json) => [t.from.address, t.to.address, t.erc721Token.tokenId])).toEqual([[bob.address, carol.address, '1']])
    expect(by.get(tx.itemBatch!)!.erc1155Transfers.map((t: Json) => [t.erc1155Token.tokenId, t.value])).toEqual([['2', '6'], ['3', '7']])
    // Ascending order gives the same transactions the other way round.
    const asc = await glacier.evmTransactions.listTransactions({ chainId, address: bob.address, pageSize: 100, sortOrder: SortOrder.ASC })
    expect(asc.transactions.map((t) => t.nativeTransaction.txHash)).toEqual([...expected].reverse())
  })

  it('gives a contract\'s internal transactions', async () => {
    const { transactions } = await glacier.evmTransactions.listTransactions({ chainId, address: addr.Caller! })
    const multi = transactions.find((t) => t.nativeTransaction.txHash === tx.multi)!
    expect(multi.internalTransactions).toEqual(await internalFromTrace(tx.multi!))
    expect(transactions[0]!.nativeTransaction.txHash).toBe(tx.multi)
    // Alice's view of the same transaction: none of its frames is hers.
    const ofAlice = await glacier.evmTransactions.listTransactions({ chainId, address: alice.address, startBlock: Number(multi.nativeTransaction.blockNumber), endBlock: Number(multi.nativeTransaction.blockNumber) + 1 })
    expect(ofAlice.transactions).toEqual([{ nativeTransaction: multi.nativeTransaction }])
  })
})

describe('primary network (ops 14, 15, 16, 17)', () => {
  const utxos = (blockchainId: string, addresses: string, query: Json = {}) =>
    glacier.request.request<Json>({ method: 'POST', url: '/v1/networks/{network}/blockchains/{blockchainId}/utxos', path: { network: 'local', blockchainId }, query, body: { addresses }, mediaType: 'application/json' })
  const latest = (blockchainId: string, query: Json) => (pageToken?: string) =>
    glacier.primaryNetworkTransactions.listLatestPrimaryNetworkTransactions({ blockchainId: blockchainId as never, network: LOCAL, ...query, ...(pageToken ? { pageToken } : {}) }) as Promise<Json>

  it('lists P-chain UTXOs: the unspent ones are what platform.getBalance counts, stake and spent ones are marked', async () => {
    const live = await utxos('p-chain', pAddr, { pageSize: 100 })
    expect(live.chainInfo).toEqual({ chainName: 'p-chain', network: 'fuji' })
    const balance = await nodeCall('/ext/bc/P', 'platform.getBalance', { addresses: [pAddr] })
    const unspent = (live.utxos as Json[]).filter((u) => !u.staked)
    expect(unspent.map((u) => `${u.txHash}:${u.outputIndex}`).sort()).toEqual((balance.utxoIDs as Json[]).map((u) => `${u.txID}:${u.outputIndex}`).sort())
    expect(unspent.reduce((s, u) => s + BigInt(u.amount), 0n)).toBe(BigInt(balance.balance))
    expect(unspent.every((u) => u.consumingTxHash === undefined)).toBe(true)
    const staked = (live.utxos as Json[]).filter((u) => u.staked).map((u) => [u.txHash, u.amount, u.utxoType])
    expect(staked.sort()).toEqual([[ids.addDelegator, String(100n * AVAX), 'STAKE'], [ids.addValidator, String(2_000n * AVAX), 'STAKE']].sort())
    const all = await utxos('p-chain', pAddr, { pageSize: 100, includeSpent: true })
    const spent = (all.utxos as Json[]).filter((u) => u.consumingTxHash !== undefined)
    expect(spent.length).toBeGreaterThan(0)
    const pTxs = new Set<string>([ids.pImport, ids.pSend, ids.addValidator, ids.addDelegator, ids.createSubnet, ids.createChain, ids.convert, ids.increase, ids.setWeight, ids.register, ids.disable, ids.pExport])
    for (const u of spent) expect(pTxs.has(u.consumingTxHash)).toBe(true)
    expect(all.utxos.length).toBe(live.utxos.length + spent.length)
    // The import's output came from the X-chain export.
    const xLive = await utxos('x-chain', xAddr, { pageSize: 100 })
    const xSum = (xLive.utxos as Json[]).reduce((s, u) => s + BigInt(u.asset.amount), 0n)
    expect(xSum).toBe(devnet.network.primary.xchain.balanceOf(devnet.network.wallets(0)!.address))
  })

  it('pages the P-chain transactions of an address, with each type\'s fields', async () => {
    const { items, count } = await pages<Json>(latest('p-chain', { addresses: pAddr, pageSize: 3 }), 'transactions')
    const order = [ids.pExport, ids.disable, ids.register, ids.setWeight, ids.increase, ids.convert, ids.createChain, ids.createSubnet, ids.addDelegator, ids.addValidator, ids.pSend, ids.pImport]
    expect(items.map((t) => t.txHash)).toEqual(order)
    expect(count).toBe(4)
    expect(items.map((t) => t.txType)).toEqual([
      'ExportTx', 'DisableL1ValidatorTx', 'RegisterL1ValidatorTx', 'SetL1ValidatorWeightTx', 'IncreaseL1ValidatorBalanceTx', 'ConvertSubnetToL1Tx',
      'CreateChainTx', 'CreateSubnetTx', 'AddPermissionlessDelegatorTx', 'AddPermissionlessValidatorTx', 'BaseTx', 'ImportTx',
    ])
    const by = new Map(items.map((t) => [t.txHash as string, t]))
    const height = Number((await nodeCall('/ext/bc/P', 'platform.getHeight', {})).height)
    for (const t of items) {
      expect(Number(t.blockNumber)).toBeLessThanOrEqual(height)
      expect((await nodeCall('/ext/bc/P', 'platform.getTxStatus', { txID: t.txHash })).status).toBe('Committed')
    }
    expect(by.get(ids.addValidator)).toMatchObject({ nodeId: validatorNodeId, subnetId: PRIMARY_NETWORK_ID, amountStaked: [avax(2_000n * AVAX)], delegationFeePercent: '5.0000' })
    expect(by.get(ids.addDelegator)).toMatchObject({ nodeId: validatorNodeId, amountStaked: [avax(100n * AVAX)] })
    expect(by.get(ids.convert)!.l1ValidatorDetails.map((d: Json) => [d.validationId, d.weight]).sort()).toEqual([[l1Validations[0], 100], [l1Validations[1], 101]].sort())
    expect(by.get(ids.increase)).toMatchObject({ amountL1ValidatorBalanceBurned: [avax(5_000n)] })
    expect(by.get(ids.pImport)).toMatchObject({ sourceChain: devnet.network.preset.xChainId })
    expect(by.get(ids.pExport)).toMatchObject({ destinationChain: devnet.network.preset.cChainId })
    const staking = await latest('p-chain', { addresses: pAddr, txTypes: ['AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx'], sortOrder: 'asc' })()
    expect(staking.transactions.map((t: Json) => t.txHash)).toEqual([ids.addValidator, ids.addDelegator])
    const l1 = await latest('p-chain', { l1ValidationId: registered })()
    expect(l1.transactions.map((t: Json) => t.txHash)).toEqual([ids.disable, ids.register])
  })

  it('lists the X-chain and C-chain atomic transactions of the account', async () => {
    const x = await pages<Json>(latest('x-chain', { addresses: xAddr, pageSize: 2 }), 'transactions')
    expect(x.items.map((t) => [t.txHash, t.txType])).toEqual([[ids.xImport, 'ImportTx'], [ids.xExport, 'ExportTx'], [ids.xSend, 'BaseTx']])
    const c = await latest('c-chain', { addresses: devnet.network.devAccounts[0]!.address.toLowerCase() })()
    expect(c.transactions.map((t: Json) => [t.txHash, t.txType])).toEqual([[ids.cExport, 'ExportTx'], [ids.cImport, 'ImportTx']])
  })

  it('pages the primary validators as platform.getCurrentValidators has them', async () => {
    const current = (await nodeCall('/ext/bc/P', 'platform.getCurrentValidators', {})).validators as Json[]
    const { items, count } = await pages<Json>((pageToken) => glacier.primaryNetwork.listValidators({ network: LOCAL, validationStatus: ValidationStatusType.ACTIVE, pageSize: 1, ...(pageToken ? { pageToken } : {}) }), 'validators')
    expect(count).toBe(current.length)
    expect(items.map((v) => v.nodeId).sort()).toEqual(current.map((v) => v.nodeID).sort())
    expect(items.map((v) => v.nodeId).sort()).toEqual([...devnet.network.nodes.map((n) => n.nodeId), validatorNodeId].sort())
    for (const v of items) {
      const c = current.find((x) => x.nodeID === v.nodeId)!
      expect(v).toMatchObject({
        txHash: c.txID, amountStaked: c.weight, startTimestamp: Number(c.startTime), endTimestamp: Number(c.endTime), delegationFee: c.delegationFee,
        delegatorCount: Number(c.delegatorCount), amountDelegated: c.delegatorWeight, validationStatus: 'active', subnetId: PRIMARY_NETWORK_ID,
      })
    }
    expect(items.find((v) => v.nodeId === validatorNodeId)).toMatchObject({ txHash: ids.addValidator, amountStaked: String(2_000n * AVAX), delegatorCount: 1, amountDelegated: String(100n * AVAX), delegationFee: '5.0000' })
  })

  it('lists the L1 validators as platform.getL1Validator has them', async () => {
    const active = await glacier.primaryNetwork.listL1Validators({ network: LOCAL, subnetId })
    expect(active.blockHeight).toBe((await nodeCall('/ext/bc/P', 'platform.getHeight', {})).height)
    expect(active.validators.map((v) => v.validationId).sort()).toEqual([...l1Validations].sort())
    const { items, count } = await pages<Json>((pageToken) => glacier.primaryNetwork.listL1Validators({ network: LOCAL, subnetId, includeInactiveL1Validators: true, pageSize: 1, ...(pageToken ? { pageToken } : {}) }), 'validators')
    expect(count).toBe(3)
    expect(items.map((v) => v.validationId).sort()).toEqual([...l1Validations, registered].sort())
    for (const v of items) {
      const p = await nodeCall('/ext/bc/P', 'platform.getL1Validator', { validationID: v.validationId })
      expect(v).toMatchObject({
        validationIdHex: bytesToHex(idFromString(v.validationId)), nodeId: p.nodeID, subnetId, weight: Number(p.weight), remainingBalance: Number(p.balance),
        creationTimestamp: Number(p.startTime), remainingBalanceOwner: { threshold: 1 },
      })
    }
    const weights = new Map(items.map((v) => [v.validationId as string, v.weight]))
    expect([weights.get(l1Validations[0]!), weights.get(l1Validations[1]!), weights.get(registered)]).toEqual([100, 250, 50])
    const balances = new Map(items.map((v) => [v.validationId as string, v.remainingBalance as number]))
    expect(balances.get(registered)).toBe(0)
    // A day of fees paid from the same deposit; the increased one has 5,000 nAVAX more.
    expect(balances.get(l1Validations[0]!)! - balances.get(l1Validations[1]!)!).toBe(5_000)
    expect(balances.get(l1Validations[1]!)!).toBeLessThan(Number(AVAX))
    const byNode = await glacier.primaryNetwork.listL1Validators({ network: LOCAL, nodeId: items.find((v) => v.validationId === l1Validations[1])!.nodeId })
    expect(byNode.validators.map((v) => v.validationId)).toEqual([l1Validations[1]])
  })
})
