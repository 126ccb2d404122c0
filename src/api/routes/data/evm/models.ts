/**
 * The EVM transaction models of the data API (data-api.md §12), built field by field in the
 * spec's property order from indexer records; big numbers as decimal strings, addresses in
 * checksum case, absent optionals omitted (never `null`).
 */
import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import type { EvmChain } from '../../../../evm/chain.js'
import type { Erc1155Transfer, Erc20Transfer, Erc721Transfer, TxRecord } from '../../../../indexer/index.js'
import type { NetworkToken } from '../models.js'
import type { TokenInfo } from './tokens.js'

export type RichAddress = { name?: string; symbol?: string; decimals?: number; logoUri?: string; address: string }
export type TransactionMethodType = 'NATIVE_TRANSFER' | 'CONTRACT_CALL' | 'CONTRACT_CREATION'
export type Method = { callType: TransactionMethodType; methodHash: string; methodName?: string }

export type NativeTransaction = {
  blockNumber: string
  blockTimestamp: number
  blockTimestampMilliseconds?: number
  blockMinDelayExcess?: number
  blockHash: string
  chainId: string
  blockIndex: number
  txHash: string
  txStatus: string
  txType: number
  gasLimit: string
  gasUsed: string
  gasPrice: string
  nonce: string
  from: RichAddress
  to: RichAddress
  method?: Method
  value: string
}
export type FullNativeTransactionDetails = NativeTransaction & {
  input: string
  baseFeePerGas: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
}
export type ListNativeTransactionsResponse = { nextPageToken?: string; transactions: NativeTransaction[] }

export type Erc20Token = { address: string; name: string; symbol: string; decimals: number; logoUri?: string; ercType: 'ERC-20' }
export type Erc20TransferDetails = { from: RichAddress; to: RichAddress; logIndex: number; value: string; erc20Token: Erc20Token }
type TransferHead = {
  blockNumber: string
  blockTimestamp: number
  blockTimestampMilliseconds?: number
  blockHash: string
  txHash: string
}
export type Erc20TransferModel = TransferHead & Erc20TransferDetails
export type ListErc20TransactionsResponse = { nextPageToken?: string; transactions: Erc20TransferModel[] }

export type NftMetadata = { indexStatus: 'UNINDEXED' }
export type Erc721Token = { address: string; name: string; symbol: string; ercType: 'ERC-721'; tokenId: string; tokenUri: string; metadata: NftMetadata }
export type Erc721TransferDetails = { from: RichAddress; to: RichAddress; logIndex: number; erc721Token: Erc721Token }
export type Erc721TransferModel = TransferHead & Erc721TransferDetails
export type ListErc721TransactionsResponse = { nextPageToken?: string; transactions: Erc721TransferModel[] }

export type Erc1155Token = { address: string; ercType: 'ERC-1155'; tokenId: string; tokenUri: string; metadata: NftMetadata }
export type Erc1155TransferDetails = { from: RichAddress; to: RichAddress; logIndex: number; value: string; erc1155Token: Erc1155Token }
export type Erc1155TransferModel = TransferHead & Erc1155TransferDetails
export type ListTransfersResponse = { nextPageToken?: string; transfers: (Erc20TransferModel | Erc721TransferModel | Erc1155TransferModel)[] }

export type GetTransactionResponse = {
  erc20Transfers?: Erc20TransferDetails[]
  erc721Transfers?: Erc721TransferDetails[]
  erc1155Transfers?: Erc1155TransferDetails[]
  networkTokenDetails: { networkToken: NetworkToken }
  nativeTransaction: FullNativeTransactionDetails
}

