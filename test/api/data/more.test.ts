import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, encodeAbiParameters, getAddress, pad, parseEther, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { dataRoutes, INVALID_PAGE_TOKEN } from '../../../src/api/routes/data/index.js'
import { networkDataSource } from '../../../src/api/routes/data/networkSource.js'
import { moreEvmDataRoutes, nftMetadata } from '../../../src/api/routes/data/evm/more.js'
import { setCode } from '../../../src/evm/cheats.js'
import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '../../../src/indexer/index.js'
import { createNetwork, type Network } from '../../../src/network/network.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { ERC20 } from '../../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob, carol] = [0, 1, 2].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
]
const ZERO = '0x0000000000000000000000000000000000000000'
/** LOG4 emitter of test/indexer/evm.test.ts: the first four calldata words are the topics, the rest the data. */
const LOGGER_CODE = '0x60803603806080600037606035604035602035600035846000a400'
const NFT721 = '0x00000000000000000000000000000000000010c4' as Hex
const NFT1155 = '0x00000000000000000000000000000000000011c5' as Hex
const META = { name: 'Seven', description: 'd', image: 'ipfs://x', attributes: [{ trait_type: 'a', value: 1 }] }
const TOKEN_URI = `data:application/json;base64,${Buffer.from(JSON.stringify(META)).toString('base64')}`

/** Runtime code answering every call with `ret`: CODECOPY it after a 14-byte prefix, RETURN it. */
function returner(ret: Hex): Uint8Array {
  const len = (ret.length - 2) / 2
  const l = len.toString(16).padStart(4, '0')
  return Buffer.from(`61${l}600e600039${'61'}${l}6000f3${ret.slice(2)}`, 'hex')
}

const word = (a: Hex) => pad(a, { size: 32 })
const logCall = (topics: Hex[], data: Hex = '0x'): Hex => `0x${[...topics.map((t) => word(t).slice(2)), data.slice(2)].join('')}` as Hex

let network: Network
let app: FastifyInstance
let chainId: string
const hashes: Hex[] = []

type Json = Record<string, unknown>
const get = async (url: string) => {
  const res = await app.inject({ method: 'GET', url })
  return { status: res.statusCode, body: res.json() as Json }
}
/** The head's timestamp: NFT metadata is read at the head (`metadataLastUpdatedTimestamp`). */
const headTime = () => Number(network.cChain.store.byNumber(network.cChain.store.height)!.block.header.timestamp)
const blocksOf = (body: Json) => (body.transactions as { nativeTransaction: Json }[]).map((t) => Number(t.nativeTransaction.blockNumber))

beforeAll(async () => {
  network = await createNetwork()
  const chain = network.cChain
  chainId = String(chain.chainId)
  const provider = createEIP1193Provider({ network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  const wallet = (account: typeof alice) => createWalletClient({ chain: viemChain, account, transport: custom(provider) })
  const mined = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash })
    hashes[Number(receipt.blockNumber)] = hash
    return receipt
  }
  const A = alice.address.toLowerCase() as Hex
  const B = bob.address.toLowerCase() as Hex
  const C = carol.address.toLowerCase() as Hex
  // 1: alice pays bob; 2: ERC-20 deploy; 3: ERC-20 to bob; 4: NFT 7 minted to bob; 5: NFT 3 minted to alice;
  // 6: bob sends NFT 7 to carol; 7: ERC-1155 id 1 (5) minted to bob; 8: ids 2, 3 (6, 7) minted to bob.
  await mined(await wallet(alice).sendTransaction({ to: bob.address, value: parseEther('1.5') }))
  const deploy = await mined(await wallet(alice).deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', 1000n] }))
  await mined(await wallet(alice).writeContract({ address: deploy.contractAddress!, abi: ERC20.abi, functionName: 'transfer', args: [bob.address, 10n] }))
  await setCode(chain, NFT721, Buffer.from(LOGGER_CODE.slice(2), 'hex'))
  await setCode(chain, NFT1155, Buffer.from(LOGGER_CODE.slice(2), 'hex'))
  await mined(await wallet(alice).sendTransaction({ to: NFT721, data: logCall([TRANSFER_TOPIC, ZERO, B, '0x07']) }))
  await mined(await wallet(alice).sendTransaction({ to: NFT721, data: logCall([TRANSFER_TOPIC, ZERO, A, '0x03']) }))
  await mined(await wallet(bob).sendTransaction({ to: NFT721, data: logCall([TRANSFER_TOPIC, B, C, '0x07']) }))
  const u = (ids: bigint[], values: bigint[]) => encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, values])
  await mined(await wallet(alice).sendTransaction({ to: NFT1155, data: logCall([TRANSFER_SINGLE_TOPIC, A, ZERO, B], encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 5n])) }))
  await mined(await wallet(alice).sendTransaction({ to: NFT1155, data: logCall([TRANSFER_BATCH_TOPIC, A, ZERO, B], u([2n, 3n], [6n, 7n])) }))
  expect(chain.store.height).toBe(8n)
  // From now on the ERC-721 contract answers every call (tokenURI, name, symbol) with the data: URI.
  await setCode(chain, NFT721, returner(encodeAbiParameters([{ type: 'string' }], [TOKEN_URI])))

  app = Fastify()
  await app.register(dataRoutes, { source: networkDataSource(network), routes: [moreEvmDataRoutes(network)] })
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await network.close()
})

