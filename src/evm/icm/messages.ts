/**
 * The messenger's `TeleporterMessage` (ITeleporterMessenger.sol, ava-labs/icm-contracts): one
 * codec for the two readers of it, the indexer (in the messenger's events) and the relayer (in the
 * warp message's AddressedCall payload, which is the ABI-encoded struct alone).
 */
import * as AbiParameters from 'ox/AbiParameters'
import type { Hex } from '../../core/hex.js'

/** `TeleporterMessage`: (messageNonce, originSenderAddress, destinationBlockchainID, destinationAddress, requiredGasLimit, allowedRelayerAddresses, receipts (receivedMessageNonce, relayerRewardAddress)[], message). */
export const TELEPORTER_MESSAGE_TYPE = '(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)'

/** The struct as an ABI parameter, for decoding it inside an event's data. */
export const TELEPORTER_MESSAGE_PARAMETER = {
  type: 'tuple',
  components: [
    { type: 'uint256' },
    { type: 'address' },
    { type: 'bytes32' },
    { type: 'address' },
    { type: 'uint256' },
    { type: 'address[]' },
    { type: 'tuple[]', components: [{ type: 'uint256' }, { type: 'address' }] },
    { type: 'bytes' },
  ],
} as const

export type TeleporterReceipt = { receivedMessageNonce: bigint; relayerRewardAddress: Hex }

/** A decoded `TeleporterMessage` (addresses and ids lower-case hex). */
export type TeleporterMessage = {
  messageNonce: bigint
  originSenderAddress: Hex
  destinationBlockchainId: Hex
  destinationAddress: Hex
  requiredGasLimit: bigint
  allowedRelayerAddresses: Hex[]
  receipts: TeleporterReceipt[]
  /** The message's payload (`message` in the struct). */
  payload: Hex
}

/** What ox decodes {@link TELEPORTER_MESSAGE_PARAMETER} to. */
export type RawTeleporterMessage = readonly [bigint, string, string, string, bigint, readonly string[], readonly (readonly [bigint, string])[], string]

const lower = (h: string): Hex => h.toLowerCase() as Hex

/** The message from its decoded tuple, addresses and ids in lower case. */
export function teleporterMessageFromTuple(raw: RawTeleporterMessage): TeleporterMessage {
  return {
    messageNonce: raw[0],
    originSenderAddress: lower(raw[1]),
    destinationBlockchainId: lower(raw[2]),
    destinationAddress: lower(raw[3]),
    requiredGasLimit: raw[4],
    allowedRelayerAddresses: raw[5].map(lower),
    receipts: raw[6].map(([nonce, relayer]) => ({ receivedMessageNonce: nonce, relayerRewardAddress: lower(relayer) })),
    payload: lower(raw[7]),
  }
}

/** The message ABI-encoded alone (a warp AddressedCall's payload); throws when the bytes are not one. */
export function decodeTeleporterMessage(encoded: Uint8Array | Hex): TeleporterMessage {
  const [raw] = AbiParameters.decode([TELEPORTER_MESSAGE_PARAMETER], encoded, { checksumAddress: false }) as unknown as [RawTeleporterMessage]
  return teleporterMessageFromTuple(raw)
}