/** Copies the defined values only, in the order given. */
function defined<T extends object>(entries: { [K in keyof T]: T[K] | undefined }): T {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value
  return out as T
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
export const checksum = (address: string): string => toChecksumAddress(address.toLowerCase())
export const richAddress = (address: string): RichAddress => ({ address: checksum(address) })

/** Selectors of common methods, for `methodName`; others are answered without one. */
export const KNOWN_METHODS: Readonly<Record<string, string>> = {
  '0xa9059cbb': 'transfer(address,uint256)',
  '0x095ea7b3': 'approve(address,uint256)',
  '0x23b872dd': 'transferFrom(address,address,uint256)',
  '0x42842e0e': 'safeTransferFrom(address,address,uint256)',
  '0xb88d4fde': 'safeTransferFrom(address,address,uint256,bytes)',
  '0xf242432a': 'safeTransferFrom(address,address,uint256,uint256,bytes)',
  '0x2eb2c2d6': 'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
  '0xa22cb465': 'setApprovalForAll(address,bool)',
  '0x40c10f19': 'mint(address,uint256)',
  '0x42966c68': 'burn(uint256)',
  '0xd0e30db0': 'deposit()',
  '0x2e1a7d4d': 'withdraw(uint256)',
}

export function method(tx: TxRecord): Method {
  if (tx.to === null) return { callType: 'CONTRACT_CREATION', methodHash: '', methodName: 'Contract Created' }
  if (tx.methodId === null) return { callType: 'NATIVE_TRANSFER', methodHash: '', methodName: 'Native Transfer' }
  return defined<Method>({ callType: 'CONTRACT_CALL', methodHash: tx.methodId, methodName: KNOWN_METHODS[tx.methodId] })
}

/** Granite block extras of a stored block (milliseconds, min delay excess), when it has them. */
function blockExtras(chain: EvmChain, blockNumber: number): { ms?: number; minDelayExcess?: number } {
  const extras = chain.store.byNumber(BigInt(blockNumber))?.extras ?? {}
  return defined({
    ms: extras.timestampMilliseconds === undefined ? undefined : Number(extras.timestampMilliseconds),
    minDelayExcess: extras.minDelayExcess === undefined ? undefined : Number(extras.minDelayExcess),
  })
}

export function nativeTransaction(chain: EvmChain, tx: TxRecord): NativeTransaction {
  const extras = blockExtras(chain, tx.blockNumber)
  const mined = chain.store.tx(tx.hash)
  return defined<NativeTransaction>({
    blockNumber: String(tx.blockNumber),
    blockTimestamp: tx.timestamp,
    blockTimestampMilliseconds: extras.ms,
    blockMinDelayExcess: extras.minDelayExcess,
    blockHash: tx.blockHash,
    chainId: chain.chainId.toString(10),
    blockIndex: tx.index,
    txHash: tx.hash,
    txStatus: String(tx.status),
    txType: mined?.tx.type ?? 0,
    gasLimit: tx.gasLimit.toString(10),
    gasUsed: tx.gasUsed.toString(10),
    gasPrice: tx.effectiveGasPrice.toString(10),
    nonce: tx.nonce.toString(10),
    from: richAddress(tx.from),
    to: richAddress(tx.to ?? tx.contractAddress ?? ZERO_ADDRESS),
    method: method(tx),
    value: tx.value.toString(10),
  })
}

export function fullNativeTransaction(chain: EvmChain, tx: TxRecord): FullNativeTransactionDetails {
  const mined = chain.store.tx(tx.hash)
  const stored = chain.store.byNumber(BigInt(tx.blockNumber))
  const fees = mined?.tx as { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint } | undefined
  return defined<FullNativeTransactionDetails>({
    ...nativeTransaction(chain, tx),
    input: mined ? bytesToHex(mined.tx.data) : '0x',
    baseFeePerGas: (stored?.block.header.baseFeePerGas ?? 0n).toString(10),
    maxFeePerGas: typeof fees?.maxFeePerGas === 'bigint' ? fees.maxFeePerGas.toString(10) : undefined,
    maxPriorityFeePerGas: typeof fees?.maxPriorityFeePerGas === 'bigint' ? fees.maxPriorityFeePerGas.toString(10) : undefined,
  })
}

function transferHead(chain: EvmChain, t: Erc20Transfer | Erc721Transfer | Erc1155Transfer): TransferHead {
  return defined<TransferHead>({
    blockNumber: String(t.blockNumber),
    blockTimestamp: t.timestamp,
    blockTimestampMilliseconds: blockExtras(chain, t.blockNumber).ms,
    blockHash: t.blockHash,
    txHash: t.txHash,
  })
}

export function erc20Token(address: string, info: TokenInfo): Erc20Token {
  return { address: checksum(address), name: info.name, symbol: info.symbol, decimals: info.decimals, ercType: 'ERC-20' }
}

export function erc20TransferDetails(t: Erc20Transfer, info: TokenInfo): Erc20TransferDetails {
  return { from: richAddress(t.from), to: richAddress(t.to), logIndex: t.logIndex, value: t.value.toString(10), erc20Token: erc20Token(t.token, info) }
}

export function erc20Transfer(chain: EvmChain, t: Erc20Transfer, info: TokenInfo): Erc20TransferModel {
  return { ...transferHead(chain, t), ...erc20TransferDetails(t, info) }
}

export function erc721TransferDetails(t: Erc721Transfer, info: TokenInfo): Erc721TransferDetails {
  return {
    from: richAddress(t.from),
    to: richAddress(t.to),
    logIndex: t.logIndex,
    erc721Token: {
      address: checksum(t.token),
      name: info.name,
      symbol: info.symbol,
      ercType: 'ERC-721',
      tokenId: t.tokenId.toString(10),
      tokenUri: '',
      metadata: { indexStatus: 'UNINDEXED' },
    },
  }
}

export function erc721Transfer(chain: EvmChain, t: Erc721Transfer, info: TokenInfo): Erc721TransferModel {
  return { ...transferHead(chain, t), ...erc721TransferDetails(t, info) }
}

/** One model per (id, value) pair: a `TransferBatch` log becomes several transfers with the same log index. */
export function erc1155TransferDetails(t: Erc1155Transfer): Erc1155TransferDetails[] {
  return t.ids.map((id, i) => ({
    from: richAddress(t.from),
    to: richAddress(t.to),
    logIndex: t.logIndex,
    value: t.values[i]!.toString(10),
    erc1155Token: { address: checksum(t.token), ercType: 'ERC-1155', tokenId: id.toString(10), tokenUri: '', metadata: { indexStatus: 'UNINDEXED' } },
  }))
}

export function erc1155Transfers(chain: EvmChain, t: Erc1155Transfer): Erc1155TransferModel[] {
  const head = transferHead(chain, t)
  return erc1155TransferDetails(t).map((details) => ({ ...head, ...details }))
}
