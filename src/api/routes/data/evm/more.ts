/**
 * More EVM operations of the data API (data-api.md §11): 3 listTransactions, 8 listErc1155Balances
 * and 13 listTokens (the tokens of an NFT collection), read from the network's EVM indexers.
 *
 * Register next to {@link evmDataRoutes}: `routes: [evmDataRoutes(network), moreEvmDataRoutes(network)]`.
 * Internal transactions come from the chain's trace indexer (`internal.ts`).
 */
import type { FastifyInstance } from 'fastify'
import type { Hex } from '../../../../core/hex.js'
import type { EvmChain } from '../../../../evm/chain.js'
import type { EvmIndexer, ListQuery, Page, TxRecord } from '../../../../indexer/index.js'
import type { Network } from '../../../../network/network.js'
import { badRequest, notFound } from '../errors.js'
import type { V1Context, V1Routes } from '../index.js'
import { INVALID_PAGE_TOKEN, nextPageToken, type PageScope } from '../paging.js'
import type { Money } from '../prices.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from '../query.js'
import {
  checksum,
  erc1155TransferDetails,
  erc20TransferDetails,
  erc721TransferDetails,
  evmChainResolver,
  INVALID_ADDRESS,
  START_AFTER_END_BLOCK,
  nativeTransactions,
  nftReads,
  nftToken,
  pricesOf,
  readPage,
  tokenInfos,
  ZERO_ADDRESS,
  type Erc1155TokenMetadata,
  type Erc1155TransferDetails,
  type Erc20TransferDetails,
  type Erc721Token,
  type Erc1155Token,
  type Erc721TransferDetails,
  type NativeTransaction,
} from './index.js'
import { internalTransactionsField, type InternalTransactionDetails } from './internal.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BLOCK_NUMBER = /^(0|[1-9][0-9]{0,15})$/
const ALL = Number.MAX_SAFE_INTEGER
export const INVALID_BLOCK_NUMBER = 'blockNumber must be a block number'
export const INVALID_CONTRACT_ADDRESS = 'Invalid contractAddress format'

export { METADATA_MAX_BYTES, nftMetadata, TOKEN_URI_SELECTOR, URI_SELECTOR } from './tokens.js'
export type { Erc1155TokenMetadata, Erc721TokenMetadata, NftTokenMetadataStatus } from './models.js'

export type TransactionDetails = {
  nativeTransaction: NativeTransaction
  erc20Transfers?: Erc20TransferDetails[]
  erc721Transfers?: Erc721TransferDetails[]
  erc1155Transfers?: Erc1155TransferDetails[]
  internalTransactions?: InternalTransactionDetails[]
}
export type ListTransactionDetailsResponse = { nextPageToken?: string; transactions: TransactionDetails[] }

export type NativeTokenBalance = {
  name: string
  symbol: string
  decimals: number
  logoUri?: string
  chainId: string
  price?: Money
  balance: string
  balanceValue?: Money
}
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

export type NftErc721Token = Erc721Token
export type NftErc1155Token = Erc1155Token
export type ListNftTokens = { nextPageToken?: string; tokens: (NftErc721Token | NftErc1155Token)[] }

type AddressParams = { chainId: string; address: string }

/** The block hash of the newest transfer of each id of an ERC-1155 contract: what its metadata cache is keyed by. */
function lastErc1155Transfers(indexer: EvmIndexer, token: string): Map<bigint, string> {
  const last = new Map<bigint, string>()
  // Newest first: the first transfer naming an id is its last.
  for (const t of indexer.tokenTransfers.erc1155({ address: token, pageSize: ALL }).items) for (const id of t.ids) if (!last.has(id)) last.set(id, t.blockHash)
  return last
}

async function erc1155Token(chain: EvmChain, token: string, id: bigint, lastTransfer: string): Promise<NftErc1155Token> {
  const { tokenUri, metadata } = await nftToken(chain, token, id, 'ERC-1155', lastTransfer)
  return { address: checksum(token), ercType: 'ERC-1155', tokenId: id.toString(10), tokenUri, metadata }
}

/** Pages of a sorted list by key: the items after `cursor`, and the key of the last one if more follow. */
function keyPage<T>(items: T[], key: (item: T) => string, after: (item: T, cursor: string) => boolean, cursor: string | undefined, pageSize: number): Page<T> {
  const start = cursor === undefined ? 0 : items.findIndex((item) => after(item, cursor))
  const rest = start === -1 ? [] : items.slice(start)
  const out = rest.slice(0, pageSize)
  return rest.length > pageSize ? { items: out, nextCursor: key(out[out.length - 1]!) } : { items: out }
}

