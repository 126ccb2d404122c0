import * as AbiParameters from 'ox/AbiParameters'
import type { Hex } from '../core/hex.js'
import { TELEPORTER_MESSAGE_PARAMETER, TELEPORTER_MESSAGE_TYPE, teleporterMessageFromTuple, type RawTeleporterMessage, type TeleporterMessage } from '../evm/icm/messages.js'

export { TELEPORTER_MESSAGE_TYPE, type TeleporterMessage, type TeleporterReceipt } from '../evm/icm/messages.js'

/**
 * The Teleporter (ICM) messenger's events, as ITeleporterMessenger.sol in ava-labs/icm-contracts
 * declares them:
 *
 * - `SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID,
 *   TeleporterMessage message, TeleporterFeeInfo feeInfo)` on the source chain;
 * - `ReceiveCrossChainMessage(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID,
 *   address indexed deliverer, address rewardRedeemer, TeleporterMessage message)` on the
 *   destination chain;
 * - `MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID)` on the
 *   destination chain, when the message's call succeeded (at delivery or on a retry);
 * - `ReceiptReceived(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID,
 *   address indexed relayerRewardAddress, TeleporterFeeInfo feeInfo)` on the source chain, when a
 *   message back from the destination carried this message's receipt;
 * - `AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo)` on the source
 *   chain, when someone raised the message's fee (the new total).
 *
 * Recognised by topic whatever contract emits them (the messenger's address differs per
 * deployment), as the hosted indexer keys on the event, not on one address; a log whose data does
 * not decode as the event's is not one of them.
 */

export const SEND_CROSS_CHAIN_MESSAGE_SIGNATURE = `SendCrossChainMessage(bytes32,bytes32,${TELEPORTER_MESSAGE_TYPE},(address,uint256))`
export const RECEIVE_CROSS_CHAIN_MESSAGE_SIGNATURE = `ReceiveCrossChainMessage(bytes32,bytes32,address,address,${TELEPORTER_MESSAGE_TYPE})`
export const MESSAGE_EXECUTED_SIGNATURE = 'MessageExecuted(bytes32,bytes32)'
export const RECEIPT_RECEIVED_SIGNATURE = 'ReceiptReceived(bytes32,bytes32,address,(address,uint256))'
export const ADD_FEE_AMOUNT_SIGNATURE = 'AddFeeAmount(bytes32,(address,uint256))'
/** Keccak-256 of {@link SEND_CROSS_CHAIN_MESSAGE_SIGNATURE}. */
export const SEND_CROSS_CHAIN_MESSAGE_TOPIC: Hex = '0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8'
/** Keccak-256 of {@link RECEIVE_CROSS_CHAIN_MESSAGE_SIGNATURE}. */
export const RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC: Hex = '0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34'
/** Keccak-256 of {@link MESSAGE_EXECUTED_SIGNATURE}. */
export const MESSAGE_EXECUTED_TOPIC: Hex = '0x34795cc6b122b9a0ae684946319f1e14a577b4e8f9b3dda9ac94c21a54d3188c'
/** Keccak-256 of {@link RECEIPT_RECEIVED_SIGNATURE}. */
export const RECEIPT_RECEIVED_TOPIC: Hex = '0xd13a7935f29af029349bed0a2097455b91fd06190a30478c575db3f31e00bf57'
/** Keccak-256 of {@link ADD_FEE_AMOUNT_SIGNATURE}. */
export const ADD_FEE_AMOUNT_TOPIC: Hex = '0xc1bfd1f1208927dfbd414041dcb5256e6c9ad90dd61aec3249facbd34ff7b3e1'

export type TeleporterDirection = 'SOURCE_TRANSACTION' | 'DESTINATION_TRANSACTION'

export type TeleporterFeeInfo = { feeTokenAddress: Hex; amount: bigint }

type EventBase = {
  /** The 32-byte message id, `0x`-prefixed lower-case hex. */
  messageId: Hex
  /** The other chain's 32-byte blockchain id: the destination of a send or a receipt, the source of a receive or an execution. */
  remoteBlockchainId: Hex
  /** The messenger contract that emitted the event (lower case). */
  messenger: Hex
}

