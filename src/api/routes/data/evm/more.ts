/**
 * More EVM operations of the data API (data-api.md §11): 3 listTransactions, 8 listErc1155Balances
 * and 13 listTokens (the tokens of an NFT collection), read from the network's EVM indexers.
 *
 * Register next to {@link evmDataRoutes}: `routes: [evmDataRoutes(network), moreEvmDataRoutes(network)]`.
 * Internal transactions are not indexed, so `TransactionDetails.internalTransactions` is omitted.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { FastifyInstance } from 'fastify'
import type { Hex } from '../../../../core/hex.js'
import { call } from '../../../../evm/call.js'
import type { EvmChain } from '../../../../evm/chain.js'
import type { Page, TxRecord } from '../../../../indexer/index.js'
import type { Network } from '../../../../network/network.js'
import { badRequest, notFound } from '../errors.js'
import type { V1Context, V1Routes } from '../index.js'
import { INVALID_PAGE_TOKEN, nextPageToken, type PageScope } from '../paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from '../query.js'
import {
  checksum,
  decodeString,
  erc1155TransferDetails,
  erc20TransferDetails,
  erc721TransferDetails,
  evmChainResolver,
  INVALID_ADDRESS,
  nativeTransaction,
  tokenInfos,
  ZERO_ADDRESS,
  type Erc1155TransferDetails,
  type Erc20TransferDetails,
  type Erc721TransferDetails,
  type NativeTransaction,
} from './index.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BLOCK_NUMBER = /^(0|[1-9][0-9]{0,15})$/
const ALL = Number.MAX_SAFE_INTEGER
export const INVALID_BLOCK_NUMBER = 'blockNumber must be a block number'
export const INVALID_CONTRACT_ADDRESS = 'Invalid contractAddress format'

export const TOKEN_URI_SELECTOR = '0xc87b56dd'
export const URI_SELECTOR = '0x0e89341c'

export type NftTokenMetadataStatus =
  | 'UNKNOWN'
  | 'MISSING_TOKEN'
  | 'INVALID_TOKEN_URI'
  | 'INVALID_TOKEN_URI_SCHEME'
  | 'UNREACHABLE_TOKEN_URI'
  | 'THROTTLED_TOKEN_URI'
  | 'METADATA_CONTENT_TOO_LARGE'
  | 'INVALID_METADATA'
  | 'INVALID_METADATA_JSON'
  | 'INDEXED'
  | 'UNINDEXED'

type MetadataCommon = {
  indexStatus: NftTokenMetadataStatus
  metadataLastUpdatedTimestamp?: number
  name?: string
  symbol?: string
  imageUri?: string
  description?: string
  animationUri?: string
  externalUrl?: string
  background?: string
}
export type Erc721TokenMetadata = MetadataCommon & { attributes?: string }
export type Erc1155TokenMetadata = MetadataCommon & { decimals?: number; properties?: string }

export type TransactionDetails = {
  nativeTransaction: NativeTransaction
  erc20Transfers?: Erc20TransferDetails[]
  erc721Transfers?: Erc721TransferDetails[]
  erc1155Transfers?: Erc1155TransferDetails[]
}
export type ListTransactionDetailsResponse = { nextPageToken?: string; transactions: TransactionDetails[] }

export type NativeTokenBalance = { name: string; symbol: string; decimals: number; logoUri?: string; chainId: string; balance: string }
export type Erc1155TokenBalance = {
  address: string
  ercType: 'ERC-1155'
  tokenId: string
  tokenUri: string
  metadata: Erc1155TokenMetadata
  chainId: string
  balance: string
}
export type ListErc1155BalancesResponse = { nextPageToken?: string; nativeTokenBalance: NativeTokenBalance; erc1155TokenBalances: Erc1155TokenBalance[] }

export type NftErc721Token = {
  address: string
  name: string
  symbol: string
  ercType: 'ERC-721'
  tokenId: string
  tokenUri: string
  metadata: Erc721TokenMetadata
  ownerAddress?: string
}
export type NftErc1155Token = { address: string; ercType: 'ERC-1155'; tokenId: string; tokenUri: string; metadata: Erc1155TokenMetadata }
export type ListNftTokens = { nextPageToken?: string; tokens: (NftErc721Token | NftErc1155Token)[] }

type AddressParams = { chainId: string; address: string }

/** A URI string returned by `selector(uint256 id)` on `token` at `latest`; `''` when the call fails. */
export async function readUri(chain: EvmChain, token: string, selector: string, id: bigint): Promise<string> {
  const data = hexToBytes(`${selector}${id.toString(16).padStart(64, '0')}` as Hex)
  try {
    const result = await call(chain, { to: token as Hex, data }, 'latest')
    return result.success ? decodeString(result.returnValue) : ''
  } catch {
    return ''
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const json = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v))