const DECIMAL_CURSOR = /^(0|[1-9][0-9]{0,77})$/
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
      if (startBlock !== undefined && endBlock !== undefined && startBlock > endBlock) query.errors.push(START_AFTER_END_BLOCK)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listTransactions)
      const pageToken = query.pageToken()
      const sortOrder = query.enum('sortOrder', ['asc', 'desc'])
      if (!ADDRESS.test(request.params.address)) query.errors.push(INVALID_ADDRESS)
      query.finish()
      const { chain, indexer, evmChainId } = evmChain(request.params.chainId)
      const address = request.params.address.toLowerCase()
      const scope: PageScope = { op: 'listTransactions', filters: { chainId: evmChainId, address, startBlock, endBlock, sortOrder } }
      const cursor = pageToken === undefined ? undefined : tokens.decode(pageToken, scope)
      const result = readPage(indexer.addressActivity, {
        address,
        pageSize,
        order: sortOrder ?? 'desc',
        ...(cursor !== undefined ? { cursor } : {}),
        ...(startBlock !== undefined ? { startBlock } : {}),
        ...(endBlock !== undefined ? { endBlock } : {}),
      })
      // The transfers of each transaction the address sent or received, in log order.
      const ofTx = <T extends { txHash: string }>(list: (q: ListQuery) => Page<T>, tx: TxRecord) =>
        list({ address, startBlock: tx.blockNumber, endBlock: tx.blockNumber + 1, pageSize: ALL }).items.filter((t) => t.txHash === tx.hash).reverse()
      const perTx = result.items.map((tx) => ({ tx, erc20: ofTx(indexer.erc20Transfers, tx), erc721: ofTx(indexer.erc721Transfers, tx), erc1155: ofTx(indexer.erc1155Transfers, tx) }))
      const [infos, nfts] = await Promise.all([tokenInfos(chain, perTx.flatMap((p) => [...p.erc20, ...p.erc721].map((t) => t.token))), nftReads(chain, perTx.flatMap((p) => [...p.erc721, ...p.erc1155]))])
      // Internal transactions of the address: frames it sent or received (SPEC §4.4 rule 2).
      const internals = await Promise.all(perTx.map(({ tx }) => internalTransactionsField(chain, tx.hash, address)))
      const natives = nativeTransactions(chain, result.items)
      const transactions = perTx.map(({ erc20, erc721, erc1155 }, i): TransactionDetails => ({
        nativeTransaction: natives[i]!,
        ...(erc20.length > 0 ? { erc20Transfers: erc20.map((t) => erc20TransferDetails(t, infos.get(t.token)!)) } : {}),
        ...(erc721.length > 0 ? { erc721Transfers: erc721.map((t) => erc721TransferDetails(t, infos.get(t.token)!, nfts)) } : {}),
        ...(erc1155.length > 0 ? { erc1155Transfers: erc1155.flatMap((t) => erc1155TransferDetails(t, nfts)) } : {}),
        ...internals[i],
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
      // The price table has no history: a balance at an earlier block is valued at the configured price.
      const priced = pricesOf(chain).nativeBalance(evmChainId, symbol, 'usd', balance, decimals)
      const nativeTokenBalance: NativeTokenBalance = {
        name,
        symbol,
        decimals,
        ...(logoUri !== undefined ? { logoUri } : {}),
        chainId: evmChainId,
        ...(priced ? { price: priced.price } : {}),
        balance: balance.toString(10),
        ...(priced ? { balanceValue: priced.balanceValue } : {}),
      }
      const lastTransfers = new Map<string, Map<bigint, string>>()
      const lastTransfer = (token: string, id: bigint) => {
        let ofToken = lastTransfers.get(token)
        if (!ofToken) lastTransfers.set(token, (ofToken = lastErc1155Transfers(indexer, token)))
        return ofToken.get(id) ?? ''
      }
      const erc1155TokenBalances = await Promise.all(
        result.items.map(async (b): Promise<Erc1155TokenBalance> => ({ ...(await erc1155Token(chain, b.token, b.tokenId, lastTransfer(b.token, b.tokenId))), chainId: evmChainId, balance: b.balance.toString(10) })),
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
        // Newest first: the first transfer of an id names its current owner (and keys its metadata).
        const last = new Map<bigint, { owner: string; blockHash: string }>()
        for (const t of erc721) if (!last.has(t.tokenId)) last.set(t.tokenId, { owner: t.to, blockHash: t.blockHash })
        const held = [...last].filter(([, { owner }]) => owner !== ZERO_ADDRESS).map(([id, { owner, blockHash }]) => ({ id, owner, blockHash }))
        const result = idPage(held)
        const info = (await tokenInfos(chain, [address])).get(address)!
        const items = await Promise.all(
          result.items.map(async ({ id, owner, blockHash }): Promise<NftErc721Token> => {
            const { tokenUri, metadata } = await nftToken(chain, address, id, 'ERC-721', blockHash)
            return { address: checksum(address), name: info.name, symbol: info.symbol, ercType: 'ERC-721', tokenId: id.toString(10), tokenUri, metadata, ownerAddress: checksum(owner) }
          }),
        )
        return { ...nextPageToken(tokens, result, scope), tokens: items }
      }
      const ids = [...lastErc1155Transfers(indexer, address)].map(([id, blockHash]) => ({ id, blockHash }))
      const result = idPage(ids)
      const items = await Promise.all(result.items.map(({ id, blockHash }) => erc1155Token(chain, address, id, blockHash)))
      return { ...nextPageToken(tokens, result, scope), tokens: items }
    })
  }
}
