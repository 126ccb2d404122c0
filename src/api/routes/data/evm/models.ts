/**
 * The EVM transaction models of the data API (data-api.md §12), built field by field in the
 * spec's property order from indexer records; big numbers as decimal strings, addresses in
 * checksum case, absent optionals omitted (never `null`).
 */
import { bytesToHex, hexToBytes, toChecksumAddress } from '@ethereumjs/util'
import type { EvmChain } from '../../../../evm/chain.js'
import { cb58Encode } from '../../../../core/cb58.js'
import { builtInMethodName, type Erc1155Transfer, type Erc20Transfer, type Erc721Transfer, type EvmIndexer, type MethodRegistry, type TxRecord } from '../../../../indexer/index.js'
import type { NetworkToken } from '../models.js'
import type { CurrencyCode, Money } from '../prices.js'
import { networkOf, nftKey, pricesOf, type NftRead, type TokenInfo } from './tokens.js'

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

export type Erc20Token = { address: string; name: string; symbol: string; decimals: number; logoUri?: string; ercType: 'ERC-20'; price?: Money }
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
export type Erc721Token = {
  address: string
  name: string
  symbol: string
  ercType: 'ERC-721'
  tokenId: string
  tokenUri: string
  metadata: Erc721TokenMetadata
  ownerAddress?: string
}
export type Erc721TransferDetails = { from: RichAddress; to: RichAddress; logIndex: number; erc721Token: Erc721Token }
export type Erc721TransferModel = TransferHead & Erc721TransferDetails
export type ListErc721TransactionsResponse = { nextPageToken?: string; transactions: Erc721TransferModel[] }

export type Erc1155Token = { address: string; ercType: 'ERC-1155'; tokenId: string; tokenUri: string; metadata: Erc1155TokenMetadata }
export type Erc1155TransferDetails = { from: RichAddress; to: RichAddress; logIndex: number; value: string; erc1155Token: Erc1155Token }
export type Erc1155TransferModel = TransferHead & Erc1155TransferDetails
export type ListTransfersResponse = { nextPageToken?: string; transfers: (Erc20TransferModel | Erc721TransferModel | Erc1155TransferModel)[] }

export type GetTransactionResponse = {
  erc20Transfers?: Erc20TransferDetails[]
  erc721Transfers?: Erc721TransferDetails[]
  erc1155Transfers?: Erc1155TransferDetails[]
  networkTokenDetails: NetworkTokenDetails
  nativeTransaction: FullNativeTransactionDetails
  teleporterMessageInfo?: TeleporterMessageInfo
}
export type NetworkTokenDetails = { networkToken: NetworkToken; currentPrice?: Money; historicalPrice?: Money }
export type TeleporterMessageInfo = {
  teleporterMessageId: string
  direction: 'SOURCE_TRANSACTION' | 'DESTINATION_TRANSACTION'
  sourceChainId?: string
  destinationChainId?: string
}

