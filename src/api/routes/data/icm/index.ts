/**
 * The data API's Interchain Messaging operations: `listIcmMessages` (`GET /v1/icm/messages`),
 * `getIcmMessage` (`GET /v1/icm/messages/{messageId}`) and `listIcmMessagesByAddress`
 * (`GET /v1/icm/addresses/{address}/messages`), read from the network's EVM indexers (the C-chain
 * and every L1) through `indexer/icm.ts`, which pairs each send with its receive.
 *
 * Chain filters take a blockchain id in cb58 or one of this network's EVM chain ids; a value that
 * is neither names no chain and selects nothing. A hosted network name that is not this network
 * (`mainnet` on a local network) selects nothing either, as on `/v1/chains`.
 */
import type { FastifyInstance } from 'fastify'
import { bytesToHex } from '@ethereumjs/util'
import { cb58Decode } from '../../../../core/cb58.js'
import type { Hex } from '../../../../core/hex.js'
import { icmMessage, icmMessages, type IcmQuery } from '../../../../indexer/index.js'
import type { Network } from '../../../../network/network.js'
import { notFound } from '../errors.js'
import type { V1Context, V1Routes } from '../index.js'
import { indexerFor, readPage } from '../networkSource.js'
import { acceptedNetworkNames, namesNetwork } from '../networks.js'
import { nextPageToken, type PageScope } from '../paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from '../query.js'
import { INVALID_ADDRESS } from '../evm/index.js'
import { icmMessageModel, type DataIcmChain, type IcmMessage, type ListIcmMessagesResponse } from './models.js'

export * from './models.js'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const MESSAGE_ID = /^(0x)?[0-9a-fA-F]{64}$/
/** A filter that can match nothing (no chain or message has it). */
const NO_MATCH = '0x' as Hex

/** The network's indexed EVM chains: the C-chain, then the L1s in the order they joined. */
export function icmChains(network: Network): DataIcmChain[] {
  const entry = (evm: DataIcmChain['evm'], blockchainId: string): DataIcmChain => ({
    blockchainId: bytesToHex(cb58Decode(blockchainId, 32)) as Hex,
    indexer: indexerFor(evm),
    evm,
    evmChainId: String(evm.chainId),
  })
  return [entry(network.cChain, network.preset.cChainId), ...network.l1s.map((l1) => entry(l1.chain, l1.blockchainId))]
}

/** A chain filter's value as a 32-byte id: one of the network's EVM chain ids, else a cb58 blockchain id, else nothing. */
function chainFilter(chains: readonly DataIcmChain[], value: string | undefined): Hex | undefined {
  if (value === undefined) return undefined
  const byEvmId = chains.find((c) => c.evmChainId === value)
  if (byEvmId) return byEvmId.blockchainId
  try {
    return bytesToHex(cb58Decode(value, 32)) as Hex
  } catch {
    return NO_MATCH
  }
}

export function icmDataRoutes(network: Network): V1Routes {
  return (app: FastifyInstance, ctx: V1Context) => {
    const { tokens } = ctx

    /** A page of messages; `pathErrors` (a bad path parameter) come after the query's, as on the other address routes. */
    const list = async (op: 'listIcmMessages' | 'listIcmMessagesByAddress', query: QueryReader, filters: Omit<IcmQuery, 'cursor' | 'pageSize'>, scopeFilters: PageScope['filters'], pathErrors: string[] = []): Promise<ListIcmMessagesResponse> => {
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS[op])
      const pageToken = query.pageToken()
      const name = query.enum('network', acceptedNetworkNames(network.preset.networkId))
      query.errors.push(...pathErrors)
      query.finish()
      const scope: PageScope = { op, filters: { ...scopeFilters, network: name } }
      const cursor = pageToken === undefined ? undefined : tokens.decode(pageToken, scope)
      if (name !== undefined && !namesNetwork(name, network.preset.networkId)) return { messages: [] }
      const chains = icmChains(network)
      const page = readPage((q: IcmQuery) => icmMessages(chains, q), { ...filters, pageSize, ...(cursor !== undefined ? { cursor } : {}) })
      return { ...nextPageToken(tokens, page, scope), messages: await Promise.all(page.items.map((view) => icmMessageModel(view, chains))) }
    }

    /** listIcmMessages: every message, newest first, filtered by either end's chain, sender and recipient. */
    app.get('/icm/messages', async (request): Promise<ListIcmMessagesResponse> => {
      const query = new QueryReader(request.query)
      const raw = {
        sourceBlockchainId: query.string('sourceBlockchainId'),
        destinationBlockchainId: query.string('destinationBlockchainId'),
        blockchainId: query.string('blockchainId'),
        to: query.string('to'),
        from: query.string('from'),
      }
      const chains = icmChains(network)
      const filters: IcmQuery = { pageSize: 0 }
      const source = chainFilter(chains, raw.sourceBlockchainId)
      const destination = chainFilter(chains, raw.destinationBlockchainId)
      const either = chainFilter(chains, raw.blockchainId)
      if (source !== undefined) filters.sourceBlockchainId = source
      if (destination !== undefined) filters.destinationBlockchainId = destination
      if (either !== undefined) filters.blockchainId = either
      if (raw.to !== undefined) filters.to = raw.to.toLowerCase() as Hex
      if (raw.from !== undefined) filters.from = raw.from.toLowerCase() as Hex
      return list('listIcmMessages', query, filters, { sourceBlockchainId: source, destinationBlockchainId: destination, blockchainId: either, to: filters.to, from: filters.from })
    })

    /** getIcmMessage: one message by its id (64 hex digits, `0x` optional). */
    app.get<{ Params: { messageId: string } }>('/icm/messages/:messageId', async (request): Promise<IcmMessage> => {
      const { messageId } = request.params
      const id = MESSAGE_ID.test(messageId) ? (`0x${messageId.replace(/^0x/, '').toLowerCase()}` as Hex) : undefined
      const chains = icmChains(network)
      const view = id === undefined ? undefined : icmMessage(chains, id)
      if (!view) throw notFound(`ICM message ${messageId} not found`)
      return icmMessageModel(view, chains)
    })

    /** listIcmMessagesByAddress: the messages an address sent or was sent, newest first. */
    app.get<{ Params: { address: string } }>('/icm/addresses/:address/messages', async (request): Promise<ListIcmMessagesResponse> => {
      const query = new QueryReader(request.query)
      const { address } = request.params
      const party = address.toLowerCase() as Hex
      return list('listIcmMessagesByAddress', query, { address: party }, { address: party }, ADDRESS.test(address) ? [] : [INVALID_ADDRESS])
    })
  }
}
