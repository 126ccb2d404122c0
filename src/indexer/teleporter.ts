import type { Hex } from '../core/hex.js'

/**
 * The Teleporter (ICM) messenger's two message events, as ITeleporterMessenger.sol in
 * ava-labs/icm-contracts declares them:
 *
 * - `SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID,
 *   TeleporterMessage message, TeleporterFeeInfo feeInfo)` on the source chain;
 * - `ReceiveCrossChainMessage(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID,
 *   address indexed deliverer, address rewardRedeemer, TeleporterMessage message)` on the
 *   destination chain.
 *
 * Recognised by topic whatever contract emits them (the messenger's address differs per
 * deployment), as the hosted indexer keys on the event, not on one address.
 */

/** `TeleporterMessage`: (messageNonce, originSenderAddress, destinationBlockchainID, destinationAddress, requiredGasLimit, allowedRelayerAddresses, receipts (receivedMessageNonce, relayerRewardAddress)[], message). */
export const TELEPORTER_MESSAGE_TYPE = '(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)'
export const SEND_CROSS_CHAIN_MESSAGE_SIGNATURE = `SendCrossChainMessage(bytes32,bytes32,${TELEPORTER_MESSAGE_TYPE},(address,uint256))`
export const RECEIVE_CROSS_CHAIN_MESSAGE_SIGNATURE = `ReceiveCrossChainMessage(bytes32,bytes32,address,address,${TELEPORTER_MESSAGE_TYPE})`
/** Keccak-256 of {@link SEND_CROSS_CHAIN_MESSAGE_SIGNATURE}. */
export const SEND_CROSS_CHAIN_MESSAGE_TOPIC: Hex = '0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8'
/** Keccak-256 of {@link RECEIVE_CROSS_CHAIN_MESSAGE_SIGNATURE}. */
export const RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC: Hex = '0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34'

export type TeleporterDirection = 'SOURCE_TRANSACTION' | 'DESTINATION_TRANSACTION'

export type TeleporterEvent = {
  direction: TeleporterDirection
  /** The 32-byte message id, `0x`-prefixed lower-case hex. */
  messageId: Hex
  /** The other chain's 32-byte blockchain id: the destination of a send, the source of a receive. */
  remoteBlockchainId: Hex
  /** The messenger contract that emitted the event (lower case). */
  messenger: Hex
}

/** Number of 32-byte words of hex `data`, or -1 when it is not whole words. */
const words = (data: Hex): number => ((data.length - 2) % 64 === 0 ? (data.length - 2) / 64 : -1)
const wordAt = (data: Hex, i: number): bigint => BigInt(`0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`)

/**
 * The message event a log carries, or undefined. The head of the data must be there (a send's
 * message offset and fee info, a receive's reward redeemer and message offset) with the offset
 * inside the data: a log that only borrows the topic is not a message.
 */
export function decodeTeleporterLog(log: { address: string; topics: readonly Hex[]; data: Hex }): TeleporterEvent | undefined {
  const [topic0, messageId, remote] = log.topics
  const n = words(log.data)
  let direction: TeleporterDirection
  let offsetWord: number
  if (topic0 === SEND_CROSS_CHAIN_MESSAGE_TOPIC && log.topics.length === 3 && n >= 3) {
    direction = 'SOURCE_TRANSACTION'
    offsetWord = 0
  } else if (topic0 === RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC && log.topics.length === 4 && n >= 2) {
    direction = 'DESTINATION_TRANSACTION'
    offsetWord = 1
  } else return undefined
  const offset = wordAt(log.data, offsetWord)
  if (offset % 32n !== 0n || offset / 32n >= BigInt(n)) return undefined
  return { direction, messageId: messageId!.toLowerCase() as Hex, remoteBlockchainId: remote!.toLowerCase() as Hex, messenger: log.address.toLowerCase() as Hex }
}