/** Copies the defined values only, in the order given. */
function defined<T extends object>(entries: { [K in keyof T]: T[K] | undefined }): T {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value
  return out as T
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const CHECKSUM_CACHE_SIZE = 65_536
const checksums = new Map<string, string>()
/** An address in EIP-55 case; memoized (a keccak per address otherwise dominates list answers). */
export function checksum(address: string): string {
  const key = address.toLowerCase()
  let out = checksums.get(key)
  if (out === undefined) {
    out = toChecksumAddress(key)
    if (checksums.size >= CHECKSUM_CACHE_SIZE) checksums.delete(checksums.keys().next().value!)
    checksums.set(key, out)
  }
  return out
}
export const richAddress = (address: string): RichAddress => ({ address: checksum(address) })

/**
 * The `Method` of a transaction. `methodName` is the signature the method registry (built-ins
 * plus the ABIs registered on the network, see `src/indexer/methods.ts`) has for the selector;
 * an unknown selector is answered without one, as the hosted API does for unverified contracts.
 */
export function method(tx: TxRecord, methods?: MethodRegistry): Method {
  if (tx.to === null) return CONTRACT_CREATION
  if (tx.methodId === null) return NATIVE_TRANSFER
  return defined<Method>({ callType: 'CONTRACT_CALL', methodHash: tx.methodId, methodName: methods ? methods.methodName(tx.methodId) : builtInMethodName(tx.methodId) })
}

/** Granite block extras of a stored block (milliseconds, min delay excess), when it has them. */
function blockExtras(chain: EvmChain, blockNumber: number): { ms: number | undefined; minDelayExcess: number | undefined } {
  const stored = chain.store.byNumber(BigInt(blockNumber))
  const extras = stored?.extras ?? {}
  // The C-chain's header has timestampMilliseconds on every block (as eth_getBlockByNumber says), not in the stored extras.
  const ms = extras.timestampMilliseconds ?? (chain.flavour === 'coreth' && stored ? stored.block.header.timestamp * 1000n : undefined)
  return {
    ms: ms === undefined ? undefined : Number(ms),
    minDelayExcess: extras.minDelayExcess === undefined ? undefined : Number(extras.minDelayExcess),
  }
}

const NATIVE_TRANSFER: Method = Object.freeze({ callType: 'NATIVE_TRANSFER', methodHash: '', methodName: 'Native Transfer' })
const CONTRACT_CREATION: Method = Object.freeze({ callType: 'CONTRACT_CREATION', methodHash: '', methodName: 'Contract Created' })

/**
 * The `NativeTransaction` models of a list response. What the models share is looked up once:
 * the chain id, the method registry, and each block's extras (a page holds runs of one block).
 * Every model has one shape, the spec's properties in order, with no per-model copy; an absent
 * optional is `undefined` there, which the JSON serialisation leaves out.
 */
export function nativeTransactions(chain: EvmChain, txs: readonly TxRecord[]): NativeTransaction[] {
  const chainId = chain.chainId.toString(10)
  const methods = networkOf(chain)?.methods
  let extrasOf = -1
  let extras: ReturnType<typeof blockExtras> = { ms: undefined, minDelayExcess: undefined }
  const out: NativeTransaction[] = new Array(txs.length)
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i]!
    if (tx.blockNumber !== extrasOf) {
      extras = blockExtras(chain, tx.blockNumber)
      extrasOf = tx.blockNumber
    }
    out[i] = {
      blockNumber: String(tx.blockNumber),
      blockTimestamp: tx.timestamp,
      blockTimestampMilliseconds: extras.ms,
      blockMinDelayExcess: extras.minDelayExcess,
      blockHash: tx.blockHash,
      chainId,
      blockIndex: tx.index,
      txHash: tx.hash,
      txStatus: tx.status === 1 ? '1' : '0',
      txType: tx.type,
      gasLimit: tx.gasLimit.toString(10),
      gasUsed: tx.gasUsed.toString(10),
      gasPrice: tx.effectiveGasPrice.toString(10),
      nonce: tx.nonce.toString(10),
      from: richAddress(tx.from),
      to: richAddress(tx.to ?? tx.contractAddress ?? ZERO_ADDRESS),
      method: method(tx, methods),
      value: tx.value.toString(10),
    }
  }
  return out
}

export function nativeTransaction(chain: EvmChain, tx: TxRecord): NativeTransaction {
  return nativeTransactions(chain, [tx])[0]!
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

/** An `Erc20Token`; `price` when the token info carries one (configured prices, see `tokenInfo`). */
export function erc20Token(address: string, info: TokenInfo): Erc20Token {
  return defined<Erc20Token>({ address: checksum(address), name: info.name, symbol: info.symbol, decimals: info.decimals, logoUri: undefined, ercType: 'ERC-20', price: info.price })
}

export function erc20TransferDetails(t: Erc20Transfer, info: TokenInfo): Erc20TransferDetails {
  return { from: richAddress(t.from), to: richAddress(t.to), logIndex: t.logIndex, value: t.value.toString(10), erc20Token: erc20Token(t.token, info) }
}

export function erc20Transfer(chain: EvmChain, t: Erc20Transfer, info: TokenInfo): Erc20TransferModel {
  return { ...transferHead(chain, t), ...erc20TransferDetails(t, info) }
}

/** What {@link nftReads} answered for the transfers of a response. */
export type NftReads = ReadonlyMap<string, NftRead<Erc721TokenMetadata & Erc1155TokenMetadata>>

function nftRead(nfts: NftReads, token: string, id: bigint): NftRead<Erc721TokenMetadata & Erc1155TokenMetadata> {
  const read = nfts.get(nftKey(token, id))
  if (!read) throw new Error(`no metadata read for ${token} #${id}`)
  return read
}

export function erc721TransferDetails(t: Erc721Transfer, info: TokenInfo, nfts: NftReads): Erc721TransferDetails {
  const { tokenUri, metadata } = nftRead(nfts, t.token, t.tokenId)
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
      tokenUri,
      metadata,
    },
  }
}

