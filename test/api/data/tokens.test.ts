import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, getAddress, type Abi, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { METADATA_MAX_BYTES, nftMetadata, substituteId } from '../../../src/api/routes/data/evm/tokens.js'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { TestNFT1155, TestNFT721 } from '../../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const [alice, bob, carol] = [0, 1, 2].map((i) => mnemonicToAccount(MNEMONIC, { addressIndex: i })) as [
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
  ReturnType<typeof mnemonicToAccount>,
]
const DATA_DIR = 'test/.tmp/data-api-tokens'

const FULL = {
  name: 'One',
  symbol: 'ONE',
  description: 'the first',
  image: 'ipfs://image/1',
  animation_url: 'https://anim/1',
  external_url: 'https://ext/1',
  background_color: 'ffffff',
  attributes: [{ trait_type: 'eyes', value: 'blue' }],
}
const BASE64_URI = `data:application/json;base64,${Buffer.from(JSON.stringify(FULL)).toString('base64')}`
const PERCENT_URI = `data:application/json,${encodeURIComponent(JSON.stringify({ name: 'Two', image_url: 'https://img/2', attributes: 'plain' }))}`
const ID_TEMPLATE = 'data:application/json,{"name":"Item {id}","decimals":2,"properties":{"rarity":"rare"}}'
const hex64 = (id: bigint) => id.toString(16).padStart(64, '0')

let devnet: Devnet
let chainId: string
let send: (account: typeof alice, args: { address?: Hex; abi: Abi; functionName?: string; args?: readonly unknown[]; bytecode?: Hex }) => Promise<{ contractAddress: Hex | null | undefined }>
let nftData: Hex
let nftWeb: Hex
let nftRevert: Hex
let items: Hex
let itemsWeb: Hex

