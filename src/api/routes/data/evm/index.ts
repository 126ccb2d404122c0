/**
 * The EVM transaction operations of the data API (data-api.md §11): 4 listNativeTransactions,
 * 5 listErc20Transactions, 6 listErc721Transactions, 7 listTransfers, 9 getDeploymentTransaction,
 * 10 getTransaction and 11 getTransactionsForBlock, read from the network's EVM indexers.
 *
 * Register with `app.register(dataRoutes, { source, routes: [evmDataRoutes(network)] })`.
 * Custom-method paths carry a literal `:` (`transactions:listNative`); fastify reads `::` in a
 * route as one literal colon.
 */
import type { FastifyInstance } from 'fastify'
import type { EvmChain } from '../../../../evm/chain.js'
import type { EvmIndexer, ListQuery } from '../../../../indexer/index.js'
import type { Network } from '../../../../network/network.js'
import { badRequest, notFound } from '../errors.js'
import type { V1Context, V1Routes } from '../index.js'
import { evmChainFor, indexerFor, readPage } from '../networkSource.js'

export { readPage }
import { INVALID_PAGE_TOKEN, nextPageToken, type PageScope } from '../paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader, type PageSizeBounds } from '../query.js'
import {
  erc1155TransferDetails,
  erc1155Transfers,
  erc20Transfer,
  erc20TransferDetails,
  erc721Transfer,
  erc721TransferDetails,
  fullNativeTransaction,
  nativeTransactions,
  networkTokenDetails,
  teleporterMessageInfo,
  type Erc20TransferModel,
  type Erc721TransferModel,
  type Erc1155TransferModel,
  type GetTransactionResponse,
  type ListErc20TransactionsResponse,
  type ListErc721TransactionsResponse,
  type ListNativeTransactionsResponse,
  type ListTransfersResponse,
} from './models.js'
import { deploymentTxHash, internalTransactionsField } from './internal.js'
import { CURRENCY_CODES, type CurrencyCode } from '../prices.js'
import { bindNetwork, nftReads, tokenInfos } from './tokens.js'

export * from './models.js'
export * from './tokens.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HASH = /^0x[0-9a-fA-F]{64}$/
const BLOCK_NUMBER = /^(0|[1-9][0-9]{0,15})$/
export const INVALID_ADDRESS = 'Invalid address format'
export const INVALID_TX_HASH = 'Invalid transaction hash format'
export const INVALID_BLOCK_ID = 'blockId must be a block number or a block hash'
export const START_AFTER_END_BLOCK = 'startBlock must not be greater than endBlock'
const ALL = Number.MAX_SAFE_INTEGER

type AddressParams = { chainId: string; address: string }

/** A page of the indexer, its cursor errors as the bad page tokens they are. */
/** The EVM chain a /v1 path names (404 otherwise), with its indexer. */
export function evmChainResolver(network: Network, ctx: V1Context) {
  return (chainId: string): { chain: EvmChain; indexer: EvmIndexer; evmChainId: string } => {
    const data = ctx.chainOr404(chainId)
    const chain = evmChainFor(network, data.evmChainId)
    if (!chain) throw notFound(`Chain ${chainId} not found`)
    bindNetwork(chain, network)
    return { chain, indexer: indexerFor(chain), evmChainId: data.evmChainId }
  }
}