/** Upper bound on a decoded `data:` document, as the hosted indexer limits metadata size. */
export const METADATA_MAX_BYTES = 1 << 20

/**
 * The metadata of a token URI. Only `data:` URIs are read (no network access): a JSON document
 * becomes `INDEXED` with its standard fields; a bad one `INVALID_METADATA_JSON` / `INVALID_METADATA`.
 * Any other URI, or none, is `UNINDEXED`.
 */
export function nftMetadata(tokenUri: string, standard: 'ERC-721' | 'ERC-1155'): Erc721TokenMetadata & Erc1155TokenMetadata {
  const m = /^data:([^,]*),(.*)$/s.exec(tokenUri)
  if (!m) return { indexStatus: 'UNINDEXED' }
  const params = m[1]!.split(';').map((p) => p.trim().toLowerCase())
  let text: string
  try {
    text = params.includes('base64') ? Buffer.from(m[2]!, 'base64').toString('utf8') : decodeURIComponent(m[2]!)
  } catch {
    return { indexStatus: 'INVALID_TOKEN_URI' }
  }
  if (Buffer.byteLength(text, 'utf8') > METADATA_MAX_BYTES) return { indexStatus: 'METADATA_CONTENT_TOO_LARGE' }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return { indexStatus: 'INVALID_METADATA_JSON' }
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return { indexStatus: 'INVALID_METADATA' }
  const d = doc as Record<string, unknown>
  const out: Record<string, unknown> = {
    indexStatus: 'INDEXED',
    name: str(d.name),
    symbol: str(d.symbol),
    imageUri: str(d.image) ?? str(d.image_url),
    description: str(d.description),
    animationUri: str(d.animation_url),
    externalUrl: str(d.external_url),
    background: str(d.background_color),
  }
  if (standard === 'ERC-721') out.attributes = json(d.attributes)
  else {
    out.decimals = typeof d.decimals === 'number' && Number.isInteger(d.decimals) ? d.decimals : undefined
    out.properties = json(d.properties)
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key]
  return out as Erc721TokenMetadata & Erc1155TokenMetadata
}

/** An ERC-1155 `uri` with its `{id}` placeholder substituted (64 hex digits, lower case). */
const substituteId = (uri: string, id: bigint) => uri.replaceAll('{id}', id.toString(16).padStart(64, '0'))

async function erc1155Token(chain: EvmChain, token: string, id: bigint): Promise<NftErc1155Token> {
  const tokenUri = substituteId(await readUri(chain, token, URI_SELECTOR, id), id)
  const { indexStatus, metadataLastUpdatedTimestamp, name, symbol, imageUri, description, animationUri, externalUrl, background, decimals, properties } = nftMetadata(tokenUri, 'ERC-1155')
  const metadata: Erc1155TokenMetadata = { indexStatus, metadataLastUpdatedTimestamp, name, symbol, imageUri, description, animationUri, externalUrl, background, decimals, properties }
  for (const key of Object.keys(metadata) as (keyof Erc1155TokenMetadata)[]) if (metadata[key] === undefined) delete metadata[key]
  return { address: checksum(token), ercType: 'ERC-1155', tokenId: id.toString(10), tokenUri, metadata }
}

async function erc721Metadata(chain: EvmChain, token: string, id: bigint): Promise<{ tokenUri: string; metadata: Erc721TokenMetadata }> {
  const tokenUri = await readUri(chain, token, TOKEN_URI_SELECTOR, id)
  const { indexStatus, metadataLastUpdatedTimestamp, name, symbol, imageUri, description, animationUri, externalUrl, background, attributes } = nftMetadata(tokenUri, 'ERC-721')
  const metadata: Erc721TokenMetadata = { indexStatus, metadataLastUpdatedTimestamp, name, symbol, imageUri, description, animationUri, externalUrl, background, attributes }
  for (const key of Object.keys(metadata) as (keyof Erc721TokenMetadata)[]) if (metadata[key] === undefined) delete metadata[key]
  return { tokenUri, metadata }
}

/** Pages of a sorted list by key: the items after `cursor`, and the key of the last one if more follow. */
function keyPage<T>(items: T[], key: (item: T) => string, after: (item: T, cursor: string) => boolean, cursor: string | undefined, pageSize: number): Page<T> {
  const start = cursor === undefined ? 0 : items.findIndex((item) => after(item, cursor))
  const rest = start === -1 ? [] : items.slice(start)
  const out = rest.slice(0, pageSize)
  return rest.length > pageSize ? { items: out, nextCursor: key(out[out.length - 1]!) } : { items: out }
}

const DECIMAL_CURSOR = /^(0|[1-9][0-9]{0,77})$/
const TX_CURSOR = /^(0|[1-9][0-9]{0,15})\.(0|[1-9][0-9]{0,6})$/
const BALANCE_CURSOR = /^0x[0-9a-f]{40}\.(0|[1-9][0-9]{0,77})$/