describe('listTransactions (op 3)', () => {
  const base = () => `/v1/chains/${chainId}/addresses/${bob.address}/transactions`

  it('lists native and token interactions newest first, with the address\'s transfers', async () => {
    const { status, body } = await get(base() + '?pageSize=100')
    expect(status).toBe(200)
    expect(blocksOf(body)).toEqual([8, 7, 6, 4, 3, 1])
    expect(body.nextPageToken).toBeUndefined()
    const txs = body.transactions as Json[]
    const byBlock = (n: number) => txs.find((t) => (t.nativeTransaction as Json).blockNumber === String(n))!
    expect((byBlock(1).nativeTransaction as Json).txHash).toBe(hashes[1])
    expect(Object.keys(byBlock(1))).toEqual(['nativeTransaction'])
    const erc20 = byBlock(3).erc20Transfers as Json[]
    expect(erc20).toHaveLength(1)
    expect(erc20[0]).toMatchObject({ from: { address: alice.address }, to: { address: bob.address }, value: '10', erc20Token: { symbol: 'TOK', ercType: 'ERC-20' } })
    expect((byBlock(6).erc721Transfers as Json[])[0]).toMatchObject({ from: { address: bob.address }, to: { address: carol.address }, erc721Token: { tokenId: '7', address: getAddress(NFT721) } })
    expect((byBlock(8).erc1155Transfers as Json[]).map((t) => [(t.erc1155Token as Json).tokenId, t.value])).toEqual([['2', '6'], ['3', '7']])
    expect(byBlock(8).internalTransactions).toBeUndefined()
  })

  it('pages both ways, filters by block range', async () => {
    const first = await get(base() + '?pageSize=4')
    expect(blocksOf(first.body)).toEqual([8, 7, 6, 4])
    const second = await get(base() + `?pageSize=4&pageToken=${first.body.nextPageToken as string}`)
    expect(blocksOf(second.body)).toEqual([3, 1])
    expect(second.body.nextPageToken).toBeUndefined()
    const asc1 = await get(base() + '?pageSize=5&sortOrder=asc')
    expect(blocksOf(asc1.body)).toEqual([1, 3, 4, 6, 7])
    const asc2 = await get(base() + `?pageSize=5&sortOrder=asc&pageToken=${asc1.body.nextPageToken as string}`)
    expect(blocksOf(asc2.body)).toEqual([8])
    expect(blocksOf((await get(base() + '?startBlock=3&endBlock=7')).body)).toEqual([6, 4, 3])
    // A token of one order is refused by the other.
    expect((await get(base() + `?pageSize=4&sortOrder=asc&pageToken=${first.body.nextPageToken as string}`)).status).toBe(400)
  })

  it('answers 400 for bad parameters and 404 for an unknown chain', async () => {
    for (const q of ['pageSize=0', 'pageSize=101', 'sortOrder=up', 'startBlock=-1', 'pageToken=zz']) expect((await get(base() + '?' + q)).status, q).toBe(400)
    expect((await get(base() + '?pageToken=zz')).body.message).toEqual([INVALID_PAGE_TOKEN])
    expect((await get(`/v1/chains/${chainId}/addresses/0x12/transactions`)).status).toBe(400)
    expect((await get(`/v1/chains/999/addresses/${bob.address}/transactions`)).status).toBe(404)
  })
})

