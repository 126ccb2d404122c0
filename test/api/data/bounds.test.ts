/**
 * Every bound, enum and bad page token of the 17 /v1 operations (SPEC.md §4.4, §4.5, §8;
 * data-api.md §5, §11): each bad value answers 400 with the exact class-validator style message,
 * several bad fields answer one message each, the edges of every range are accepted, and unknown
 * chains, transactions, blocks and contracts answer 404. Table-driven, over one devnet.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, encodeAbiParameters, pad, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { formatAddress, hrpForNetworkId } from '../../../src/core/address.js'
import { bytesToHex } from '../../../src/core/hex.js'
import { idFromString } from '../../../src/core/ids.js'
import { setCode } from '../../../src/evm/cheats.js'
import { TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '../../../src/indexer/index.js'
import { INVALID_PAGE_TOKEN, PAGE_TOKEN_FILTER_MISMATCH } from '../../../src/api/routes/data/index.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { ERC20 } from '../../fixtures/contracts/index.js'
import { testGenesis } from '../../l1/helpers.js'

const DATA_DIR = 'test/.tmp/data-api-bounds'
const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob, carol] = [0, 1, 2].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
]
const ZERO = '0x0000000000000000000000000000000000000000'
/** LOG4 emitter (test/indexer/evm.test.ts): the first four calldata words are the topics, the rest the data. */
const LOGGER_CODE = '0x60803603806080600037606035604035602035600035846000a400'
const NFT721 = '0x00000000000000000000000000000000000b0721' as Hex
const NFT1155 = '0x00000000000000000000000000000000000b1155' as Hex
const AVAX = 1_000_000_000n
const HOSTED_IDS = {
  p: '11111111111111111111111111111111LpoYY',
  xMainnet: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
  xFuji: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
  cMainnet: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  cFuji: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
}
const CURRENCIES = 'usd, eur, aud, cad, chf, clp, cny, czk, dkk, gbp, hkd, huf, jpy, nzd'
const TX_TYPES =
  'AddValidatorTx, AddSubnetValidatorTx, AddDelegatorTx, CreateChainTx, CreateSubnetTx, ImportTx, ExportTx, AdvanceTimeTx, RewardValidatorTx, ' +
  'RemoveSubnetValidatorTx, TransformSubnetTx, AddPermissionlessValidatorTx, AddPermissionlessDelegatorTx, BaseTx, TransferSubnetOwnershipTx, ' +
  'ConvertSubnetToL1Tx, RegisterL1ValidatorTx, SetL1ValidatorWeightTx, DisableL1ValidatorTx, IncreaseL1ValidatorBalanceTx, UNKNOWN, CreateAssetTx, OperationTx'
const NETWORKS = 'network must be one of the following values: mainnet, fuji, testnet, local, 12345'
const SORT_ORDER = 'sortOrder must be one of the following values: asc, desc'
const CAPACITY = (name: string) => `${name} must be an integer string between 0 and 720000000000000000`

type Json = Record<string, unknown>
type Req = { method?: 'GET' | 'POST'; path: string; query?: string; body?: unknown }
const bad = (...message: string[]) => ({ message, statusCode: 400, error: 'Bad Request' })
const notFound = (message: string) => ({ message, statusCode: 404, error: 'Not Found' })

let devnet: Devnet
let cid: string
let l1Cid: string
let erc20: Hex
let block1Hash: Hex
let xChainId: string
let cChainId: string
let pOther: string
let pSelf: string
let validationIds: string[]

async function send(req: Req, extra = ''): Promise<{ status: number; body: Json }> {
  const query = [req.query, extra].filter((q) => q !== undefined && q !== '').join('&')
  const url = query === '' ? req.path : `${req.path}?${query}`
  const res = await devnet.server.inject({
    method: req.method ?? 'GET',
    url,
    ...(req.body !== undefined ? { payload: req.body as Json } : {}),
  })
  return { status: res.statusCode, body: res.json() as Json }
}
const ok = (req: Req) => (req.method === 'POST' ? 201 : 200)

beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true })
  devnet = await startDevnet({ port: 0, node: { dataDir: DATA_DIR }, dataApi: { rateLimits: false }, l1s: [{ name: 'dex', genesis: testGenesis() }] })
  const network = devnet.network
  const chain = network.cChain
  cid = String(chain.chainId)
  l1Cid = String(network.l1s[0]!.chain.chainId)
  xChainId = network.primary.xchain.chainId
  cChainId = network.preset.cChainId
  const provider = createEIP1193Provider({ network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  const wallet = (account: typeof alice) => createWalletClient({ chain: viemChain, account, transport: custom(provider) })
  const receipt = async (hash: Hex) => client.getTransactionReceipt({ hash })
  const word = (a: Hex) => pad(a, { size: 32 }).slice(2)
  const B = bob.address.toLowerCase() as Hex
  // Block 1: two payments to bob (op 11 pages within it).
  await provider.request({ method: 'evm_setAutomine', params: [false] })
  await wallet(alice).sendTransaction({ to: bob.address, value: 1n })
  await wallet(carol).sendTransaction({ to: bob.address, value: 2n })
  await provider.request({ method: 'evm_mine', params: [] })
  await provider.request({ method: 'evm_setAutomine', params: [true] })
  block1Hash = (await client.getBlock({ blockNumber: 1n })).hash
  // More blocks than a default page (op 12).
  await provider.request({ method: 'anvil_mine', params: ['0x3'] })
  // An ERC-20 sent to bob twice; two ERC-721 mints and two ERC-1155 mints to bob (from LOG4 emitters).
  const deploy = await receipt(await wallet(alice).deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', 1000n] }))
  erc20 = deploy.contractAddress!
  for (const amount of [10n, 20n]) await receipt(await wallet(alice).writeContract({ address: erc20, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, amount] }))
  await setCode(chain, NFT721, Buffer.from(LOGGER_CODE.slice(2), 'hex'))
  await setCode(chain, NFT1155, Buffer.from(LOGGER_CODE.slice(2), 'hex'))
  for (const id of ['0x07', '0x08'] as Hex[]) await receipt(await wallet(alice).sendTransaction({ to: NFT721, data: `0x${[TRANSFER_TOPIC, ZERO, B, id].map((t) => word(t as Hex)).join('')}` }))
  for (const id of [1n, 2n]) {
    const data = encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, 5n]).slice(2)
    await receipt(await wallet(alice).sendTransaction({ to: NFT1155, data: `0x${[TRANSFER_SINGLE_TOPIC, B, ZERO, B].map((t) => word(t as Hex)).join('')}${data}` }))
  }
  // Primary network: two P-chain payments to account 1 (two UTXOs, two txs), and an L1 with two validators.
  const hrp = hrpForNetworkId(network.preset.networkId)
  const w = network.wallets(0)!
  const other = network.wallets(1)!.address
  pOther = formatAddress('P', hrp, other)
  pSelf = formatAddress('P', hrp, w.address)
  for (let i = 0; i < 2; i++) w.p.send([{ address: other, amount: AVAX }])
  const subnet = w.p.createSubnet()
  const created = w.p.createChain({ subnetId: subnet.subnetId, name: 'l1', vmId: new Uint8Array(32).fill(1), genesis: '{"config":{"chainId":99998},"alloc":{}}' })
  const nodes = [network.newValidatorIdentity(), network.newValidatorIdentity()]
  const conv = w.p.convertSubnetToL1({
    subnetId: subnet.subnetId, chainId: created.blockchainId, address: new Uint8Array(20).fill(0xee),
    validators: nodes.map((n) => ({ node: n, weight: 100n, balance: AVAX })),
  })
  validationIds = conv.validators.map((v) => v.validationId)
})
afterAll(async () => {
  await devnet?.close()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

/** The paged operations: a request with at least two items, its pageSize bounds, and a request its token does not fit. */
type Paged = { op: number; req: () => Req; min: number; max: number; otherFilters: () => Req }
const evmAddr = (kind: string, address: string = bob.address) => `/v1/chains/${cid}/addresses/${address}/${kind}`
const utxos = (query = '', body: unknown = { addresses: pOther }): Req => ({ method: 'POST', path: '/v1/networks/local/blockchains/p-chain/utxos', query, body })
const pTxs = (query = `addresses=${pOther}`): Req => ({ path: '/v1/networks/local/blockchains/p-chain/transactions', query })
const PAGED: Paged[] = [
  { op: 3, req: () => ({ path: evmAddr('transactions') }), min: 1, max: 100, otherFilters: () => ({ path: evmAddr('transactions'), query: 'sortOrder=asc' }) },
  { op: 4, req: () => ({ path: evmAddr('transactions:listNative') }), min: 1, max: 100, otherFilters: () => ({ path: evmAddr('transactions:listNative'), query: 'startBlock=0' }) },
  { op: 5, req: () => ({ path: evmAddr('transactions:listErc20') }), min: 1, max: 100, otherFilters: () => ({ path: evmAddr('transactions:listErc20'), query: 'endBlock=1000' }) },
  { op: 6, req: () => ({ path: evmAddr('transactions:listErc721') }), min: 1, max: 100, otherFilters: () => ({ path: evmAddr('transactions:listErc721'), query: 'startBlock=1' }) },
  { op: 7, req: () => ({ path: `/v1/chains/${cid}/tokens/${NFT721}/transfers` }), min: 1, max: 100, otherFilters: () => ({ path: `/v1/chains/${cid}/tokens/${NFT721}/transfers`, query: 'startBlock=1' }) },
  { op: 8, req: () => ({ path: evmAddr('balances:listErc1155') }), min: 1, max: 500, otherFilters: () => ({ path: evmAddr('balances:listErc1155'), query: `contractAddress=${NFT1155}` }) },
  { op: 11, req: () => ({ path: `/v1/chains/${cid}/blocks/1/transactions` }), min: 0, max: 100, otherFilters: () => ({ path: `/v1/chains/${cid}/blocks/2/transactions` }) },
  { op: 12, req: () => ({ path: `/v1/chains/${cid}/blocks` }), min: 1, max: 100, otherFilters: () => ({ path: `/v1/chains/${l1Cid}/blocks` }) },
  { op: 13, req: () => ({ path: `/v1/chains/${cid}/nfts/collections/${NFT721}/tokens` }), min: 1, max: 100, otherFilters: () => ({ path: `/v1/chains/${cid}/nfts/collections/${NFT1155}/tokens` }) },
  { op: 14, req: () => utxos(), min: 1, max: 1024, otherFilters: () => utxos('sortBy=amount') },
  { op: 15, req: () => pTxs(), min: 1, max: 100, otherFilters: () => pTxs(`addresses=${pOther}&sortOrder=asc`) },
  { op: 16, req: () => ({ path: '/v1/networks/local/validators' }), min: 1, max: 100, otherFilters: () => ({ path: '/v1/networks/local/validators', query: 'sortBy=timeRemaining' }) },
  { op: 17, req: () => ({ path: '/v1/networks/local/l1Validators' }), min: 1, max: 100, otherFilters: () => ({ path: '/v1/networks/local/l1Validators', query: 'includeInactiveL1Validators=true' }) },
]

describe('pageSize bounds (SPEC §8)', () => {
  for (const { op, req, min, max } of PAGED) {
    it(`op ${op}: ${min}..${max}, integers only`, async () => {
      for (const [value, message] of [
        [String(min - 1), `pageSize must not be less than ${min}`],
        [String(max + 1), `pageSize must not be greater than ${max}`],
        ['1.5', 'pageSize must be an integer number'],
        ['ten', 'pageSize must be an integer number'],
        ['', 'pageSize must be an integer number'],
      ] as const) expect(await send(req(), `pageSize=${value}`), `pageSize=${value}`).toEqual({ status: 400, body: bad(message) })
      for (const value of [min, max]) expect((await send(req(), `pageSize=${value}`)).status, `pageSize=${value}`).toBe(ok(req()))
    })
  }

  it('op 11 defaults to 0 (the whole block); the others to 10', async () => {
    expect(((await send({ path: `/v1/chains/${cid}/blocks/1/transactions` })).body.transactions as Json[]).length).toBe(2)
    const blocks = await send({ path: `/v1/chains/${cid}/blocks` })
    expect((blocks.body.blocks as Json[]).length).toBe(10)
  })
})

describe('bad page tokens, on every paged operation', () => {
  const tokenOf = async (req: Req): Promise<string> => {
    const first = await send(req, 'pageSize=1')
    expect(first.status).toBe(ok(req))
    expect(typeof first.body.nextPageToken).toBe('string')
    return first.body.nextPageToken as string
  }
  for (const { op, req, otherFilters } of PAGED) {
    it(`op ${op}: garbage, tampered, another operation's, other filters`, async () => {
      const token = await tokenOf(req())
      expect((await send(req(), `pageSize=1&pageToken=${token}`)).status).toBe(ok(req()))
      const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`
      const foreign = await tokenOf(op === 12 ? PAGED[1]!.req() : PAGED.find((p) => p.op === 12)!.req())
      for (const [name, value, message] of [
        ['garbage', 'not-a-token!', INVALID_PAGE_TOKEN],
        ['short', 'AAAA', INVALID_PAGE_TOKEN],
        ['uuid', '3d22deea-ea64-4d30-8a1e-c2a353b67e90', INVALID_PAGE_TOKEN],
        ['tampered', flipped, INVALID_PAGE_TOKEN],
        ['non-canonical base64', `${token}A`, INVALID_PAGE_TOKEN],
        ['another operation', foreign, PAGE_TOKEN_FILTER_MISMATCH],
      ] as const) expect(await send(req(), `pageSize=1&pageToken=${encodeURIComponent(value)}`), name).toEqual({ status: 400, body: bad(message) })
      expect(await send(otherFilters(), `pageSize=1&pageToken=${token}`), 'other filters').toEqual({ status: 400, body: bad(PAGE_TOKEN_FILTER_MISMATCH) })
    })
  }

  it('op 14: a token reused for other addresses', async () => {
    const token = await tokenOf(utxos())
    expect(await send(utxos(`pageToken=${token}`, { addresses: pSelf }))).toEqual({ status: 400, body: bad(PAGE_TOKEN_FILTER_MISMATCH) })
  })
})

describe('network, chain and enum parameters', () => {
  it('op 1: network (hosted names select nothing, local names select this network) and feature', async () => {
    for (const network of ['mainnet', 'fuji', 'testnet']) expect(await send({ path: '/v1/chains', query: `network=${network}` }), network).toEqual({ status: 200, body: { chains: [] } })
    for (const network of ['local', '12345']) expect(((await send({ path: '/v1/chains', query: `network=${network}` })).body.chains as Json[]).length, network).toBe(2)
    for (const feature of ['nftIndexing', 'webhooks', 'teleporter']) expect((await send({ path: '/v1/chains', query: `feature=${feature}` })).status).toBe(200)
    expect(await send({ path: '/v1/chains', query: 'network=Mainnet' })).toEqual({ status: 400, body: bad(NETWORKS) })
    expect(await send({ path: '/v1/chains', query: 'feature=nfts' })).toEqual({ status: 400, body: bad('feature must be one of the following values: nftIndexing, webhooks, teleporter') })
    expect(await send({ path: '/v1/chains', query: 'network=local&network=fuji' })).toEqual({ status: 400, body: bad(NETWORKS) })
  })

  const networkOps: [number, () => Req][] = [[14, utxos], [15, pTxs], [16, () => ({ path: '/v1/networks/local/validators' })], [17, () => ({ path: '/v1/networks/local/l1Validators' })]]
  for (const [op, request] of networkOps) {
    it(`op ${op}: {network}`, async () => {
      const req = request()
      const on = (network: string): Req => ({ ...req, path: req.path.replace('/local/', `/${network}/`) })
      const list = (body: Json) => (body.utxos ?? body.transactions ?? body.validators) as Json[]
      for (const network of ['mainnet', 'fuji', 'testnet']) {
        const res = await send(on(network))
        expect(res.status, `${network}: ${JSON.stringify(res.body)}`).toBe(ok(req))
        expect(list(res.body), network).toEqual([])
      }
      for (const network of ['local', '12345']) expect(list((await send(on(network))).body).length, network).toBeGreaterThan(0)
      for (const network of ['avalanche', 'FUJI', '5']) expect(await send(on(network)), network).toEqual({ status: 400, body: bad(NETWORKS) })
    })
  }

  for (const [op, req] of [[14, utxos], [15, pTxs]] as const) {
    it(`op ${op}: {blockchainId}, the hosted ids, the aliases and this network's ids`, async () => {
      const on = (id: string): Req => ({ ...req(), path: req().path.replace('/p-chain/', `/${id}/`) })
      const name = (body: Json) => (body.chainInfo as Json).chainName
      for (const [id, chain] of [['p-chain', 'p-chain'], ['x-chain', 'x-chain'], ['c-chain', 'c-chain'], [HOSTED_IDS.p, 'p-chain'], [xChainId, 'x-chain'], [cChainId, 'c-chain']] as const) {
        const res = await send(on(id))
        expect([res.status, name(res.body)], id).toEqual([ok(req()), chain])
      }
      // The hosted X- and C-chain ids are valid, and name no chain of this network.
      for (const [id, chain] of [[HOSTED_IDS.xMainnet, 'x-chain'], [HOSTED_IDS.xFuji, 'x-chain'], [HOSTED_IDS.cMainnet, 'c-chain'], [HOSTED_IDS.cFuji, 'c-chain']] as const) {
        const res = await send(on(id))
        expect([res.status, name(res.body), res.body.utxos ?? res.body.transactions], id).toEqual([ok(req()), chain, []])
      }
      const accepted = [...Object.values(HOSTED_IDS), 'p-chain', 'x-chain', 'c-chain', xChainId, cChainId].join(', ')
      for (const id of ['P', 'q-chain', `${xChainId}x`]) expect(await send(on(id)), id).toEqual({ status: 400, body: bad(`blockchainId must be one of the following values: ${accepted}`) })
    })
  }

  const sortOrderOps: [number, () => Req][] = [[3, () => ({ path: evmAddr('transactions') })], [14, utxos], [15, pTxs], [16, () => ({ path: '/v1/networks/local/validators' })]]
  for (const [op, req] of sortOrderOps) {
    it(`op ${op}: sortOrder`, async () => {
      for (const order of ['asc', 'desc']) expect((await send(req(), `sortOrder=${order}`)).status, order).toBe(ok(req()))
      for (const order of ['ASC', 'up', '']) expect(await send(req(), `sortOrder=${order}`), order).toEqual({ status: 400, body: bad(SORT_ORDER) })
    })
  }

  it('op 9: currency', async () => {
    const path = `/v1/chains/${cid}/contracts/${erc20}/transactions:getDeployment`
    for (const currency of CURRENCIES.split(', ')) expect((await send({ path, query: `currency=${currency}` })).status, currency).toBe(200)
    for (const currency of ['USD', 'btc']) expect(await send({ path, query: `currency=${currency}` }), currency).toEqual({ status: 400, body: bad(`currency must be one of the following values: ${CURRENCIES}`) })
  })

  it('op 14: sortBy', async () => {
    for (const sortBy of ['timestamp', 'amount']) expect((await send(utxos(`sortBy=${sortBy}`))).status, sortBy).toBe(201)
    for (const sortBy of ['blockIndex', 'Amount']) expect(await send(utxos(`sortBy=${sortBy}`)), sortBy).toEqual({ status: 400, body: bad('sortBy must be one of the following values: timestamp, amount') })
  })

  it('op 16: sortBy and validationStatus', async () => {
    const path = '/v1/networks/local/validators'
    for (const sortBy of ['blockIndex', 'delegationCapacity', 'timeRemaining', 'delegationFee', 'uptimePerformance']) expect((await send({ path, query: `sortBy=${sortBy}` })).status, sortBy).toBe(200)
    for (const status of ['completed', 'active', 'pending', 'removed']) expect((await send({ path, query: `validationStatus=${status}` })).status, status).toBe(200)
    expect(await send({ path, query: 'sortBy=amount' })).toEqual({ status: 400, body: bad('sortBy must be one of the following values: blockIndex, delegationCapacity, timeRemaining, delegationFee, uptimePerformance') })
    expect(await send({ path, query: 'validationStatus=Active' })).toEqual({ status: 400, body: bad('validationStatus must be one of the following values: completed, active, pending, removed') })
  })

  it('op 15: txTypes as repeated keys, each value checked', async () => {
    const txTypes = (...types: string[]) => pTxs(`addresses=${pOther}&${types.map((t) => `txTypes=${t}`).join('&')}`)
    expect((await send(txTypes('BaseTx'))).status).toBe(200)
    expect((await send(txTypes('BaseTx', 'ImportTx', 'UNKNOWN'))).status).toBe(200)
    for (const types of [['Send'], ['BaseTx', 'basetx'], ['Foo', 'Bar'], ['']]) expect(await send(txTypes(...types)), types.join()).toEqual({ status: 400, body: bad(`each value in txTypes must be one of the following values: ${TX_TYPES}`) })
    expect(await send(pTxs('txTypes=BaseTx'))).toEqual({ status: 400, body: bad('txTypes, startTimestamp and endTimestamp filters are only supported together with addresses or l1ValidationId') })
  })
})

describe('numeric bounds', () => {
  for (const op of [3, 4, 5, 6, 7]) {
    it(`op ${op}: startBlock and endBlock are non-negative integers, start not after end`, async () => {
      const { req } = PAGED.find((p) => p.op === op)!
      for (const name of ['startBlock', 'endBlock']) {
        expect(await send(req(), `${name}=-1`), name).toEqual({ status: 400, body: bad(`${name} must not be less than 0`) })
        for (const value of ['1.5', 'x', '1e3']) expect(await send(req(), `${name}=${value}`), `${name}=${value}`).toEqual({ status: 400, body: bad(`${name} must be an integer number`) })
        expect((await send(req(), `${name}=0`)).status).toBe(200)
      }
      expect(await send(req(), 'startBlock=5&endBlock=4')).toEqual({ status: 400, body: bad('startBlock must not be greater than endBlock') })
      expect((await send(req(), 'startBlock=4&endBlock=4')).status).toBe(200)
    })
  }

  it('op 8: blockNumber, contractAddress', async () => {
    const req = () => ({ path: evmAddr('balances:listErc1155') })
    for (const value of ['-1', 'latest', '1.5', '01', '0x1']) expect(await send(req(), `blockNumber=${value}`), value).toEqual({ status: 400, body: bad('blockNumber must be a block number') })
    expect((await send(req(), 'blockNumber=0')).status).toBe(200)
    expect(await send(req(), 'blockNumber=100000')).toEqual({ status: 404, body: notFound('Block 100000 not found') })
    for (const value of ['0x12', NFT1155.slice(2), `${NFT1155}00`]) expect(await send(req(), `contractAddress=${value}`), value).toEqual({ status: 400, body: bad('Invalid contractAddress format') })
    expect((await send(req(), `contractAddress=${NFT1155}`)).status).toBe(200)
  })

  it('op 14: minUtxoAmount >= 0, includeSpent a boolean', async () => {
    expect(await send(utxos('minUtxoAmount=-1'))).toEqual({ status: 400, body: bad('minUtxoAmount must not be less than 0') })
    expect(await send(utxos('minUtxoAmount=lots'))).toEqual({ status: 400, body: bad('minUtxoAmount must be a number conforming to the specified constraints') })
    for (const value of ['0', '1000.5']) expect((await send(utxos(`minUtxoAmount=${value}`))).status).toBe(201)
    for (const value of ['yes', '1', 'TRUE']) expect(await send(utxos(`includeSpent=${value}`)), value).toEqual({ status: 400, body: bad('includeSpent must be a boolean value') })
    for (const value of ['true', 'false']) expect((await send(utxos(`includeSpent=${value}`))).status).toBe(201)
  })

  it('op 15: startTimestamp and endTimestamp are non-negative integers, start not after end', async () => {
    for (const name of ['startTimestamp', 'endTimestamp']) {
      expect(await send(pTxs(`addresses=${pOther}&${name}=-1`)), name).toEqual({ status: 400, body: bad(`${name} must not be less than 0`) })
      expect(await send(pTxs(`addresses=${pOther}&${name}=1.5`)), name).toEqual({ status: 400, body: bad(`${name} must be an integer number`) })
      expect((await send(pTxs(`addresses=${pOther}&${name}=0`))).status).toBe(200)
    }
    expect(await send(pTxs(`addresses=${pOther}&startTimestamp=10&endTimestamp=9`))).toEqual({ status: 400, body: bad('startTimestamp must not be greater than endTimestamp') })
  })

  const VALIDATOR_RANGES: [string, string, string, string, string][] = [
    // name, below, above, lowest, highest
    ['TimeRemaining', '-1', '2147483648', '0', '2147483647'],
    ['FeePercentage', '1.99', '100.5', '2', '100'],
    ['UptimePerformance', '-0.5', '101', '0', '100'],
  ]
  for (const [name, below, above, lowest, highest] of VALIDATOR_RANGES) {
    it(`op 16: min/max${name} within ${lowest}..${highest}, min not above max`, async () => {
      const req = (q: string) => ({ path: '/v1/networks/local/validators', query: q })
      for (const side of ['min', 'max']) {
        const field = `${side}${name}`
        expect(await send(req(`${field}=${below}`)), field).toEqual({ status: 400, body: bad(`${field} must not be less than ${lowest}`) })
        expect(await send(req(`${field}=${above}`)), field).toEqual({ status: 400, body: bad(`${field} must not be greater than ${highest}`) })
        expect(await send(req(`${field}=many`)), field).toEqual({ status: 400, body: bad(`${field} must be a number conforming to the specified constraints`) })
        for (const value of [lowest, highest]) expect((await send(req(`${field}=${value}`))).status, `${field}=${value}`).toBe(200)
      }
      expect(await send(req(`min${name}=${highest}&max${name}=${lowest}`))).toEqual({ status: 400, body: bad(`min${name} must not be greater than max${name}`) })
    })
  }

  it('op 16: min/maxDelegationCapacity are integer strings within 0..720000000000000000', async () => {
    const req = (q: string) => ({ path: '/v1/networks/local/validators', query: q })
    for (const field of ['minDelegationCapacity', 'maxDelegationCapacity']) {
      for (const value of ['-1', '720000000000000001', '1.5', 'x', '1e3']) expect(await send(req(`${field}=${value}`)), `${field}=${value}`).toEqual({ status: 400, body: bad(CAPACITY(field)) })
      for (const value of ['0', '720000000000000000']) expect((await send(req(`${field}=${value}`))).status).toBe(200)
    }
    expect(await send(req('minDelegationCapacity=2&maxDelegationCapacity=1'))).toEqual({ status: 400, body: bad('minDelegationCapacity must not be greater than maxDelegationCapacity') })
  })

  it('op 17: includeInactiveL1Validators a boolean, nodeId NodeID-<cb58>, l1ValidationId cb58 or hex', async () => {
    const req = (q: string) => ({ path: '/v1/networks/local/l1Validators', query: q })
    for (const value of ['yes', '0']) expect(await send(req(`includeInactiveL1Validators=${value}`)), value).toEqual({ status: 400, body: bad('includeInactiveL1Validators must be a boolean value') })
    for (const value of ['abc', 'NodeID-', 'NodeID-0OIl', 'nodeid-111111111111111111116DBWJs']) expect(await send(req(`nodeId=${value}`)), value).toEqual({ status: 400, body: bad("nodeId must be a valid node ID in format 'NodeID-HASH'") })
    expect((await send(req('nodeId=NodeID-111111111111111111116DBWJs'))).body.validators).toEqual([])
    for (const value of ['abc', '0x12', validationIds[0]!.slice(0, -1)]) expect(await send(req(`l1ValidationId=${value}`)), value).toEqual({ status: 400, body: bad('l1ValidationId must be a cb58 or 0x-prefixed hex validation id') })
    const hex = bytesToHex(idFromString(validationIds[0]!))
    for (const value of [validationIds[0]!, hex]) expect(((await send(req(`l1ValidationId=${value}`))).body.validators as Json[]).map((v) => v.validationId), value).toEqual([validationIds[0]])
  })
})

describe('address and id formats', () => {
  const PATH_ADDRESS_OPS: [number, (a: string) => string][] = [
    [3, (a) => evmAddr('transactions', a)],
    [4, (a) => evmAddr('transactions:listNative', a)],
    [5, (a) => evmAddr('transactions:listErc20', a)],
    [6, (a) => evmAddr('transactions:listErc721', a)],
    [7, (a) => `/v1/chains/${cid}/tokens/${a}/transfers`],
    [8, (a) => evmAddr('balances:listErc1155', a)],
    [9, (a) => `/v1/chains/${cid}/contracts/${a}/transactions:getDeployment`],
    [13, (a) => `/v1/chains/${cid}/nfts/collections/${a}/tokens`],
  ]
  for (const [op, path] of PATH_ADDRESS_OPS) {
    it(`op ${op}: the path address is 0x and 40 hex digits`, async () => {
      for (const a of ['0x12', bob.address.slice(2), `${bob.address}0`, `0x${'g'.repeat(40)}`, pOther]) expect(await send({ path: path(a) }), a).toEqual({ status: 400, body: bad('Invalid address format') })
      const fine = op === 9 ? erc20 : bob.address.toLowerCase()
      expect((await send({ path: path(fine) })).status).toBe(200)
    })
  }

  it('op 10: txHash is 0x and 64 hex digits', async () => {
    for (const h of ['0x12', 'a'.repeat(64), `0x${'z'.repeat(64)}`]) expect(await send({ path: `/v1/chains/${cid}/transactions/${h}` }), h).toEqual({ status: 400, body: bad('Invalid transaction hash format') })
  })

  it('op 11: blockId is a block number or a block hash', async () => {
    for (const b of ['-1', '01', 'latest', '0x12', '1.0']) expect(await send({ path: `/v1/chains/${cid}/blocks/${b}/transactions` }), b).toEqual({ status: 400, body: bad('blockId must be a block number or a block hash') })
    expect(((await send({ path: `/v1/chains/${cid}/blocks/${block1Hash}/transactions` })).body.transactions as Json[]).length).toBe(2)
  })

  it('op 15: addresses (bech32 of this network with or without a chain prefix, or 0x) and l1ValidationId', async () => {
    for (const a of [pOther, pOther.slice(2), `X-${pOther.slice(2)}`, alice.address]) expect((await send(pTxs(`addresses=${a}`))).status, a).toBe(200)
    const mainnet = 'avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg'
    for (const a of ['P-nope', mainnet, '0x12', `${pOther.slice(0, -1)}q`]) expect(await send(pTxs(`addresses=${pOther},${a}`)), a).toEqual({ status: 400, body: bad(`addresses contains an invalid address: ${a}`) })
    expect(await send(pTxs('l1ValidationId=abc'))).toEqual({ status: 400, body: bad('l1ValidationId must be a cb58 or 0x-prefixed hex validation id') })
    expect((await send(pTxs(`l1ValidationId=${validationIds[0]!}`))).status).toBe(200)
    const onX = { path: '/v1/networks/local/blockchains/x-chain/transactions', query: `l1ValidationId=${validationIds[0]!}` }
    expect(await send(onX)).toEqual({ status: 400, body: bad('l1ValidationId is only supported on the P-Chain') })
  })

  it('op 14: the body needs addresses, a string of valid addresses', async () => {
    const path = '/v1/networks/local/blockchains/p-chain/utxos'
    for (const body of [undefined, {}, { addresses: [pOther] }, { addresses: 5 }, { address: pOther }]) expect(await send({ method: 'POST', path, body }), JSON.stringify(body)).toEqual({ status: 400, body: bad('addresses must be a string') })
    for (const addresses of ['', ' , ']) expect(await send(utxos('', { addresses })), addresses).toEqual({ status: 400, body: bad('addresses should not be empty') })
    expect(await send(utxos('', { addresses: `${pOther},bogus` }))).toEqual({ status: 400, body: bad('addresses contains an invalid address: bogus') })
    const res = await devnet.server.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: '{"addresses":' })
    // A body that is not JSON never reaches the route: one string, as NestJS's body parser answers.
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 400, body: { message: "Body is not valid JSON but content-type is set to 'application/json'", statusCode: 400, error: 'Bad Request' } })
  })
})