/** A message sent (`SOURCE_TRANSACTION`) or received (`DESTINATION_TRANSACTION`). */
export type TeleporterEvent =
  | (EventBase & { kind: 'send'; direction: 'SOURCE_TRANSACTION'; message: TeleporterMessage; feeInfo: TeleporterFeeInfo })
  | (EventBase & { kind: 'receive'; direction: 'DESTINATION_TRANSACTION'; message: TeleporterMessage; deliverer: Hex; rewardRedeemer: Hex })

/** What happened to a message after it was sent or received: its call executed, its receipt came back, its fee was raised. */
export type TeleporterOutcome =
  | (EventBase & { kind: 'executed' })
  | (EventBase & { kind: 'receiptReceived'; relayerRewardAddress: Hex; feeInfo: TeleporterFeeInfo })
  | (Omit<EventBase, 'remoteBlockchainId'> & { kind: 'feeAdded'; feeInfo: TeleporterFeeInfo })

const FEE_PARAMETER = { type: 'tuple', components: [{ type: 'address' }, { type: 'uint256' }] } as const
const SEND_DATA = [TELEPORTER_MESSAGE_PARAMETER, FEE_PARAMETER] as const
const RECEIVE_DATA = [{ type: 'address' }, TELEPORTER_MESSAGE_PARAMETER] as const

const lower = (h: string): Hex => h.toLowerCase() as Hex
const topicAddress = (topic: Hex): Hex => `0x${topic.slice(26).toLowerCase()}` as Hex

const base = (log: { address: string; topics: readonly Hex[] }): EventBase => ({
  messageId: lower(log.topics[1]!),
  remoteBlockchainId: lower(log.topics[2]!),
  messenger: lower(log.address),
})

/** ABI-decodes `data`, or undefined when it is not the event's data (too short, offsets outside it). */
function decode<T>(parameters: readonly unknown[], data: Hex): T | undefined {
  try {
    return AbiParameters.decode(parameters as never, data, { checksumAddress: false }) as T
  } catch {
    return undefined
  }
}

/** The message event a log carries (a send or a receive), or undefined. */
export function decodeTeleporterLog(log: { address: string; topics: readonly Hex[]; data: Hex }): TeleporterEvent | undefined {
  const topic0 = log.topics[0]
  if (topic0 === SEND_CROSS_CHAIN_MESSAGE_TOPIC && log.topics.length === 3) {
    const decoded = decode<readonly [RawTeleporterMessage, readonly [string, bigint]]>(SEND_DATA, log.data)
    if (!decoded) return undefined
    const [m, fee] = decoded
    return { ...base(log), kind: 'send', direction: 'SOURCE_TRANSACTION', message: teleporterMessageFromTuple(m), feeInfo: { feeTokenAddress: lower(fee[0]), amount: fee[1] } }
  }
  if (topic0 === RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC && log.topics.length === 4) {
    const decoded = decode<readonly [string, RawTeleporterMessage]>(RECEIVE_DATA, log.data)
    if (!decoded) return undefined
    const [rewardRedeemer, m] = decoded
    return { ...base(log), kind: 'receive', direction: 'DESTINATION_TRANSACTION', message: teleporterMessageFromTuple(m), deliverer: topicAddress(log.topics[3]!), rewardRedeemer: lower(rewardRedeemer) }
  }
  return undefined
}

/** The execution, receipt or fee event a log carries, or undefined. */
export function decodeTeleporterOutcome(log: { address: string; topics: readonly Hex[]; data: Hex }): TeleporterOutcome | undefined {
  const topic0 = log.topics[0]
  if (topic0 === MESSAGE_EXECUTED_TOPIC && log.topics.length === 3) return { ...base(log), kind: 'executed' }
  if (topic0 === RECEIPT_RECEIVED_TOPIC && log.topics.length === 4) {
    const fee = decode<readonly [readonly [string, bigint]]>([FEE_PARAMETER], log.data)
    if (!fee) return undefined
    return { ...base(log), kind: 'receiptReceived', relayerRewardAddress: topicAddress(log.topics[3]!), feeInfo: { feeTokenAddress: lower(fee[0][0]), amount: fee[0][1] } }
  }
  if (topic0 === ADD_FEE_AMOUNT_TOPIC && log.topics.length === 2) {
    const fee = decode<readonly [readonly [string, bigint]]>([FEE_PARAMETER], log.data)
    if (!fee) return undefined
    return { messageId: lower(log.topics[1]!), messenger: lower(log.address), kind: 'feeAdded', feeInfo: { feeTokenAddress: lower(fee[0][0]), amount: fee[0][1] } }
  }
  return undefined
}