export function moreEvmDataRoutes(network: Network): V1Routes {
  return (app: FastifyInstance, ctx: V1Context) => {
    const { tokens } = ctx

    const evmChain = evmChainResolver(network, ctx)

    // 3. listTransactions: the transactions the address sent or received, natively or as a token
    // party, each with the transfers of that transaction it sent or received.
    app.get<{ Params: AddressParams }>('/chains/:chainId/addresses/:address/transactions', async (request): Promise<ListTransactionDetailsResponse> => {
      const query = new QueryReader(request.query)
      const startBlock = query.integer('startBlock', { min: 0 })
      const endBlock = query.integer('endBlock', { min: 0 })
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listTransactions)
      const pageToken = query.pageToken()
      const sortOrder = query.enum('sortOrder', ['asc', 'desc'])
      if (!ADDRESS.test(request.params.address)) query.errors.push(INVALID_ADDRESS)
      query.finish()
      const { chain, indexer, evmChainId } = evmChain(request.params.chainId)
      const address = request.params.address.toLowerCase()
      const scope: PageScope = { op: 'listTransactions', filters: { chainId: evmChainId, address, startBlock, endBlock, sortOrder } }
      const cursor = pageToken === undefined ? undefined : tokens.decode(pageToken, scope)
      if (cursor !== undefined && !TX_CURSOR.test(cursor)) throw badRequest(INVALID_PAGE_TOKEN)
      const range = { address, pageSize: ALL, ...(startBlock !== undefined ? { startBlock } : {}), ...(endBlock !== undefined ? { endBlock } : {}) }
      // Every transaction the address sent or received, or in which it sent or received a token;
      // the transfer lists come oldest first per transaction after the reverse.
      const erc20 = indexer.erc20Transfers(range).items.reverse()
      const erc721 = indexer.erc721Transfers(range).items.reverse()
      const erc1155 = indexer.erc1155Transfers(range).items.reverse()
      const txs = new Map<string, TxRecord>()
      for (const tx of indexer.transactions(range).items) txs.set(tx.hash, tx)
      for (const t of [...erc20, ...erc721, ...erc1155]) {
        if (txs.has(t.txHash)) continue
        const tx = indexer.transaction(t.txHash)
        if (tx) txs.set(tx.hash, tx)
      }
      const asc = sortOrder === 'asc'
      const cmp = (a: TxRecord, b: TxRecord) => (a.blockNumber - b.blockNumber || a.index - b.index) * (asc ? 1 : -1)
      const sorted = [...txs.values()].sort(cmp)
      const result = keyPage(
        sorted,
        (tx) => `${tx.blockNumber}.${tx.index}`,
        (tx, c) => {
          const [blockNumber, index] = c.split('.').map(Number) as [number, number]
          return cmp(tx, { blockNumber, index } as TxRecord) > 0
        },
        cursor,
        pageSize,
      )
      const ofTx = <T extends { txHash: string }>(items: T[], hash: string) => items.filter((t) => t.txHash === hash)
      const perTx = result.items.map((tx) => ({ tx, erc20: ofTx(erc20, tx.hash), erc721: ofTx(erc721, tx.hash), erc1155: ofTx(erc1155, tx.hash) }))
      const infos = await tokenInfos(chain, perTx.flatMap((p) => [...p.erc20, ...p.erc721].map((t) => t.token)))
      const transactions = perTx.map(({ tx, erc20, erc721, erc1155 }): TransactionDetails => ({
        nativeTransaction: nativeTransaction(chain, tx),
        ...(erc20.length > 0 ? { erc20Transfers: erc20.map((t) => erc20TransferDetails(t, infos.get(t.token)!)) } : {}),
        ...(erc721.length > 0 ? { erc721Transfers: erc721.map((t) => erc721TransferDetails(t, infos.get(t.token)!)) } : {}),
        ...(erc1155.length > 0 ? { erc1155Transfers: erc1155.flatMap((t) => erc1155TransferDetails(t)) } : {}),
      }))
      return { ...nextPageToken(tokens, result, scope), transactions }
    })

    // 8. listErc1155Balances
    app.get<{ Params: AddressParams }>('/chains/:chainId/addresses/:address/balances::listErc1155', async (request): Promise<ListErc1155BalancesResponse> => {
      const query = new QueryReader(request.query)
      const blockNumber = query.string('blockNumber')
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listErc1155Balances)
      const pageToken = query.pageToken()
      const contractAddress = query.string('contractAddress')
      if (blockNumber !== undefined && !BLOCK_NUMBER.test(blockNumber)) query.errors.push(INVALID_BLOCK_NUMBER)
      if (contractAddress !== undefined && !ADDRESS.test(contractAddress)) query.errors.push(INVALID_CONTRACT_ADDRESS)
      if (!ADDRESS.test(request.params.address)) query.errors.push(INVALID_ADDRESS)
      query.finish()
      const { chain, indexer, evmChainId } = evmChain(request.params.chainId)
      if (blockNumber !== undefined && Number(blockNumber) > indexer.height) throw notFound(`Block ${blockNumber} not found`)
      const address = request.params.address.toLowerCase()
      const contract = contractAddress?.toLowerCase()
      const scope: PageScope = { op: 'listErc1155Balances', filters: { chainId: evmChainId, address, blockNumber, contractAddress: contract } }
      const cursor = pageToken === undefined ? undefined : tokens.decode(pageToken, scope)
      if (cursor !== undefined && !BALANCE_CURSOR.test(cursor)) throw badRequest(INVALID_PAGE_TOKEN)
      const all = indexer.erc1155Balances(address, blockNumber === undefined ? undefined : Number(blockNumber)).filter((b) => contract === undefined || b.token === contract)
      const result = keyPage(
        all,
        (b) => `${b.token}.${b.tokenId.toString(10)}`,
        (b, c) => {
          const [token, id] = c.split('.') as [string, string]
          return b.token > token || (b.token === token && b.tokenId > BigInt(id))
        },
        cursor,
        pageSize,
      )
      const data = ctx.chainOr404(evmChainId)
      const { name, symbol, decimals, logoUri } = data.networkToken
      const { balance } = await chain.getAccountFields(address as Hex, blockNumber === undefined ? 'latest' : BigInt(blockNumber))
      const nativeTokenBalance: NativeTokenBalance = { name, symbol, decimals, ...(logoUri !== undefined ? { logoUri } : {}), chainId: evmChainId, balance: balance.toString(10) }
      const erc1155TokenBalances = await Promise.all(
        result.items.map(async (b): Promise<Erc1155TokenBalance> => ({ ...(await erc1155Token(chain, b.token, b.tokenId)), chainId: evmChainId, balance: b.balance.toString(10) })),
      )
      return { ...nextPageToken(tokens, result, scope), nativeTokenBalance, erc1155TokenBalances }
    })

    // 13. listTokens: the tokens of an NFT collection, by id; ERC-721 ones with their current owner
    // (burned tokens are left out), ERC-1155 ones as every id ever transferred.
    app.get<{ Params: AddressParams }>('/chains/:chainId/nfts/collections/:address/tokens', async (request): Promise<ListNftTokens> => {
      const query = new QueryReader(request.query)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listTokens)
      const pageToken = query.pageToken()
      if (!ADDRESS.test(request.params.address)) query.errors.push(INVALID_ADDRESS)
      query.finish()
      const { chain, indexer, evmChainId } = evmChain(request.params.chainId)
      const address = request.params.address.toLowerCase()
      const scope: PageScope = { op: 'listTokens', filters: { chainId: evmChainId, address } }
      const cursor = pageToken === undefined ? undefined : tokens.decode(pageToken, scope)
      if (cursor !== undefined && !DECIMAL_CURSOR.test(cursor)) throw badRequest(INVALID_PAGE_TOKEN)
      const byId = <T extends { id: bigint }>(items: T[]) => items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      const idPage = <T extends { id: bigint }>(items: T[]) =>
        keyPage(byId(items), (t) => t.id.toString(10), (t, c) => t.id > BigInt(c), cursor, pageSize)

      const erc721 = indexer.tokenTransfers.erc721({ address, pageSize: ALL }).items
      if (erc721.length > 0) {
        // Newest first: the first transfer of an id names its current owner.
        const owners = new Map<bigint, string>()
        for (const t of erc721) if (!owners.has(t.tokenId)) owners.set(t.tokenId, t.to)
        const held = [...owners].filter(([, owner]) => owner !== ZERO_ADDRESS).map(([id, owner]) => ({ id, owner }))
        const result = idPage(held)
        const info = (await tokenInfos(chain, [address])).get(address)!
        const items = await Promise.all(
          result.items.map(async ({ id, owner }): Promise<NftErc721Token> => {
            const { tokenUri, metadata } = await erc721Metadata(chain, address, id)
            return { address: checksum(address), name: info.name, symbol: info.symbol, ercType: 'ERC-721', tokenId: id.toString(10), tokenUri, metadata, ownerAddress: checksum(owner) }
          }),
        )
        return { ...nextPageToken(tokens, result, scope), tokens: items }
      }
      const erc1155 = indexer.tokenTransfers.erc1155({ address, pageSize: ALL }).items
      const ids = [...new Set(erc1155.flatMap((t) => t.ids))].map((id) => ({ id }))
      const result = idPage(ids)
      const items = await Promise.all(result.items.map(({ id }) => erc1155Token(chain, address, id)))
      return { ...nextPageToken(tokens, result, scope), tokens: items }
    })
  }
}