describe('several bad fields at once: one message per field', () => {
  const CASES: [number, Req, string[]][] = [
    [1, { path: '/v1/chains', query: 'network=x&feature=y' }, [NETWORKS, 'feature must be one of the following values: nftIndexing, webhooks, teleporter']],
    [3, { path: '/v1/chains/C/addresses/0x1/transactions', query: 'startBlock=-1&endBlock=x&pageSize=0&sortOrder=up' },
      ['startBlock must not be less than 0', 'endBlock must be an integer number', 'pageSize must not be less than 1', SORT_ORDER, 'Invalid address format']],
    [4, { path: '/v1/chains/C/addresses/0x1/transactions:listNative', query: 'startBlock=2&endBlock=1&pageSize=101&pageToken=a&pageToken=b' },
      ['startBlock must not be greater than endBlock', 'pageSize must not be greater than 100', 'pageToken must be a string', 'Invalid address format']],
    [8, { path: '/v1/chains/C/addresses/0x1/balances:listErc1155', query: 'blockNumber=x&pageSize=501&contractAddress=0x2' },
      ['pageSize must not be greater than 500', 'blockNumber must be a block number', 'Invalid contractAddress format', 'Invalid address format']],
    [9, { path: '/v1/chains/C/contracts/0x1/transactions:getDeployment', query: 'currency=btc' }, [`currency must be one of the following values: ${CURRENCIES}`, 'Invalid address format']],
    [11, { path: '/v1/chains/C/blocks/x/transactions', query: 'pageSize=-1' }, ['pageSize must not be less than 0', 'blockId must be a block number or a block hash']],
    [13, { path: '/v1/chains/C/nfts/collections/0x1/tokens', query: 'pageSize=1.5' }, ['pageSize must be an integer number', 'Invalid address format']],
    [14, { method: 'POST', path: '/v1/networks/moon/blockchains/q-chain/utxos', query: 'pageSize=1025&minUtxoAmount=-1&includeSpent=maybe&sortBy=size&sortOrder=up', body: { addresses: 1 } },
      [NETWORKS, 'blockchainId', 'pageSize must not be greater than 1024', 'minUtxoAmount must not be less than 0', 'includeSpent must be a boolean value',
        'sortBy must be one of the following values: timestamp, amount', SORT_ORDER, 'addresses must be a string']],
    [15, { path: '/v1/networks/moon/blockchains/q-chain/transactions', query: 'pageSize=0&addresses=bogus&l1ValidationId=x&txTypes=Foo&startTimestamp=-1&endTimestamp=y&sortOrder=up' },
      [NETWORKS, 'blockchainId', 'pageSize must not be less than 1', 'addresses contains an invalid address: bogus', 'l1ValidationId must be a cb58 or 0x-prefixed hex validation id',
        `each value in txTypes must be one of the following values: ${TX_TYPES}`, 'startTimestamp must not be less than 0', 'endTimestamp must be an integer number', SORT_ORDER]],
    [16, { path: '/v1/networks/moon/validators', query: 'pageSize=0&sortBy=x&sortOrder=x&validationStatus=x&minDelegationCapacity=-1&maxDelegationCapacity=x&minTimeRemaining=-1&maxTimeRemaining=x&minFeePercentage=1&maxFeePercentage=101&minUptimePerformance=-1&maxUptimePerformance=101' },
      [NETWORKS, 'pageSize must not be less than 1', 'sortBy must be one of the following values: blockIndex, delegationCapacity, timeRemaining, delegationFee, uptimePerformance', SORT_ORDER,
        'validationStatus must be one of the following values: completed, active, pending, removed', CAPACITY('minDelegationCapacity'), CAPACITY('maxDelegationCapacity'),
        'minTimeRemaining must not be less than 0', 'maxTimeRemaining must be a number conforming to the specified constraints', 'minFeePercentage must not be less than 2',
        'maxFeePercentage must not be greater than 100', 'minUptimePerformance must not be less than 0', 'maxUptimePerformance must not be greater than 100']],
    [17, { path: '/v1/networks/moon/l1Validators', query: 'pageSize=101&l1ValidationId=x&includeInactiveL1Validators=x&nodeId=x' },
      [NETWORKS, 'pageSize must not be greater than 100', 'l1ValidationId must be a cb58 or 0x-prefixed hex validation id', 'includeInactiveL1Validators must be a boolean value', "nodeId must be a valid node ID in format 'NodeID-HASH'"]],
  ]
  for (const [op, req, messages] of CASES) {
    it(`op ${op}: ${messages.length} messages`, async () => {
      const blockchainIds = `blockchainId must be one of the following values: ${[...Object.values(HOSTED_IDS), 'p-chain', 'x-chain', 'c-chain', xChainId, cChainId].join(', ')}`
      const expected = messages.map((m) => (m === 'blockchainId' ? blockchainIds : m))
      expect(await send(req)).toEqual({ status: 400, body: bad(...expected) })
    })
  }
})

