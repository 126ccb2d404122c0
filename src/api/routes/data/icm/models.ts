/**
 * The Interchain Messaging models of the hosted API (`PendingIcmMessage`, `DeliveredIcmMessage`,
 * `DeliveredSourceNotIndexedIcmMessage`), field by field in the spec's property order: the message
 * id as 64 hex digits without `0x` (the form `/v1/icm/messages/{messageId}` takes), blockchain ids
 * in cb58, addresses in checksum case, nonces and amounts as decimal strings, timestamps in
 * seconds (as every `blockTimestamp` of the API), `gasSpent` the transaction's fee in wei
 * (gas used × effective gas price).
 */
import { hexToBytes } from '@ethereumjs/util'
import { cb58Encode } from '../../../../core/cb58.js'
import type { Hex } from '../../../../core/hex.js'
import type { EvmChain } from '../../../../evm/chain.js'
import type { IcmChain, IcmMessageView, TeleporterRecord } from '../../../../indexer/index.js'
import { checksum, ZERO_ADDRESS } from '../evm/models.js'
import { tokenInfo } from '../evm/tokens.js'
import type { Money } from '../prices.js'

/** An indexed chain as the ICM routes see it: the indexer's view plus the chain and its ids. */
export type DataIcmChain = IcmChain & { evm: EvmChain; evmChainId: string }

export type IcmReceipt = { receivedMessageNonce: string; relayerRewardAddress: string }
export type IcmRewardDetails = { address: string; name: string; symbol: string; decimals: number; logoUri?: string; ercType: 'ERC-20'; price?: Money; value: string }
export type IcmSourceTransaction = { txHash: string; timestamp: number; gasSpent: string }
export type IcmDestinationTransaction = IcmSourceTransaction & { rewardRedeemer: string; delivererAddress: string }

type IcmMessageBase = {
  messageId: string
  icmContractAddress: string
  sourceBlockchainId: string
  destinationBlockchainId: string
  sourceEvmChainId: string
  destinationEvmChainId: string
  messageNonce: string
  from: string
  to: string
  data?: string
  messageExecuted: boolean
  receipts: IcmReceipt[]
  receiptDelivered: boolean
  rewardDetails: IcmRewardDetails
}
export type PendingIcmMessage = IcmMessageBase & { sourceTransaction: IcmSourceTransaction; status: 'pending' }
export type DeliveredIcmMessage = IcmMessageBase & { sourceTransaction: IcmSourceTransaction; destinationTransaction: IcmDestinationTransaction; status: 'delivered' }
export type DeliveredSourceNotIndexedIcmMessage = IcmMessageBase & { destinationTransaction: IcmDestinationTransaction; status: 'delivered_source_not_indexed' }
export type IcmMessage = PendingIcmMessage | DeliveredIcmMessage | DeliveredSourceNotIndexedIcmMessage
export type ListIcmMessagesResponse = { nextPageToken?: string; messages: IcmMessage[] }

const cb58 = (id: Hex): string => cb58Encode(hexToBytes(id))

function transaction(chain: IcmChain, record: TeleporterRecord): IcmSourceTransaction {
  const tx = chain.indexer.transaction(record.txHash)
  return { txHash: record.txHash, timestamp: record.timestamp, gasSpent: tx ? (tx.gasUsed * tx.effectiveGasPrice).toString(10) : '0' }
}

/**
 * The fee the sender put on the message (its `TeleporterFeeInfo`, or the total an `AddFeeAmount` raised it to), with the fee token's metadata
 * read on the source chain; a message without a send in the index has no fee known: the zero
 * token and amount, as a message sent without a fee says.
 */
async function rewardDetails(view: IcmMessageView): Promise<IcmRewardDetails> {
  const fee = view.feeInfo ?? { feeTokenAddress: ZERO_ADDRESS as Hex, amount: 0n }
  const source = view.source?.chain as DataIcmChain | undefined
  const info = source && fee.feeTokenAddress !== ZERO_ADDRESS ? await tokenInfo(source.evm, fee.feeTokenAddress) : { name: '', symbol: '', decimals: 0 }
  const price = 'price' in info ? info.price : undefined
  return { address: checksum(fee.feeTokenAddress), name: info.name, symbol: info.symbol, decimals: info.decimals, ercType: 'ERC-20', ...(price ? { price } : {}), value: fee.amount.toString(10) }
}

/** The hosted model of one message; `chains` gives the EVM chain ids of the network's chains. */
export async function icmMessageModel(view: IcmMessageView, chains: readonly DataIcmChain[]): Promise<IcmMessage> {
  const evmChainId = (id: Hex) => chains.find((c) => c.blockchainId === id)?.evmChainId ?? ''
  const { message } = view
  const base: IcmMessageBase = {
    messageId: view.messageId.slice(2),
    icmContractAddress: checksum(view.messenger),
    sourceBlockchainId: cb58(view.sourceBlockchainId),
    destinationBlockchainId: cb58(view.destinationBlockchainId),
    sourceEvmChainId: evmChainId(view.sourceBlockchainId),
    destinationEvmChainId: evmChainId(view.destinationBlockchainId),
    messageNonce: message.messageNonce.toString(10),
    from: checksum(message.originSenderAddress),
    to: checksum(message.destinationAddress),
    data: message.payload,
    messageExecuted: view.executed,
    receipts: message.receipts.map((r) => ({ receivedMessageNonce: r.receivedMessageNonce.toString(10), relayerRewardAddress: checksum(r.relayerRewardAddress) })),
    receiptDelivered: view.receiptDelivered,
    rewardDetails: await rewardDetails(view),
  }
  const destination = view.destination && {
    ...transaction(view.destination.chain, view.destination.record),
    rewardRedeemer: checksum(view.destination.record.rewardRedeemer),
    delivererAddress: checksum(view.destination.record.deliverer),
  }
  if (view.source) {
    const sourceTransaction = transaction(view.source.chain, view.source.record)
    return destination ? { ...base, sourceTransaction, destinationTransaction: destination, status: 'delivered' } : { ...base, sourceTransaction, status: 'pending' }
  }
  return { ...base, destinationTransaction: destination!, status: 'delivered_source_not_indexed' }
}
