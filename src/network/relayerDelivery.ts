/**
 * One delivery of a Teleporter message, as icm-relayer's teleporter message handler makes it
 * (`messages/teleporter/message_handler.go`): the checks of `ShouldSendMessage`, the signature
 * aggregated from the subnet the destination verifies it against with the destination's quorum,
 * then `receiveCrossChainMessage(0, rewardAddress)` with the signed message as the warp predicate
 * and the gas limit of `CalculateReceiveMessageGasLimit`.
 */
import * as AbiFunction from 'ox/AbiFunction'
import type { Hex } from '../core/hex.js'
import { idToString } from '../core/ids.js'
import { call } from '../evm/call.js'
import type { EvmChain } from '../evm/chain.js'
import { setBalance } from '../evm/cheats.js'
import { suggestTip } from '../evm/gasPrice.js'
import { sendTransaction } from '../evm/send.js'
import type { MinedTx } from '../evm/types.js'
import { bitSetCount, parseMessage, parseUnsignedMessage } from '../evm/warp/codec.js'
import { packPredicateHex, WARP_ADDRESS } from '../evm/warp/predicate.js'
import type { WarpRules } from '../evm/warpRules.js'
import { AggregationError } from './aggregator.js'
import type { TeleporterMessage } from '../evm/icm/messages.js'
import { messageReceivedAbi, receiveCrossChainMessageAbi, receiveMessageGasLimit } from './icmMessages.js'
import type { Network } from './network.js'

/** What the relayer knows of a message it is to deliver. */
export type RelayItem = {
  messageId: Hex
  unsigned: Uint8Array
  addressedPayload: Uint8Array
  message: TeleporterMessage
  destination: EvmChain
}

/** The relayer's account (its key) and where rewards go. */
export type RelayerAccount = { address: Hex; privateKey: Uint8Array; rewardAddress: Hex }

export type SendOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; error: string }
  | { kind: 'sent'; txHash: Hex }

/** icm-relayer's log line for a message no application relayer takes (its destination is not one it serves). */
export const NO_APPLICATION_RELAYER = 'Application relayer not found. Skipping message relay.'

/** A relayer's balance is topped up to this when it runs low on a chain (avalanche-cli funds its relayer key in each genesis). */
const RELAYER_FUNDING = 1_000n * 10n ** 18n

/**
 * Checks and sends one delivery; `force` skips `ShouldSendMessage` (a duplicated delivery must
 * reach the messenger to meet its replay refusal).
 */
export async function sendDelivery(network: Network, item: RelayItem, account: RelayerAccount, messenger: Hex, force: boolean): Promise<SendOutcome> {
  const dest = item.destination
  // icm-relayer is configured with the destinations that have the messenger: a chain without it has no application relayer.
  if ((await dest.getCode(messenger, 'latest')).length === 0) return { kind: 'skipped', reason: NO_APPLICATION_RELAYER }
  if (!force) {
    const reason = await shouldNotSend(dest, item, account, messenger)
    if (reason) return { kind: 'skipped', reason }
  }
  const warp = warpOf(network, dest)
  const timestamp = dest.head.block.header.timestamp
  const config = warp?.configAt(timestamp)
  const unsigned = parseUnsignedMessage(item.unsigned)
  const signingSubnet = warp?.signingSubnet(unsigned.sourceChainId, timestamp)
  if (!warp || !config || !signingSubnet) return { kind: 'skipped', reason: 'warp is not active on the destination chain' }
  let signed: Uint8Array
  try {
    signed = network.signatureAggregator.aggregate({
      message: item.unsigned,
      signingSubnetId: idToString(signingSubnet),
      quorumPercentage: Number(config.quorumNumerator === 0n ? 67n : config.quorumNumerator),
    })
  } catch (error) {
    if (error instanceof AggregationError) return { kind: 'failed', error: `failed to create signed warp message via AppRequest network: ${error.shortMessage}` }
    throw error
  }
  const gas = receiveMessageGasLimit({
    numSigners: bitSetCount(parseMessage(signed).signature.signers),
    requiredGasLimit: item.message.requiredGasLimit,
    signedMessage: signed,
    payloadBytes: item.addressedPayload.length,
    receipts: item.message.receipts.length,
  })
  const tip = suggestTip(dest)
  const feeCap = tip + 2n * dest.nextBaseFee()
  const { balance } = await dest.getAccountFields(account.address, 'latest')
  if (balance < gas * feeCap) await setBalance(dest, account.address, RELAYER_FUNDING > gas * feeCap ? RELAYER_FUNDING : gas * feeCap * 2n)
  try {
    const txHash = await sendTransaction(
      dest,
      dest.miner,
      {
        from: account.address,
        to: messenger,
        gas,
        maxFeePerGas: feeCap,
        maxPriorityFeePerGas: tip,
        data: hexBytes(AbiFunction.encodeData(receiveCrossChainMessageAbi(), [0, account.rewardAddress])),
        accessList: [{ address: WARP_ADDRESS, storageKeys: packPredicateHex(signed) }],
      },
      new Map([[account.address, account.privateKey]]),
      tip,
    )
    return { kind: 'sent', txHash }
  } catch (error) {
    return { kind: 'failed', error: `failed to send warp message: ${(error as Error).message}` }
  }
}

/** `ShouldSendMessage`'s refusals, in its order, with its log lines as reasons. */
async function shouldNotSend(dest: EvmChain, item: RelayItem, account: RelayerAccount, messenger: Hex): Promise<string | undefined> {
  if (item.message.requiredGasLimit > dest.head.block.header.gasLimit) return 'Gas limit exceeds maximum threshold'
  const allowed = item.message.allowedRelayerAddresses
  if (allowed.length > 0 && !allowed.includes(account.address)) return 'Relayer EOA not allowed to deliver this message.'
  if (await messageReceived(dest, messenger, item.messageId)) return 'Message already delivered to destination.'
  return undefined
}

/** The destination messenger's `messageReceived(messageID)`. */
export async function messageReceived(dest: EvmChain, messenger: Hex, messageId: Hex): Promise<boolean> {
  const result = await call(dest, { to: messenger, data: hexBytes(AbiFunction.encodeData(messageReceivedAbi(), [messageId])) }, 'latest')
  return result.success && result.returnValue.length === 32 && result.returnValue[31] === 1
}

/** The reason string of a reverted transaction (`Error(string)`), or undefined. */
export function revertReason(tx: MinedTx): string | undefined {
  const data = tx.receipt.returnValue
  if (tx.receipt.status === 1 || data.length < 4 || Buffer.from(data.subarray(0, 4)).toString('hex') !== '08c379a0') return undefined
  try {
    return AbiFunction.decodeResult(AbiFunction.from('function Error() returns (string)'), hexOf(data.subarray(4))) as string
  } catch {
    return undefined
  }
}

function warpOf(network: Network, chain: EvmChain): WarpRules | undefined {
  return chain === network.cChain ? network.cWarp : network.l1s.find((l) => l.chain === chain)?.rules.warp
}

const hexBytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))
const hexOf = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}` as Hex
