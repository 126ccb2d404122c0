/**
 * Data API operations 14 (`POST /v1/networks/{network}/blockchains/{blockchainId}/utxos`) and 15
 * (`GET /v1/networks/{network}/blockchains/{blockchainId}/transactions`), read from the network's
 * platform indexer (`src/indexer/platform.ts`) and shaped by `models.ts`.
 *
 * `{blockchainId}` is the chain id or its alias (`p-chain` / `11111111111111111111111111111111LpoYY`,
 * `x-chain`, `c-chain`). Op 14 answers 201 (the hosted NestJS POST, data-api.md §6); for the
 * C-chain it lists the atomic UTXOs exported to it. Op 15 (SPEC §4.4 rules 5 and 6): addresses
 * with or without a chain prefix in this network's HRP, or `0x` EVM addresses for the C-chain's
 * atomic txs; `l1ValidationId` on the P-chain; `txTypes` and timestamps need one of the two (a 400
 * otherwise: "not supported" without an address filter). Paging: op 15's cursor is the position
 * of the last tx served in its chain's history, so blocks accepted between pages never shift a
 * page; op 14's is the sort key and UTXO id of the last item. Tokens are bound to the filters.
 */
import type { FastifyInstance } from 'fastify'
import { hrpForNetworkId, parseAddress } from '../../../../core/address.js'
import { bytesToHex } from '../../../../core/hex.js'
import { PRIMARY_NETWORK_ID } from '../../../../core/ids.js'
import type { IndexedUtxo, PlatformChain } from '../../../../indexer/index.js'
import type { Network } from '../../../../network/network.js'
import { badRequest } from '../errors.js'
import type { V1Context, V1Routes } from '../index.js'
import { HOSTED_NETWORK_NAMES, MAINNET_ID, acceptedNetworkNames, namesNetwork } from '../networks.js'
import { INVALID_PAGE_TOKEN, PAGE_TOKEN_REVERTED, type PageScope } from '../paging.js'
import { PAGE_SIZE_BOUNDS, QueryReader } from '../query.js'
import { cChainTransaction, pChainTransaction, pChainUtxo, xChainTransaction, xChainUtxo, type Asset, type ModelContext } from './models.js'
import { platformIndexerFor } from './platformIndex.js'
import { validationIdParam } from './index.js'

export type {
  AssetAmount, PChainUtxo, Utxo as XChainUtxo, PChainTransaction, XChainLinearTransaction, CChainExportTransaction, CChainImportTransaction,
} from './models.js'

export const PRIMARY_NETWORK_TX_TYPES = [
  'AddValidatorTx', 'AddSubnetValidatorTx', 'AddDelegatorTx', 'CreateChainTx', 'CreateSubnetTx', 'ImportTx', 'ExportTx', 'AdvanceTimeTx',
  'RewardValidatorTx', 'RemoveSubnetValidatorTx', 'TransformSubnetTx', 'AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx', 'BaseTx',
  'TransferSubnetOwnershipTx', 'ConvertSubnetToL1Tx', 'RegisterL1ValidatorTx', 'SetL1ValidatorWeightTx', 'DisableL1ValidatorTx',
  'IncreaseL1ValidatorBalanceTx', 'UNKNOWN', 'CreateAssetTx', 'OperationTx',
] as const
export type PrimaryNetworkTxType = (typeof PRIMARY_NETWORK_TX_TYPES)[number]
export const UTXOS_SORT_BY = ['timestamp', 'amount'] as const
const SORT_ORDERS = ['asc', 'desc'] as const
type SortOrder = (typeof SORT_ORDERS)[number]

/** The X- and C-chain ids of the hosted `BlockchainId` enum (mainnet, then Fuji; data-api.md §5); the P-chain's is the primary network id. */
export const HOSTED_X_CHAIN_IDS = ['2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM', '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'] as const
export const HOSTED_C_CHAIN_IDS = ['2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp'] as const

export type PrimaryNetworkChainInfo = { chainName: 'p-chain' | 'x-chain' | 'c-chain'; network: string }

