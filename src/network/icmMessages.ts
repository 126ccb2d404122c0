/**
 * Teleporter (ICM) messages as icm-relayer reads them (ava-labs/icm-services `messages/teleporter`):
 * a `SendWarpMessage` log from the messenger carries an unsigned warp message whose AddressedCall
 * payload is the ABI-encoded `TeleporterMessage` (ITeleporterMessenger.sol); the message id is
 * keccak256 of `abi.encode(messenger, sourceBlockchainID, destinationBlockchainID, nonce)`; the
 * delivery is `receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress)` with a
 * gas limit from `gas-utils.CalculateReceiveMessageGasLimit`.
 */
import * as AbiFunction from 'ox/AbiFunction'
import * as AbiParameters from 'ox/AbiParameters'
import * as Hash from 'ox/Hash'
import type { Hex } from '../core/hex.js'
import { parseAddressedCall, type UnsignedMessage } from '../evm/warp/codec.js'
import { GRANITE_WARP_GAS, packPredicate } from '../evm/warp/predicate.js'
import { decodeTeleporterMessage, type TeleporterMessage } from '../evm/icm/messages.js'

// The ABI items are parsed (and their selectors hashed) on first use, not when the module loads:
// ox's parser and keccak run interpreted in a cold process, ~1–2 ms of every start, and only a
// relayer delivery needs them. Each is a constant once made.
let idParams: ReturnType<typeof AbiParameters.from<readonly ['address, bytes32, bytes32, uint256']>> | undefined
let receiveCrossChainMessage: AbiFunction.AbiFunction | undefined
let messageReceived: AbiFunction.AbiFunction | undefined

/** The messenger's `receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress)`. */
export const receiveCrossChainMessageAbi = (): AbiFunction.AbiFunction =>
  (receiveCrossChainMessage ??= AbiFunction.from('function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress)'))
/** The messenger's `messageReceived(bytes32 messageID) view returns (bool)`. */
export const messageReceivedAbi = (): AbiFunction.AbiFunction => (messageReceived ??= AbiFunction.from('function messageReceived(bytes32 messageID) view returns (bool)'))

/** `MarkMessageReceiptGasCost`, `DecodeMessageGasCostPerByte`, `TeleporterOverheadGasCost` of icm-services' gas-utils. */
const MARK_MESSAGE_RECEIPT_GAS = 2_500n
const DECODE_MESSAGE_GAS_PER_BYTE = 35n
const TELEPORTER_OVERHEAD_GAS = 250_000n

/**
 * The Teleporter message an unsigned warp message carries when `messenger` sent it: its
 * AddressedCall's source is the messenger and its payload decodes as a `TeleporterMessage`.
 * Undefined otherwise (another protocol's message, which icm-relayer does not route).
 */
export function teleporterMessageOf(unsigned: UnsignedMessage, messenger: Hex): { message: TeleporterMessage; addressedPayload: Uint8Array } | undefined {
  try {
    const call = parseAddressedCall(unsigned.payload)
    if (`0x${Buffer.from(call.sourceAddress).toString('hex')}` !== messenger.toLowerCase()) return undefined
    return { message: decodeTeleporterMessage(call.payload), addressedPayload: unsigned.payload }
  } catch {
    return undefined
  }
}

/** `teleporterUtils.CalculateMessageID`. */
export function teleporterMessageId(messenger: Hex, sourceBlockchainId: Uint8Array, destinationBlockchainId: Uint8Array, nonce: bigint): Hex {
  const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}` as Hex
  return Hash.keccak256(AbiParameters.encode((idParams ??= AbiParameters.from(['address, bytes32, bytes32, uint256'])), [messenger, hex(sourceBlockchainId), hex(destinationBlockchainId), nonce])) as Hex
}

/**
 * `CalculateReceiveMessageGasLimit` as icm-relayer calls it, with Granite's warp gas (which it
 * always assumes): the required gas, twice the predicate's chunks (verification and
 * `getVerifiedWarpMessage`), decoding the payload, marking receipts, the signers, the bases and
 * the messenger's overhead.
 */
export function receiveMessageGasLimit(args: { numSigners: number; requiredGasLimit: bigint; signedMessage: Uint8Array; payloadBytes: number; receipts: number }): bigint {
  const gas = GRANITE_WARP_GAS
  return (
    args.requiredGasLimit +
    BigInt(packPredicate(args.signedMessage).length) * gas.perWarpMessageChunk * 2n +
    BigInt(args.payloadBytes) * DECODE_MESSAGE_GAS_PER_BYTE +
    BigInt(args.receipts) * MARK_MESSAGE_RECEIPT_GAS +
    BigInt(args.numSigners) * gas.perWarpSigner +
    gas.verifyPredicateBase +
    gas.getVerifiedWarpMessageBase +
    TELEPORTER_OVERHEAD_GAS
  )
}
