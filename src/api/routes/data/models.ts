/**
 * The hosted API's response models (data-api.md §12), built field by field in the spec's property
 * order, with big numbers as decimal strings and absent optionals omitted (never `null`).
 */
import type { DataBlock, DataChain, Quantity } from './source.js'

export type NetworkToken = { name: string; symbol: string; decimals: number; logoUri?: string; description?: string }

/** `ChainInfo` and `GetChainResponse` (the same fields). */
export type ChainInfo = {
  chainId: string
  status: 'OK' | 'UNAVAILABLE'
  chainName: string
  description: string
  platformChainId?: string
  subnetId?: string
  vmId?: string
  vmName: 'EVM' | 'BITCOIN' | 'ETHEREUM'
  explorerUrl?: string
  rpcUrl: string
  wsUrl?: string
  isTestnet: boolean
  utilityAddresses?: { multicall?: string }
  networkToken: NetworkToken
  chainLogoUri?: string
  private?: boolean
  enabledFeatures?: ('nftIndexing' | 'webhooks' | 'teleporter')[]
}
export type GetChainResponse = ChainInfo
export type ListChainsResponse = { chains: ChainInfo[] }

export type EvmBlock = {
  chainId: string
  blockNumber: string
  blockTimestamp: number
  blockTimestampMilliseconds?: number
  blockMinDelayExcess?: number
  blockHash: string
  txCount: number
  baseFee: string
  gasUsed: string
  gasLimit: string
  gasCost: string
  parentHash: string
  feesSpent: string
  cumulativeTransactions: string
}
export type ListEvmBlocksResponse = { nextPageToken?: string; blocks: EvmBlock[] }

/** Copies the defined values only, in the order given. */
function defined<T extends object>(entries: { [K in keyof T]: T[K] | undefined }): T {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value
  return out as T
}

export const quantity = (value: Quantity): string => (typeof value === 'string' ? value : BigInt(value).toString(10))

function networkToken(token: DataChain['networkToken']): NetworkToken {
  return defined<NetworkToken>({ name: token.name, symbol: token.symbol, decimals: token.decimals, logoUri: token.logoUri, description: token.description })
}

/** `baseUrl` without a trailing slash, e.g. `http://127.0.0.1:9650`. */
export function chainInfo(chain: DataChain, baseUrl: string): ChainInfo {
  const wsBase = baseUrl.replace(/^http/, 'ws')
  return defined<ChainInfo>({
    chainId: chain.evmChainId,
    status: chain.status ?? 'OK',
    chainName: chain.chainName,
    description: chain.description,
    platformChainId: chain.blockchainId,
    subnetId: chain.subnetId,
    vmId: chain.vmId,
    vmName: chain.vmName ?? 'EVM',
    explorerUrl: chain.explorerUrl,
    rpcUrl: chain.rpcUrl ?? `${baseUrl}/ext/bc/${chain.blockchainId}/rpc`,
    wsUrl: chain.wsUrl ?? `${wsBase}/ext/bc/${chain.blockchainId}/ws`,
    isTestnet: chain.isTestnet,
    utilityAddresses: chain.utilityAddresses ? defined({ multicall: chain.utilityAddresses.multicall }) : undefined,
    networkToken: networkToken(chain.networkToken),
    chainLogoUri: chain.chainLogoUri,
    private: chain.private,
    enabledFeatures: chain.enabledFeatures ? [...chain.enabledFeatures] : undefined,
  })
}

export function evmBlock(chainId: string, block: DataBlock): EvmBlock {
  return defined<EvmBlock>({
    chainId,
    blockNumber: quantity(block.blockNumber),
    blockTimestamp: block.blockTimestamp,
    blockTimestampMilliseconds: block.blockTimestampMilliseconds,
    blockMinDelayExcess: block.blockMinDelayExcess,
    blockHash: block.blockHash,
    txCount: block.txCount,
    baseFee: quantity(block.baseFee),
    gasUsed: quantity(block.gasUsed),
    gasLimit: quantity(block.gasLimit),
    gasCost: quantity(block.gasCost),
    parentHash: block.parentHash,
    feesSpent: quantity(block.feesSpent),
    cumulativeTransactions: quantity(block.cumulativeTransactions),
  })
}