type Json = Record<string, any>
const get = async (path: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${devnet.url}/v1/chains/${chainId}${path}`)
  return { status: res.status, body: (await res.json()) as Json }
}
/** The head's timestamp: what a metadata read made now records as `metadataLastUpdatedTimestamp`. */
const headTime = () => {
  const chain = devnet.network.cChain
  return Number(chain.store.byNumber(chain.store.height)!.block.header.timestamp)
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, node: { dataDir: DATA_DIR } })
  const chain = devnet.network.cChain
  chainId = String(chain.chainId)
  const provider = createEIP1193Provider({ network: devnet.network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('C')] } } })
  const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  send = async (account, { address, abi, functionName, args = [], bytecode }) => {
    const wallet = createWalletClient({ chain: viemChain, account, transport: custom(provider) })
    const hash = bytecode ? await wallet.deployContract({ abi, bytecode, args }) : await wallet.writeContract({ address: address!, abi, functionName: functionName!, args })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    return receipt
  }
  const deploy721 = async (name: string, revert: boolean) =>
    (await send(alice, { abi: TestNFT721.abi, bytecode: TestNFT721.bytecode as Hex, args: [name, name.toUpperCase(), revert] })).contractAddress!
  const nft = (address: Hex, functionName: string, args: readonly unknown[], account = alice) => send(account, { address, abi: TestNFT721.abi, functionName, args })

  nftData = await deploy721('Data', false)
  const uris: [bigint, string][] = [
    [1n, BASE64_URI],
    [2n, PERCENT_URI],
    [3n, 'data:application/json,{"name": oops}'],
    [4n, 'ftp://files.example/4.json'],
    [7n, 'data:image/svg+xml;base64,PHN2Zy8+'],
  ]
  for (const [id, uri] of uris) await nft(nftData, 'setTokenURI', [id, uri])
  for (const id of [1n, 2n, 3n, 4n, 5n, 7n]) await nft(nftData, 'mint', [bob.address, id])
  // Token 6: a Transfer event for a token the contract does not know (ownerOf reverts).
  await nft(nftData, 'ghost', [carol.address, 6n])

  nftWeb = await deploy721('Web', false)
  await nft(nftWeb, 'setTokenURI', [1n, 'https://meta.example/1.json'])
  await nft(nftWeb, 'setTokenURI', [2n, 'ipfs://QmToken/2'])
  await nft(nftWeb, 'mint', [bob.address, 1n])
  await nft(nftWeb, 'mint', [bob.address, 2n])

  nftRevert = await deploy721('Revert', true)
  await nft(nftRevert, 'mint', [bob.address, 1n])

  items = (await send(alice, { abi: TestNFT1155.abi, bytecode: TestNFT1155.bytecode as Hex, args: [ID_TEMPLATE] })).contractAddress!
  await send(alice, { address: items, abi: TestNFT1155.abi, functionName: 'mint', args: [bob.address, 1n, 5n] })
  await send(alice, { address: items, abi: TestNFT1155.abi, functionName: 'mintBatch', args: [bob.address, [2n, 255n], [6n, 7n]] })
  itemsWeb = (await send(alice, { abi: TestNFT1155.abi, bytecode: TestNFT1155.bytecode as Hex, args: ['https://items.example/{id}.json'] })).contractAddress!
  await send(alice, { address: itemsWeb, abi: TestNFT1155.abi, functionName: 'mint', args: [carol.address, 10n, 1n] })
})
afterAll(async () => {
  await devnet.close()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

describe('ERC-721 metadata (listTokens, op 13)', () => {
  it('decodes data: URIs into the metadata model, field for field', async () => {
    const { status, body } = await get(`/nfts/collections/${nftData}/tokens?pageSize=2`)
    expect(status).toBe(200)
    const at = headTime()
    expect(body.tokens).toEqual([
      {
        address: getAddress(nftData),
        name: 'Data',
        symbol: 'DATA',
        ercType: 'ERC-721',
        tokenId: '1',
        tokenUri: BASE64_URI,
        metadata: {
          indexStatus: 'INDEXED',
          metadataLastUpdatedTimestamp: at,
          name: 'One',
          symbol: 'ONE',
          imageUri: 'ipfs://image/1',
          description: 'the first',
          animationUri: 'https://anim/1',
          externalUrl: 'https://ext/1',
          background: 'ffffff',
          attributes: JSON.stringify(FULL.attributes),
        },
        ownerAddress: bob.address,
      },
      {
        address: getAddress(nftData),
        name: 'Data',
        symbol: 'DATA',
        ercType: 'ERC-721',
        tokenId: '2',
        tokenUri: PERCENT_URI,
        metadata: { indexStatus: 'INDEXED', metadataLastUpdatedTimestamp: at, name: 'Two', imageUri: 'https://img/2', attributes: 'plain' },
        ownerAddress: bob.address,
      },
    ])
    // The model's property order, as the spec lists it.
    expect(Object.keys(body.tokens[0].metadata)).toEqual(['indexStatus', 'metadataLastUpdatedTimestamp', 'name', 'symbol', 'imageUri', 'description', 'animationUri', 'externalUrl', 'background', 'attributes'])
  })

  it('grades every other kind of token URI with its status', async () => {
    const { body } = await get(`/nfts/collections/${nftData}/tokens?pageSize=100`)
    const statuses = (body.tokens as Json[]).map((t) => [t.tokenId, t.tokenUri, t.metadata.indexStatus, t.ownerAddress])
    expect(statuses).toEqual([
      ['1', BASE64_URI, 'INDEXED', bob.address],
      ['2', PERCENT_URI, 'INDEXED', bob.address],
      ['3', 'data:application/json,{"name": oops}', 'INVALID_METADATA_JSON', bob.address],
      ['4', 'ftp://files.example/4.json', 'INVALID_TOKEN_URI_SCHEME', bob.address],
      ['5', '', 'INVALID_TOKEN_URI', bob.address],
      ['6', '', 'MISSING_TOKEN', carol.address],
      ['7', 'data:image/svg+xml;base64,PHN2Zy8+', 'INVALID_METADATA', bob.address],
    ])
    for (const t of body.tokens as Json[]) expect(t.metadata.metadataLastUpdatedTimestamp).toBeTypeOf('number')
  })

  it('never fetches http(s) or ipfs URIs: they are UNREACHABLE_TOKEN_URI', async () => {
    const { body } = await get(`/nfts/collections/${nftWeb}/tokens`)
    expect((body.tokens as Json[]).map((t) => [t.tokenUri, t.metadata])).toEqual([
      ['https://meta.example/1.json', { indexStatus: 'UNREACHABLE_TOKEN_URI', metadataLastUpdatedTimestamp: headTime() }],
      ['ipfs://QmToken/2', { indexStatus: 'UNREACHABLE_TOKEN_URI', metadataLastUpdatedTimestamp: headTime() }],
    ])
  })

  it('answers INVALID_TOKEN_URI when tokenURI reverts for a token that exists', async () => {
    const { body } = await get(`/nfts/collections/${nftRevert}/tokens`)
    expect(body.tokens).toEqual([
      { address: getAddress(nftRevert), name: 'Revert', symbol: 'REVERT', ercType: 'ERC-721', tokenId: '1', tokenUri: '', metadata: { indexStatus: 'INVALID_TOKEN_URI', metadataLastUpdatedTimestamp: headTime() }, ownerAddress: bob.address },
    ])
  })

  it('follows the owner through transfers and re-reads metadata after a new transfer', async () => {
    const before = (await get(`/nfts/collections/${nftData}/tokens?pageSize=1`)).body.tokens[0]
    const readAt = before.metadata.metadataLastUpdatedTimestamp as number
    await devnet.network.advanceTime(10)
    await send(bob, { address: nftData, abi: TestNFT721.abi, functionName: 'transferFrom', args: [bob.address, carol.address, 1n] })
    const after = (await get(`/nfts/collections/${nftData}/tokens?pageSize=1`)).body.tokens[0]
    expect(after.ownerAddress).toBe(carol.address)
    expect(after.metadata).toEqual({ ...before.metadata, metadataLastUpdatedTimestamp: headTime() })
    expect(headTime()).toBeGreaterThan(readAt)
  })

  it('serves no metadata of a token a revert removed, and reads the new one minted in its place', async () => {
    const network = devnet.network
    const id = await network.snapshot()
    await send(alice, { address: nftData, abi: TestNFT721.abi, functionName: 'setTokenURI', args: [20n, 'data:application/json,{"name":"before"}'] })
    await send(alice, { address: nftData, abi: TestNFT721.abi, functionName: 'mint', args: [bob.address, 20n] })
    const tokenIds = async () => ((await get(`/nfts/collections/${nftData}/tokens?pageSize=100`)).body.tokens as Json[]).map((t) => t.tokenId)
    const token20 = async () => ((await get(`/nfts/collections/${nftData}/tokens?pageSize=100`)).body.tokens as Json[]).find((t) => t.tokenId === '20')
    expect((await token20())!.metadata.name).toBe('before')
    expect(await network.revert(id)).toBe(true)
    expect(await tokenIds()).not.toContain('20')
    // The same two calls, with another name: same block numbers, new blocks.
    await send(alice, { address: nftData, abi: TestNFT721.abi, functionName: 'setTokenURI', args: [20n, 'data:application/json,{"name":"after"}'] })
    await send(alice, { address: nftData, abi: TestNFT721.abi, functionName: 'mint', args: [carol.address, 20n] })
    const minted = await token20()
    expect(minted!.metadata).toEqual({ indexStatus: 'INDEXED', metadataLastUpdatedTimestamp: headTime(), name: 'after' })
    expect(minted!.ownerAddress).toBe(carol.address)
  })
})

describe('ERC-1155 metadata', () => {
  it('substitutes {id} (64 lower-case hex digits) and reads the document (listErc1155Balances, op 8)', async () => {
    const { status, body } = await get(`/addresses/${bob.address}/balances:listErc1155?contractAddress=${items}`)
    expect(status).toBe(200)
    const at = headTime()
    const entry = (id: bigint, balance: string) => ({
      address: getAddress(items),
      ercType: 'ERC-1155',
      tokenId: id.toString(),
      tokenUri: `data:application/json,{"name":"Item ${hex64(id)}","decimals":2,"properties":{"rarity":"rare"}}`,
      metadata: { indexStatus: 'INDEXED', metadataLastUpdatedTimestamp: at, name: `Item ${hex64(id)}`, decimals: 2, properties: '{"rarity":"rare"}' },
      chainId,
      balance,
    })
    expect(body.erc1155TokenBalances).toEqual([entry(1n, '5'), entry(2n, '6'), entry(255n, '7')])
    expect(hex64(255n)).toBe('00000000000000000000000000000000000000000000000000000000000000ff')
  })

  it('lists the ids of a collection with their URIs (listTokens, op 13)', async () => {
    const { body } = await get(`/nfts/collections/${itemsWeb}/tokens`)
    expect(body.tokens).toEqual([
      {
        address: getAddress(itemsWeb),
        ercType: 'ERC-1155',
        tokenId: '10',
        tokenUri: `https://items.example/${hex64(10n)}.json`,
        metadata: { indexStatus: 'UNREACHABLE_TOKEN_URI', metadataLastUpdatedTimestamp: headTime() },
      },
    ])
  })
})