export function evmDataRoutes(network: Network): V1Routes {
  return (app: FastifyInstance, ctx: V1Context) => {
    const { tokens } = ctx
    const evmChain = evmChainResolver(network, ctx)

    /**
     * The parameters of an address list (ops 4-7): page size, token, block range, with the path
     * address checked; the chain resolved; and the query and scope for the indexer.
     */
    const addressList = (op: keyof typeof PAGE_SIZE_BOUNDS, params: AddressParams, rawQuery: unknown) => {
      const query = new QueryReader(rawQuery)
      const startBlock = query.integer('startBlock', { min: 0 })
      const endBlock = query.integer('endBlock', { min: 0 })
      if (startBlock !== undefined && endBlock !== undefined && startBlock > endBlock) query.errors.push(START_AFTER_END_BLOCK)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS[op] as PageSizeBounds)
      const pageToken = query.pageToken()
      if (!ADDRESS.test(params.address)) query.errors.push(INVALID_ADDRESS)
      query.finish()
      const resolved = evmChain(params.chainId)
      const address = params.address.toLowerCase()
      const scope: PageScope = { op, filters: { chainId: resolved.evmChainId, address, startBlock, endBlock } }
      const cursor = pageToken === undefined ? undefined : tokens.decode(pageToken, scope)
      const q: ListQuery = {
        address,
        pageSize,
        ...(startBlock !== undefined ? { startBlock } : {}),
        ...(endBlock !== undefined ? { endBlock } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      }
      return { ...resolved, q, scope }
    }

    // 4. listNativeTransactions
    app.get<{ Params: AddressParams }>('/chains/:chainId/addresses/:address/transactions::listNative', async (request): Promise<ListNativeTransactionsResponse> => {
      const { chain, indexer, q, scope } = addressList('listNativeTransactions', request.params, request.query)
      const result = readPage(indexer.transactions, q)
      return { ...nextPageToken(tokens, result, scope), transactions: nativeTransactions(chain, result.items) }
    })

    // 5. listErc20Transactions
    app.get<{ Params: AddressParams }>('/chains/:chainId/addresses/:address/transactions::listErc20', async (request): Promise<ListErc20TransactionsResponse> => {
      const { chain, indexer, q, scope } = addressList('listErc20Transactions', request.params, request.query)
      const result = readPage(indexer.erc20Transfers, q)
      const infos = await tokenInfos(chain, result.items.map((t) => t.token))
      return { ...nextPageToken(tokens, result, scope), transactions: result.items.map((t) => erc20Transfer(chain, t, infos.get(t.token)!)) }
    })

    // 6. listErc721Transactions
    app.get<{ Params: AddressParams }>('/chains/:chainId/addresses/:address/transactions::listErc721', async (request): Promise<ListErc721TransactionsResponse> => {
      const { chain, indexer, q, scope } = addressList('listErc721Transactions', request.params, request.query)
      const result = readPage(indexer.erc721Transfers, q)
      const [infos, nfts] = await Promise.all([tokenInfos(chain, result.items.map((t) => t.token)), nftReads(chain, result.items)])
      return { ...nextPageToken(tokens, result, scope), transactions: result.items.map((t) => erc721Transfer(chain, t, infos.get(t.token)!, nfts)) }
    })

    // 7. listTransfers: the transfers of one token contract, of whichever standard it emits.
    app.get<{ Params: AddressParams }>('/chains/:chainId/tokens/:address/transfers', async (request): Promise<ListTransfersResponse> => {
      const { chain, indexer, q, scope } = addressList('listTransfers', request.params, request.query)
      const token = { ...q, address: q.address! }
      // A contract emits one standard's events; the first list with anything decides.
      const erc20 = readPage(indexer.tokenTransfers.erc20, token)
      if (erc20.items.length > 0) {
        const infos = await tokenInfos(chain, [token.address])
        return { ...nextPageToken(tokens, erc20, scope), transfers: erc20.items.map((t) => erc20Transfer(chain, t, infos.get(t.token)!)) }
      }
      const erc721 = readPage(indexer.tokenTransfers.erc721, token)
      if (erc721.items.length > 0) {
        const [infos, nfts] = await Promise.all([tokenInfos(chain, [token.address]), nftReads(chain, erc721.items)])
        const transfers: Erc721TransferModel[] = erc721.items.map((t) => erc721Transfer(chain, t, infos.get(t.token)!, nfts))
        return { ...nextPageToken(tokens, erc721, scope), transfers }
      }
      const erc1155 = readPage(indexer.tokenTransfers.erc1155, token)
      const nfts = await nftReads(chain, erc1155.items)
      const transfers: (Erc20TransferModel | Erc721TransferModel | Erc1155TransferModel)[] = erc1155.items.flatMap((t) => erc1155Transfers(chain, t, nfts))
      return { ...nextPageToken(tokens, erc1155, scope), transfers }
    })

    /** The full transaction a hash names on an indexed chain, with its transfers; undefined if unknown. */
    const transactionResponse = async (chain: EvmChain, indexer: EvmIndexer, evmChainId: string, txHash: string, currency: CurrencyCode = 'usd'): Promise<GetTransactionResponse | undefined> => {
      const tx = indexer.transaction(txHash)
      if (!tx) return undefined
      const inBlock: ListQuery = { startBlock: tx.blockNumber, endBlock: tx.blockNumber + 1, pageSize: ALL }
      const ofTx = <T extends { txHash: string }>(items: T[]) => items.filter((t) => t.txHash === tx.hash).reverse()
      const erc20 = ofTx(indexer.erc20Transfers(inBlock).items)
      const erc721 = ofTx(indexer.erc721Transfers(inBlock).items)
      const erc1155 = ofTx(indexer.erc1155Transfers(inBlock).items)
      const [infos, nfts] = await Promise.all([tokenInfos(chain, [...erc20, ...erc721].map((t) => t.token), currency), nftReads(chain, [...erc721, ...erc1155])])
      const data = ctx.chainOr404(evmChainId)
      const teleporter = teleporterMessageInfo(indexer, tx.hash)
      const out: GetTransactionResponse = {
        networkTokenDetails: networkTokenDetails(chain, evmChainId, data.networkToken, currency, tx.timestamp),
        nativeTransaction: fullNativeTransaction(chain, tx),
        ...(teleporter ? { teleporterMessageInfo: teleporter } : {}),
      }
      return {
        ...(erc20.length > 0 ? { erc20Transfers: erc20.map((t) => erc20TransferDetails(t, infos.get(t.token)!)) } : {}),
        ...(erc721.length > 0 ? { erc721Transfers: erc721.map((t) => erc721TransferDetails(t, infos.get(t.token)!, nfts)) } : {}),
        ...(erc1155.length > 0 ? { erc1155Transfers: erc1155.flatMap((t) => erc1155TransferDetails(t, nfts)) } : {}),
        ...(await internalTransactionsField(chain, tx.hash)),
        ...out,
      }
    }

    // 9. getDeploymentTransaction
    app.get<{ Params: AddressParams }>('/chains/:chainId/contracts/:address/transactions::getDeployment', async (request): Promise<GetTransactionResponse> => {
      const query = new QueryReader(request.query)
      const currency = query.enum('currency', CURRENCY_CODES) ?? 'usd'
      if (!ADDRESS.test(request.params.address)) query.errors.push(INVALID_ADDRESS)
      query.finish()
      const { chain, indexer, evmChainId } = evmChain(request.params.chainId)
      // Contracts made by contracts too (a CREATE/CREATE2 in a frame that did not revert).
      const deploymentTx = await deploymentTxHash(chain, indexer, request.params.address)
      const response = deploymentTx && (await transactionResponse(chain, indexer, evmChainId, deploymentTx, currency))
      if (!response) throw notFound(`No deployment transaction found for contract ${request.params.address}`)
      return response
    })

    // 10. getTransaction
    app.get<{ Params: { chainId: string; txHash: string } }>('/chains/:chainId/transactions/:txHash', async (request): Promise<GetTransactionResponse> => {
      new QueryReader(request.query).finish()
      if (!HASH.test(request.params.txHash)) throw badRequest(INVALID_TX_HASH)
      const { chain, indexer, evmChainId } = evmChain(request.params.chainId)
      const response = await transactionResponse(chain, indexer, evmChainId, request.params.txHash)
      if (!response) throw notFound(`Transaction ${request.params.txHash} not found`)
      return response
    })

    // 11. getTransactionsForBlock: pageSize 0 (the default) means the whole block.
    app.get<{ Params: { chainId: string; blockId: string } }>('/chains/:chainId/blocks/:blockId/transactions', async (request): Promise<ListNativeTransactionsResponse> => {
      const query = new QueryReader(request.query)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.getTransactionsForBlock)
      const pageToken = query.pageToken()
      const { blockId } = request.params
      if (!BLOCK_NUMBER.test(blockId) && !HASH.test(blockId)) query.errors.push(INVALID_BLOCK_ID)
      query.finish()
      const { chain, indexer, evmChainId } = evmChain(request.params.chainId)
      const block = HASH.test(blockId) ? indexer.blockByHash(blockId) : indexer.block(Number(blockId))
      if (!block) throw notFound(`Block ${blockId} not found`)
      // Bound to the block's hash: a token does not survive the block being replaced.
      const scope: PageScope = { op: 'getTransactionsForBlock', filters: { chainId: evmChainId, blockHash: block.hash } }
      let start = 0
      if (pageToken !== undefined) {
        const cursor = tokens.decode(pageToken, scope)
        if (!/^(0|[1-9][0-9]{0,6})$/.test(cursor)) throw badRequest(INVALID_PAGE_TOKEN)
        start = Number(cursor)
      }
      const txs = indexer.transactionsOfBlock(block.number) ?? []
      const end = pageSize === 0 ? txs.length : Math.min(txs.length, start + pageSize)
      const items = txs.slice(start, end)
      const result = { items, ...(end < txs.length ? { nextCursor: String(end) } : {}) }
      return { ...nextPageToken(tokens, result, scope), transactions: nativeTransactions(chain, items) }
    })
  }
}