export function erc721Transfer(chain: EvmChain, t: Erc721Transfer, info: TokenInfo, nfts: NftReads): Erc721TransferModel {
  return { ...transferHead(chain, t), ...erc721TransferDetails(t, info, nfts) }
}

/** One model per (id, value) pair: a `TransferBatch` log becomes several transfers with the same log index. */
export function erc1155TransferDetails(t: Erc1155Transfer, nfts: NftReads): Erc1155TransferDetails[] {
  return t.ids.map((id, i) => {
    const { tokenUri, metadata } = nftRead(nfts, t.token, id)
    return {
      from: richAddress(t.from),
      to: richAddress(t.to),
      logIndex: t.logIndex,
      value: t.values[i]!.toString(10),
      erc1155Token: { address: checksum(t.token), ercType: 'ERC-1155', tokenId: id.toString(10), tokenUri, metadata },
    }
  })
}

export function erc1155Transfers(chain: EvmChain, t: Erc1155Transfer, nfts: NftReads): Erc1155TransferModel[] {
  const head = transferHead(chain, t)
  return erc1155TransferDetails(t, nfts).map((details) => ({ ...head, ...details }))
}

/** Seconds after which the hosted API gives a transaction's `historicalPrice` ("more than 24 hours ago"). */
export const HISTORICAL_PRICE_AGE = 24 * 60 * 60

/**
 * `NetworkTokenDetails` of a transaction: the native token with its configured price. The
 * emulator keeps one price table, no history, so `historicalPrice` is the same table's price;
 * it is given, as by the hosted API, only for a transaction more than 24 hours old on the
 * network's clock.
 */
export function networkTokenDetails(chain: EvmChain, evmChainId: string, token: NetworkToken, currency: CurrencyCode, txTimestamp: number): NetworkTokenDetails {
  const price = pricesOf(chain).native(evmChainId, token.symbol, currency)
  const now = networkOf(chain)?.clock.now() ?? txTimestamp
  return defined<NetworkTokenDetails>({
    networkToken: defined<NetworkToken>({ name: token.name, symbol: token.symbol, decimals: token.decimals, logoUri: token.logoUri, description: token.description }),
    currentPrice: price,
    historicalPrice: price && now - txTimestamp > HISTORICAL_PRICE_AGE ? { ...price } : undefined,
  })
}

/**
 * The `TeleporterMessageInfo` of a transaction: its first Teleporter message event (a send makes
 * it a `SOURCE_TRANSACTION`, a receive a `DESTINATION_TRANSACTION`). The message id is the
 * 32-byte id in hex without `0x` and the other chain is its blockchain id in cb58, the forms the
 * hosted ICM endpoints use (`/v1/icm/messages/{messageId}` example `acf1c8b0…674d`,
 * `sourceBlockchainId` example `2D8RG4Up…ZjsY`).
 */
export function teleporterMessageInfo(indexer: EvmIndexer, txHash: string): TeleporterMessageInfo | undefined {
  const message = indexer.teleporterMessages(txHash)[0]
  if (!message) return undefined
  const remote = cb58Encode(hexToBytes(message.remoteBlockchainId))
  return {
    teleporterMessageId: message.messageId.slice(2),
    direction: message.direction,
    ...(message.direction === 'SOURCE_TRANSACTION' ? { destinationChainId: remote } : { sourceChainId: remote }),
  }
}