describe('listErc1155Balances (op 8)', () => {
  const base = () => `/v1/chains/${chainId}/addresses/${bob.address}/balances:listErc1155`

  it('lists balances with the native balance, paged', async () => {
    const first = await get(base() + '?pageSize=2')
    expect(first.status).toBe(200)
    const balance = (await network.cChain.getAccountFields(bob.address.toLowerCase() as Hex, 'latest')).balance
    expect(first.body.nativeTokenBalance).toEqual({ name: 'Avalanche', symbol: 'AVAX', decimals: 18, chainId, balance: balance.toString() })
    expect(first.body.erc1155TokenBalances).toEqual([
      { address: getAddress(NFT1155), ercType: 'ERC-1155', tokenId: '1', tokenUri: '', metadata: { indexStatus: 'INVALID_TOKEN_URI', metadataLastUpdatedTimestamp: headTime() }, chainId, balance: '5' },
      { address: getAddress(NFT1155), ercType: 'ERC-1155', tokenId: '2', tokenUri: '', metadata: { indexStatus: 'INVALID_TOKEN_URI', metadataLastUpdatedTimestamp: headTime() }, chainId, balance: '6' },
    ])
    const second = await get(base() + `?pageSize=2&pageToken=${first.body.nextPageToken as string}`)
    expect((second.body.erc1155TokenBalances as Json[]).map((b) => [b.tokenId, b.balance])).toEqual([['3', '7']])
    expect(second.body.nextPageToken).toBeUndefined()
  })

  it('reads at a block and filters by contract', async () => {
    const at7 = await get(base() + '?blockNumber=7')
    expect((at7.body.erc1155TokenBalances as Json[]).map((b) => b.tokenId)).toEqual(['1'])
    const at0 = await get(base() + '?blockNumber=0')
    expect(at0.body.erc1155TokenBalances).toEqual([])
    expect((at0.body.nativeTokenBalance as Json).balance).toBe((await network.cChain.getAccountFields(bob.address.toLowerCase() as Hex, 0n)).balance.toString())
    expect((await get(base() + `?contractAddress=${NFT721}`)).body.erc1155TokenBalances).toEqual([])
    expect((await get(base() + `?contractAddress=${NFT1155}`)).body.erc1155TokenBalances).toHaveLength(3)
  })

  it('answers 400s and 404s', async () => {
    for (const q of ['pageSize=0', 'pageSize=501', 'blockNumber=x', 'contractAddress=0x1', 'pageToken=zz']) expect((await get(base() + '?' + q)).status, q).toBe(400)
    expect((await get(base() + '?pageSize=500')).status).toBe(200)
    expect((await get(`/v1/chains/${chainId}/addresses/nope/balances:listErc1155`)).status).toBe(400)
    expect((await get(base() + '?blockNumber=999')).status).toBe(404)
    expect((await get(`/v1/chains/999/addresses/${bob.address}/balances:listErc1155`)).status).toBe(404)
  })
})

describe('listTokens (op 13)', () => {
  const url = (a: string) => `/v1/chains/${chainId}/nfts/collections/${a}/tokens`

  it('lists ERC-721 tokens by id with owner, tokenUri and data: metadata, paged', async () => {
    const first = await get(url(NFT721) + '?pageSize=1')
    expect(first.status).toBe(200)
    expect(first.body.tokens).toEqual([
      {
        address: getAddress(NFT721),
        name: TOKEN_URI,
        symbol: TOKEN_URI,
        ercType: 'ERC-721',
        tokenId: '3',
        tokenUri: TOKEN_URI,
        metadata: { indexStatus: 'INDEXED', metadataLastUpdatedTimestamp: headTime(), name: 'Seven', imageUri: 'ipfs://x', description: 'd', attributes: JSON.stringify(META.attributes) },
        ownerAddress: alice.address,
      },
    ])
    const second = await get(url(NFT721) + `?pageSize=1&pageToken=${first.body.nextPageToken as string}`)
    expect((second.body.tokens as Json[]).map((t) => [t.tokenId, t.ownerAddress])).toEqual([['7', carol.address]])
    expect(second.body.nextPageToken).toBeUndefined()
  })

  it('lists ERC-1155 ids, and nothing for other addresses', async () => {
    const { body } = await get(url(NFT1155))
    expect(body.tokens).toEqual(['1', '2', '3'].map((tokenId) => ({ address: getAddress(NFT1155), ercType: 'ERC-1155', tokenId, tokenUri: '', metadata: { indexStatus: 'INVALID_TOKEN_URI', metadataLastUpdatedTimestamp: headTime() } })))
    expect((await get(url(carol.address))).body).toEqual({ tokens: [] })
  })

  it('answers 400s and 404s', async () => {
    for (const q of ['pageSize=0', 'pageSize=101', 'pageToken=zz']) expect((await get(url(NFT721) + '?' + q)).status, q).toBe(400)
    const token = (await get(url(NFT721) + '?pageSize=1')).body.nextPageToken as string
    expect((await get(url(NFT1155) + `?pageToken=${token}`)).status).toBe(400)
    expect((await get(url('0xnope'))).status).toBe(400)
    expect((await get(`/v1/chains/999/nfts/collections/${NFT721}/tokens`)).status).toBe(404)
  })
})

describe('nftMetadata', () => {
  it('reads data: URIs and grades bad ones', () => {
    expect(nftMetadata('data:application/json,%7B%22name%22%3A%22x%22%2C%22properties%22%3A%7B%22a%22%3A1%7D%2C%22decimals%22%3A2%7D', 'ERC-1155')).toEqual({ indexStatus: 'INDEXED', name: 'x', decimals: 2, properties: '{"a":1}' })
    expect(nftMetadata('data:application/json,{oops', 'ERC-721')).toEqual({ indexStatus: 'INVALID_METADATA_JSON' })
    expect(nftMetadata('data:application/json,[1]', 'ERC-721')).toEqual({ indexStatus: 'INVALID_METADATA' })
    expect(nftMetadata('ipfs://Qm', 'ERC-721')).toEqual({ indexStatus: 'UNREACHABLE_TOKEN_URI' })
    expect(nftMetadata('', 'ERC-721')).toEqual({ indexStatus: 'INVALID_TOKEN_URI' })
  })
})