/** Message of a 400 for txTypes / timestamps without addresses or an L1 validation id (SPEC §4.4 rule 5). */
export const FILTERS_NEED_ADDRESSES = 'txTypes, startTimestamp and endTimestamp filters are only supported together with addresses or l1ValidationId'
export const L1_VALIDATION_ID_P_ONLY = 'l1ValidationId is only supported on the P-Chain'

type Keyed = { key: number | bigint; id: string }
const cmp = (a: Keyed, b: Keyed, order: SortOrder): number => {
  const sign = order === 'asc' ? 1 : -1
  if (a.key !== b.key) return (a.key < b.key ? -1 : 1) * sign
  return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * sign
}
const encodeCursor = (k: Keyed) => JSON.stringify([typeof k.key === 'bigint' ? `n${k.key}` : k.key, k.id])
function decodeCursor(s: string): Keyed {
  const parsed = JSON.parse(s) as unknown
  if (!Array.isArray(parsed) || parsed.length !== 2) throw badRequest('pageToken is invalid')
  const [key, id] = parsed as [string | number, string]
  return { key: typeof key === 'string' ? BigInt(key.slice(1)) : key, id }
}

/** Operations 14 and 15 on `network`. */
export function primaryTxRoutes(network: Network): V1Routes {
  const networkId = network.preset.networkId
  const hrp = hrpForNetworkId(networkId)
  // Made with the routes (when a server starts), so L1 validator details are read as blocks are announced.
  const indexer = platformIndexerFor(network)
  const pchain = () => network.primary.pchain
  const xchain = () => network.primary.xchain

  /**
   * The chain a `{blockchainId}` names, and whether it is this network's. The hosted enum's ids
   * (mainnet's and Fuji's X- and C-chains) are valid input that selects nothing here, as the hosted
   * network names are; anything else is a bad field.
   */
  const which = (blockchainId: string, errors: string[]): { w: PlatformChain; ours: boolean } => {
    const p = pchain().chainId
    const x = xchain().chainId
    if (blockchainId === 'p-chain' || blockchainId === p || blockchainId === PRIMARY_NETWORK_ID) return { w: 'P', ours: true }
    if (blockchainId === 'x-chain' || blockchainId === x) return { w: 'X', ours: true }
    if (blockchainId === 'c-chain' || blockchainId === network.preset.cChainId) return { w: 'C', ours: true }
    if ((HOSTED_X_CHAIN_IDS as readonly string[]).includes(blockchainId)) return { w: 'X', ours: false }
    if ((HOSTED_C_CHAIN_IDS as readonly string[]).includes(blockchainId)) return { w: 'C', ours: false }
    const accepted = new Set([PRIMARY_NETWORK_ID, ...HOSTED_X_CHAIN_IDS, ...HOSTED_C_CHAIN_IDS, 'p-chain', 'x-chain', 'c-chain', p, x, network.preset.cChainId])
    errors.push(`blockchainId must be one of the following values: ${[...accepted].join(', ')}`)
    return { w: 'P', ours: false }
  }
  /**
   * `PrimaryNetworkChainInfo.network` is the hosted enum: a hosted name is echoed; this network's
   * own names (`local`, `12345`) answer as the hosted network it stands in for (`fuji` unless mainnet).
   */
  const chainInfo = (w: PlatformChain, requested: string): PrimaryNetworkChainInfo => ({
    chainName: chainName(w),
    network: (HOSTED_NETWORK_NAMES as readonly string[]).includes(requested) ? requested : networkId === MAINNET_ID ? 'mainnet' : 'fuji',
  })
  const chainName = (w: PlatformChain) => (`${w.toLowerCase()}-chain` as PrimaryNetworkChainInfo['chainName'])
  const networkParam = (value: string, errors: string[]): boolean => {
    const accepted = acceptedNetworkNames(networkId)
    if (!accepted.includes(value)) errors.push(`network must be one of the following values: ${accepted.join(', ')}`)
    return namesNetwork(value, networkId)
  }
  /** Addresses as 20-byte hex: bech32 of this network's HRP with or without a chain prefix, or 0x EVM addresses. */
  const parseAddresses = (list: string | undefined, errors: string[], field: string): string[] | undefined => {
    if (list === undefined) return undefined
    const out = new Set<string>()
    for (const raw of list.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
      if (/^0x[0-9a-fA-F]{40}$/.test(raw)) {
        out.add(raw.slice(2).toLowerCase())
        continue
      }
      try {
        const parsed = parseAddress(raw.includes('-') ? raw : `X-${raw}`)
        if (parsed.bytes.length !== 20 || parsed.hrp !== hrp) throw new Error('not an address of this network')
        out.add(bytesToHex(parsed.bytes).slice(2))
      } catch {
        errors.push(`${field} contains an invalid address: ${raw}`)
      }
    }
    return out.size > 0 ? [...out].sort() : undefined
  }

  const asset = (assetId: string): Asset => {
    if (assetId === network.preset.avaxAssetId) return { assetId, name: 'Avalanche', symbol: 'AVAX', denomination: 9 }
    const a = xchain().getAsset(assetId)
    return a ? { assetId, name: a.name, symbol: a.symbol, denomination: a.denomination } : { assetId, name: '', symbol: '', denomination: 0 }
  }
  const models = (): ModelContext => ({
    index: indexer, hrp, avaxAssetId: network.preset.avaxAssetId, asset,
    createdAsset: (txId) => xchain().getAsset(txId),
  })

  return (app: FastifyInstance, ctx: V1Context) => {
    // 14. getUtxosByAddressesV2
    app.post<{ Params: { network: string; blockchainId: string } }>('/networks/:network/blockchains/:blockchainId/utxos', async (request, reply) => {
      const query = new QueryReader(request.query)
      const thisNetwork = networkParam(request.params.network, query.errors)
      const { w, ours } = which(request.params.blockchainId, query.errors)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.getUtxosByAddressesV2)
      const pageToken = query.pageToken()
      const assetId = query.string('assetId')
      const minUtxoAmount = query.number('minUtxoAmount', { min: 0 })
      const includeSpent = query.boolean('includeSpent') ?? false
      const sortBy = query.enum('sortBy', UTXOS_SORT_BY) ?? 'timestamp'
      const sortOrder = query.enum('sortOrder', SORT_ORDERS) ?? 'desc'
      const body = request.body as { addresses?: unknown } | null | undefined
      const rawAddresses = body !== null && typeof body === 'object' ? body.addresses : undefined
      if (typeof rawAddresses !== 'string') query.errors.push('addresses must be a string')
      else if (rawAddresses.split(',').every((s) => s.trim() === '')) query.errors.push('addresses should not be empty')
      const addrs = parseAddresses(typeof rawAddresses === 'string' ? rawAddresses : undefined, query.errors, 'addresses') ?? []
      query.finish()
      const scope: PageScope = {
        op: 'getUtxosByAddressesV2',
        filters: { network: request.params.network, chain: w, addresses: addrs, assetId, minUtxoAmount, includeSpent, sortBy, sortOrder },
      }
      const after = pageToken === undefined ? undefined : decodeCursor(ctx.tokens.decode(pageToken, scope))
      const info = chainInfo(w, request.params.network)
      reply.code(201)
      if (!thisNetwork || !ours) return { utxos: [], chainInfo: info }
      const m = models()
      const min = minUtxoAmount === undefined ? undefined : BigInt(Math.ceil(minUtxoAmount))
      const rows = m.index.utxos(w, addrs, includeSpent).filter((u) =>
        (assetId === undefined || w === 'P' || u.assetId === assetId) && (min === undefined || u.amount >= min))
      const keyed = rows.map((u) => ({ u, id: u.utxoId, key: sortBy === 'amount' ? u.amount : u.timestamp })).sort((a, b) => cmp(a, b, sortOrder))
      const start = after === undefined ? 0 : keyed.findIndex((k) => cmp(k, after, sortOrder) > 0)
      const page = start < 0 ? [] : keyed.slice(start, start + pageSize)
      const last = page[page.length - 1]
      const next = start >= 0 && start + pageSize < keyed.length && last ? encodeCursor(last) : undefined
      const shape = (u: IndexedUtxo) => (w === 'P' ? pChainUtxo(m, u) : xChainUtxo(m, u))
      return { ...(next ? { nextPageToken: ctx.tokens.encode(next, scope) } : {}), utxos: page.map((k) => shape(k.u)), chainInfo: info }
    })

    // 15. listLatestPrimaryNetworkTransactions
    app.get<{ Params: { network: string; blockchainId: string } }>('/networks/:network/blockchains/:blockchainId/transactions', async (request) => {
      const query = new QueryReader(request.query)
      const thisNetwork = networkParam(request.params.network, query.errors)
      const { w, ours } = which(request.params.blockchainId, query.errors)
      const pageSize = query.pageSize(PAGE_SIZE_BOUNDS.listLatestPrimaryNetworkTransactions)
      const pageToken = query.pageToken()
      const addrs = parseAddresses(query.string('addresses'), query.errors, 'addresses')
      const l1ValidationId = validationIdParam(query.string('l1ValidationId'), query.errors)
      const txTypes = query.array('txTypes', PRIMARY_NETWORK_TX_TYPES)
      const startTimestamp = query.integer('startTimestamp', { min: 0 })
      const endTimestamp = query.integer('endTimestamp', { min: 0 })
      const sortOrder = query.enum('sortOrder', SORT_ORDERS) ?? 'desc'
      if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp)
        query.errors.push('startTimestamp must not be greater than endTimestamp')
      if (l1ValidationId !== undefined && w !== 'P') query.errors.push(L1_VALIDATION_ID_P_ONLY)
      const filtered = txTypes !== undefined || startTimestamp !== undefined || endTimestamp !== undefined
      if (filtered && addrs === undefined && l1ValidationId === undefined) query.errors.push(FILTERS_NEED_ADDRESSES)
      query.finish()
      const scope: PageScope = {
        op: 'listLatestPrimaryNetworkTransactions',
        filters: { network: request.params.network, chain: w, addresses: addrs, l1ValidationId, txTypes, startTimestamp, endTimestamp, sortOrder },
      }
      // The cursor is `seq.txId` of the last tx served: a revert that replaced it refuses the token.
      let after: number | undefined
      let afterTx: string | undefined
      if (pageToken !== undefined) {
        const m = /^(0|[1-9][0-9]{0,15})\.([1-9A-HJ-NP-Za-km-z]{1,64})$/.exec(ctx.tokens.decode(pageToken, scope))
        if (!m) throw badRequest(INVALID_PAGE_TOKEN)
        after = Number(m[1])
        afterTx = m[2]
      }
      const info = chainInfo(w, request.params.network)
      if (!thisNetwork || !ours) return { transactions: [], chainInfo: info }
      const m = models()
      if (after !== undefined && m.index.txAt(w, after)?.txId !== afterTx) throw badRequest(PAGE_TOKEN_REVERTED)
      const { items, next } = m.index.transactions(w, {
        ...(addrs ? { addresses: addrs } : {}), ...(l1ValidationId ? { validationId: l1ValidationId } : {}), ...(txTypes ? { txTypes } : {}),
        ...(startTimestamp !== undefined ? { startTimestamp } : {}), ...(endTimestamp !== undefined ? { endTimestamp } : {}),
      }, sortOrder, pageSize, after)
      const shape = w === 'P' ? pChainTransaction : w === 'X' ? xChainTransaction : cChainTransaction
      return {
        ...(next !== undefined ? { nextPageToken: ctx.tokens.encode(`${next}.${m.index.txAt(w, next)!.txId}`, scope) } : {}),
        transactions: items.map((t) => shape(m, t)),
        chainInfo: info,
      }
    })
  }
}
