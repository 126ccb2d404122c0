/**
 * What the data routes read. The network (and its indexer) implements this; the routes turn its
 * answers into the hosted API's models (`models.ts`), so field order and JSON types are decided
 * there, not here.
 */
import type { CursorPage } from './paging.js'

export const API_FEATURES = ['nftIndexing', 'webhooks', 'teleporter'] as const
export type ApiFeature = (typeof API_FEATURES)[number]
export type ChainStatus = 'OK' | 'UNAVAILABLE'
export type VmName = 'EVM' | 'BITCOIN' | 'ETHEREUM'

/** A big integer as the source holds it; answered as a decimal string. */
export type Quantity = bigint | number | string

/** One EVM chain of the network. */
export type DataChain = {
  /** The EVM chain id, decimal (`"43112"`). */
  evmChainId: string
  /** The chain's blockchain id (cb58), also its `platformChainId`. */
  blockchainId: string
  subnetId: string
  vmId: string
  chainName: string
  description: string
  /** Defaults to `OK`. */
  status?: ChainStatus
  /** Defaults to `EVM`. */
  vmName?: VmName
  /** Absolute; defaults to `{baseUrl}/ext/bc/{blockchainId}/rpc`. */
  rpcUrl?: string
  /** Absolute; defaults to `{baseUrl as ws(s)}/ext/bc/{blockchainId}/ws`. */
  wsUrl?: string
  explorerUrl?: string
  isTestnet: boolean
  utilityAddresses?: { multicall?: string }
  networkToken: { name: string; symbol: string; decimals: number; logoUri?: string; description?: string }
  chainLogoUri?: string
  private?: boolean
  enabledFeatures?: ApiFeature[]
}

/** One indexed EVM block (the fields of the hosted `EvmBlock`). */
export type DataBlock = {
  blockNumber: Quantity
  /** Seconds. */
  blockTimestamp: number
  blockTimestampMilliseconds?: number
  blockMinDelayExcess?: number
  blockHash: string
  txCount: number
  baseFee: Quantity
  gasUsed: Quantity
  gasLimit: Quantity
  gasCost: Quantity
  parentHash: string
  feesSpent: Quantity
  cumulativeTransactions: Quantity
}

export type CursorQuery = {
  /** A cursor this source returned as `nextCursor`; absent for the first page. */
  cursor?: string | undefined
  pageSize: number
}

export interface DataSource {
  /** The avalanchego network id (1 mainnet, 5 fuji, 12345 local). */
  readonly networkId: number
  /** The EVM chains of the network, in the order `/v1/chains` lists them. */
  chains(): readonly DataChain[]
  /**
   * Blocks of a chain (one of {@link chains}, by `evmChainId`), newest first. `nextCursor` only
   * when another page exists; a cursor must keep its place when new blocks arrive. A cursor the
   * source cannot use (e.g. reverted away) may be answered with a `DataApiError`.
   */
  listBlocks(evmChainId: string, query: CursorQuery): CursorPage<DataBlock>
}