describe('unknown chains, transactions, blocks and contracts: 404', () => {
  const hash = `0x${'ab'.repeat(32)}`
  it('an unknown chain, by EVM chain id or blockchain id, on every chain operation', async () => {
    for (const chain of ['1', '43114', HOSTED_IDS.cMainnet]) {
      for (const path of [
        `/v1/chains/${chain}`, `/v1/chains/${chain}/addresses/${bob.address}/transactions`, `/v1/chains/${chain}/addresses/${bob.address}/transactions:listNative`,
        `/v1/chains/${chain}/addresses/${bob.address}/transactions:listErc20`, `/v1/chains/${chain}/addresses/${bob.address}/transactions:listErc721`,
        `/v1/chains/${chain}/tokens/${NFT721}/transfers`, `/v1/chains/${chain}/addresses/${bob.address}/balances:listErc1155`,
        `/v1/chains/${chain}/contracts/${erc20}/transactions:getDeployment`, `/v1/chains/${chain}/transactions/${hash}`,
        `/v1/chains/${chain}/blocks/1/transactions`, `/v1/chains/${chain}/blocks`, `/v1/chains/${chain}/nfts/collections/${NFT721}/tokens`,
      ]) expect(await send({ path }), path).toEqual({ status: 404, body: notFound(`Chain ${chain} not found`) })
    }
    expect((await send({ path: `/v1/chains/${cChainId}` })).status).toBe(200)
  })

  it('an unknown transaction, block or deployment', async () => {
    expect(await send({ path: `/v1/chains/${cid}/transactions/${hash}` })).toEqual({ status: 404, body: notFound(`Transaction ${hash} not found`) })
    expect(await send({ path: `/v1/chains/${cid}/blocks/100000/transactions` })).toEqual({ status: 404, body: notFound('Block 100000 not found') })
    expect(await send({ path: `/v1/chains/${cid}/blocks/${hash}/transactions` })).toEqual({ status: 404, body: notFound(`Block ${hash} not found`) })
    expect(await send({ path: `/v1/chains/${cid}/contracts/${bob.address}/transactions:getDeployment` })).toEqual({ status: 404, body: notFound(`No deployment transaction found for contract ${bob.address}`) })
  })
})