describe('nftMetadata', () => {
  it('grades URIs without touching the chain', () => {
    expect(nftMetadata('data:application/json;base64,eyJuYW1lIjoieCJ9', 'ERC-721')).toEqual({ indexStatus: 'INDEXED', name: 'x' })
    // RFC 2397's default media type, and a raw (not percent-encoded) document with a stray %.
    expect(nftMetadata('data:,{"name":"100%"}', 'ERC-721')).toEqual({ indexStatus: 'INDEXED', name: '100%' })
    expect(nftMetadata('data:application/json;base64,!!!', 'ERC-721')).toEqual({ indexStatus: 'INVALID_TOKEN_URI' })
    expect(nftMetadata('data:application/json', 'ERC-721')).toEqual({ indexStatus: 'INVALID_TOKEN_URI' })
    expect(nftMetadata('data:application/json,"text"', 'ERC-1155')).toEqual({ indexStatus: 'INVALID_METADATA' })
    expect(nftMetadata(`data:application/json;base64,${Buffer.from([0xff, 0xfe]).toString('base64')}`, 'ERC-721')).toEqual({ indexStatus: 'INVALID_METADATA_JSON' })
    expect(nftMetadata('HTTPS://x', 'ERC-721')).toEqual({ indexStatus: 'UNREACHABLE_TOKEN_URI' })
    expect(nftMetadata('ar://tx', 'ERC-721')).toEqual({ indexStatus: 'UNREACHABLE_TOKEN_URI' })
    expect(nftMetadata('no-scheme/1.json', 'ERC-721')).toEqual({ indexStatus: 'INVALID_TOKEN_URI_SCHEME' })
    expect(nftMetadata('   ', 'ERC-721')).toEqual({ indexStatus: 'INVALID_TOKEN_URI' })
  })

  it('refuses documents above the size limit', () => {
    const big = JSON.stringify({ name: 'x', description: 'd'.repeat(METADATA_MAX_BYTES) })
    expect(nftMetadata(`data:application/json,${big}`, 'ERC-721')).toEqual({ indexStatus: 'METADATA_CONTENT_TOO_LARGE' })
    const fits = JSON.stringify({ name: 'x', description: 'd'.repeat(METADATA_MAX_BYTES - 40) })
    expect(nftMetadata(`data:application/json,${fits}`, 'ERC-721').indexStatus).toBe('INDEXED')
  })

  it('substitutes every {id}', () => {
    expect(substituteId('a/{id}/{id}', 26n)).toBe(`a/${hex64(26n)}/${hex64(26n)}`)
  })
})
