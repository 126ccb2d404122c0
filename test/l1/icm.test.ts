import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bytesToHex, decodeAbiParameters, toEventSelector, toFunctionSelector, type AbiItem, encodeAbiParameters, getAddress, getContractAddress, hexToBytes, keccak256, parseAbi, parseAbiParameters, type Hex, type TransactionReceipt } from 'viem'
import { formatAbiItem, formatAbiParams } from 'viem/utils'
import { idFromString } from '../../src/core/ids.js'
import { ICM_MESSENGER_ABI, ICM_MESSENGER_BYTECODE, ICM_MESSENGER_DEPLOYED_BYTECODE, ICM_MESSENGER_SOURCE_SHA256 } from '../../src/evm/icm/messenger.js'
import { parseAddressedCall, parseUnsignedMessage } from '../../src/evm/warp/codec.js'
import { packPredicateHex } from '../../src/evm/warp/predicate.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { ICM_MESSENGER_ADDRESS } from '../../src/evm/icm/predeploy.js'
import { ERC20, ICMReceiver } from '../fixtures/contracts/index.js'
import { accounts, alice, bob, carol, testGenesis } from './helpers.js'
import { deliver, deployReceiver, DURANGO_LOCAL, messengerEvents, mined, side, WARP, warpLogData, type Side } from './icmHelpers.js'
import { predeployedIcmNetwork } from './relayerHelpers.js'

const deployer = accounts[5]!

/** TeleporterMessage as ITeleporterMessenger declares it, for decoding the warp payload. */
const TELEPORTER_MESSAGE = parseAbiParameters(
  '(uint256 messageNonce, address originSenderAddress, bytes32 destinationBlockchainID, address destinationAddress, uint256 requiredGasLimit, address[] allowedRelayerAddresses, (uint256 receivedMessageNonce, address relayerRewardAddress)[] receipts, bytes message)',
)

/**
 * Two L1s with warp from genesis and the C-chain, the messenger deployed at the same address on
 * each (the same fresh account's first transaction), as Teleporter needs.
 */
async function network3(): Promise<{ network: Network; a: Side; b: Side; c: Side; messenger: Hex }> {
  const warpConfig = { blockTimestamp: DURANGO_LOCAL }
  const network = await createNetwork({
    l1s: [
      { name: 'a', genesis: testGenesis({ chainId: 11111, warpConfig }) },
      { name: 'b', genesis: testGenesis({ chainId: 22222, warpConfig }) },
    ],
  })
  const [la, lb] = network.l1s as [(typeof network.l1s)[0], (typeof network.l1s)[0]]
  const a = side(network, la.chain, la.blockchainIdBytes)
  const b = side(network, lb.chain, lb.blockchainIdBytes)
  const c = side(network, network.cChain, idFromString(network.preset.cChainId))
  const messenger = getContractAddress({ from: deployer.address, nonce: 0n })
  for (const s of [a, b]) {
    const receipt = await mined(s, await s.wallet(deployer).deployContract({ abi: ICM_MESSENGER_ABI, bytecode: ICM_MESSENGER_BYTECODE }))
    expect(receipt.contractAddress).toBe(messenger.toLowerCase())
  }
  return { network, a, b, c, messenger }
}

/** ITeleporterMessenger v1 and TeleporterMessenger's public state, as icm-contracts declares them. */
const TELEPORTER_V1 = parseAbi([
  'struct TeleporterMessageReceipt { uint256 receivedMessageNonce; address relayerRewardAddress; }',
  'struct TeleporterFeeInfo { address feeTokenAddress; uint256 amount; }',
  'struct TeleporterMessageInput { bytes32 destinationBlockchainID; address destinationAddress; TeleporterFeeInfo feeInfo; uint256 requiredGasLimit; address[] allowedRelayerAddresses; bytes message; }',
  'struct TeleporterMessage { uint256 messageNonce; address originSenderAddress; bytes32 destinationBlockchainID; address destinationAddress; uint256 requiredGasLimit; address[] allowedRelayerAddresses; TeleporterMessageReceipt[] receipts; bytes message; }',
  'event BlockchainIDInitialized(bytes32 indexed blockchainID)',
  'event SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, TeleporterMessage message, TeleporterFeeInfo feeInfo)',
  'event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo)',
  'event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, TeleporterMessage message)',
  'event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID)',
  'event ReceiveCrossChainMessage(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, address indexed deliverer, address rewardRedeemer, TeleporterMessage message)',
  'event ReceiptReceived(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, address indexed relayerRewardAddress, TeleporterFeeInfo feeInfo)',
  'event RelayerRewardsRedeemed(address indexed redeemer, address indexed asset, uint256 amount)',
  'function sendCrossChainMessage(TeleporterMessageInput messageInput) returns (bytes32)',
  'function retrySendCrossChainMessage(TeleporterMessage message)',
  'function addFeeAmount(bytes32 messageID, address feeTokenAddress, uint256 additionalFeeAmount)',
  'function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress)',
  'function retryMessageExecution(bytes32 sourceBlockchainID, TeleporterMessage message)',
  'function sendSpecifiedReceipts(bytes32 sourceBlockchainID, bytes32[] messageIDs, TeleporterFeeInfo feeInfo, address[] allowedRelayerAddresses) returns (bytes32)',
  'function redeemRelayerRewards(address feeTokenAddress)',
  'function getMessageHash(bytes32 messageID) view returns (bytes32)',
  'function messageReceived(bytes32 messageID) view returns (bool)',
  'function getRelayerRewardAddress(bytes32 messageID) view returns (address)',
  'function checkRelayerRewardAmount(address relayer, address feeTokenAddress) view returns (uint256)',
  'function getFeeInfo(bytes32 messageID) view returns (address, uint256)',
  'function getNextMessageID(bytes32 destinationBlockchainID) view returns (bytes32)',
  'function getReceiptQueueSize(bytes32 sourceBlockchainID) view returns (uint256)',
  'function getReceiptAtIndex(bytes32 sourceBlockchainID, uint256 index) view returns (TeleporterMessageReceipt)',
  'function WARP_MESSENGER() view returns (address)',
  'function blockchainID() view returns (bytes32)',
  'function messageNonce() view returns (uint256)',
  'function receiptQueues(bytes32 sourceBlockchainID) view returns (uint256 first, uint256 last)',
  'function sentMessageInfo(bytes32 messageID) view returns (bytes32 messageHash, TeleporterFeeInfo feeInfo)',
  'function receivedFailedMessageHashes(bytes32 messageID) view returns (bytes32 messageHash)',
  'function initializeBlockchainID() returns (bytes32)',
  'function calculateMessageID(bytes32 sourceBlockchainID, bytes32 destinationBlockchainID, uint256 nonce) view returns (bytes32)',
])

describe('ICM messenger (TeleporterMessenger v1 ABI)', () => {
  it('is compiled from the ICMMessenger.sol beside it (rerun `node scripts/compile-icm.mjs`)', () => {
    const source = readFileSync(fileURLToPath(new URL('../../src/evm/icm/ICMMessenger.sol', import.meta.url)))
    expect(ICM_MESSENGER_SOURCE_SHA256).toBe(createHash('sha256').update(source).digest('hex'))
    expect(ICM_MESSENGER_BYTECODE.includes(ICM_MESSENGER_DEPLOYED_BYTECODE.slice(2))).toBe(true)
  })

  it("has TeleporterMessenger v1's functions and events, nothing else: selectors, topics, outputs and mutability", () => {
    const shape = (abi: readonly AbiItem[]) =>
      abi
        .filter((i) => i.type === 'function' || i.type === 'event')
        .map((i) => `${i.type === 'function' ? toFunctionSelector(formatAbiItem(i)) : toEventSelector(formatAbiItem(i))} ${formatAbiItem(i)} ${i.type === 'function' ? `${i.stateMutability} ${formatAbiParams(i.outputs)}` : i.inputs.map((p) => p.indexed === true).join()}`)
        .sort()
    expect(shape(ICM_MESSENGER_ABI)).toEqual(shape(TELEPORTER_V1))
  })

  it('a message sent on L1 A is delivered on L1 B to an ITeleporterReceiver with a signed warp message', async () => {
    const { network, a, b, messenger } = await network3()
    const receiver = await deployReceiver(b, bob, messenger)
    const send = (to: Side) =>
      a.wallet(alice).writeContract({
        address: messenger,
        abi: ICM_MESSENGER_ABI,
        functionName: 'sendCrossChainMessage',
        args: [{ destinationBlockchainID: to.blockchainId, destinationAddress: receiver, feeInfo: { feeTokenAddress: `0x${'00'.repeat(20)}`, amount: 0n }, requiredGasLimit: 200_000n, allowedRelayerAddresses: [], message: '0xc0ffee' }],
      })
    const sent = await mined(a, await send(b))

    // The message id: keccak256(abi.encode(messenger, source, destination, nonce 1)).
    const id = keccak256(encodeAbiParameters(parseAbiParameters('address, bytes32, bytes32, uint256'), [messenger, a.blockchainId, b.blockchainId, 1n]))
    expect(await a.publicClient.readContract({ address: messenger, abi: ICM_MESSENGER_ABI, functionName: 'calculateMessageID', args: [a.blockchainId, b.blockchainId, 1n] })).toBe(id)
    const [initialized, event] = messengerEvents(sent, messenger)
    expect(initialized).toEqual({ eventName: 'BlockchainIDInitialized', args: { blockchainID: a.blockchainId } })
    expect(event!.eventName).toBe('SendCrossChainMessage')
    expect(event!.args).toMatchObject({ messageID: id, destinationBlockchainID: b.blockchainId, feeInfo: { amount: 0n } })

    // The warp message: an AddressedCall from the messenger whose payload is the ABI-encoded TeleporterMessage.
    const [unsigned] = decodeAbiParameters([{ type: 'bytes' }], warpLogData(sent))
    const warp = parseUnsignedMessage(hexToBytes(unsigned))
    expect(bytesToHex(warp.sourceChainId)).toBe(a.blockchainId)
    const call = parseAddressedCall(warp.payload)
    expect(bytesToHex(call.sourceAddress)).toBe(messenger.toLowerCase())
    const [message] = decodeAbiParameters(TELEPORTER_MESSAGE, bytesToHex(call.payload))
    expect(message).toEqual({ messageNonce: 1n, originSenderAddress: alice.address, destinationBlockchainID: b.blockchainId, destinationAddress: receiver, requiredGasLimit: 200_000n, allowedRelayerAddresses: [], receipts: [], message: '0xc0ffee' })
    expect(await a.publicClient.readContract({ address: messenger, abi: ICM_MESSENGER_ABI, functionName: 'getMessageHash', args: [id] })).toBe(keccak256(encodeAbiParameters(TELEPORTER_MESSAGE, [message])))

    const delivered = await mined(b, await deliver(network, sent, b, carol, messenger))
    const events = messengerEvents(delivered, messenger).map((e) => e.eventName)
    expect(events).toEqual(['BlockchainIDInitialized', 'ReceiveCrossChainMessage', 'MessageExecuted'])
    const read = <F extends 'lastSourceBlockchainID' | 'lastOriginSender' | 'lastMessage' | 'received'>(functionName: F) => b.publicClient.readContract({ address: receiver, abi: ICMReceiver.abi, functionName })
    expect([await read('lastSourceBlockchainID'), await read('lastOriginSender'), await read('lastMessage'), await read('received')]).toEqual([a.blockchainId, alice.address, '0xc0ffee', 1n])
    expect(await b.publicClient.readContract({ address: messenger, abi: ICM_MESSENGER_ABI, functionName: 'messageReceived', args: [id] })).toBe(true)
    expect(await b.publicClient.readContract({ address: messenger, abi: ICM_MESSENGER_ABI, functionName: 'getRelayerRewardAddress', args: [id] })).toBe(carol.address)
    expect(await b.publicClient.readContract({ address: messenger, abi: ICM_MESSENGER_ABI, functionName: 'getReceiptQueueSize', args: [a.blockchainId] })).toBe(1n)
  })
})

const ZERO_ADDRESS = `0x${'00'.repeat(20)}` as const
const NO_FEE = { feeTokenAddress: ZERO_ADDRESS, amount: 0n }

/** The C-chain and two L1s with warp, the messenger predeployed on each (`icm: true`); these tests
 * deliver by hand, as a relayer does, so the built-in relayer stays out of the way. */
const predeployed = () => predeployedIcmNetwork({ relayer: { mode: 'manual' } })

type MessageInput = { destinationBlockchainID: Hex; destinationAddress: Hex; feeInfo?: { feeTokenAddress: Hex; amount: bigint }; requiredGasLimit?: bigint; allowedRelayerAddresses?: Hex[]; message?: Hex }

async function sendMessage(from: Side, sender: (typeof accounts)[0], input: MessageInput) {
  const hash = await from.wallet(sender).writeContract({
    address: ICM_MESSENGER_ADDRESS,
    abi: ICM_MESSENGER_ABI,
    functionName: 'sendCrossChainMessage',
    args: [{ feeInfo: NO_FEE, requiredGasLimit: 200_000n, allowedRelayerAddresses: [], message: '0x', ...input }],
  })
  const receipt = await mined(from, hash)
  const sent = messengerEvents(receipt, ICM_MESSENGER_ADDRESS).find((e) => e.eventName === 'SendCrossChainMessage')!
  return { receipt, args: sent.args as { messageID: Hex; message: { messageNonce: bigint; receipts: readonly { receivedMessageNonce: bigint; relayerRewardAddress: Hex }[] } & Record<string, unknown>; feeInfo: { feeTokenAddress: Hex; amount: bigint } } }
}

const read = <F extends 'messageReceived' | 'getReceiptQueueSize' | 'receivedFailedMessageHashes' | 'getMessageHash'>(s: Side, functionName: F, args: [Hex]) =>
  s.publicClient.readContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName, args } as never) as Promise<unknown>

describe('ICM between the C-chain and L1s (the predeployed messenger)', () => {
  it('A → B and A → C-chain, each executed on its receiver; the receipt rides back in the next message B → A and pays the relayer its fee', async () => {
    const { network, a, b, c } = await predeployed()
    const receiverB = await deployReceiver(b, bob, ICM_MESSENGER_ADDRESS)
    const receiverC = await deployReceiver(c, bob, ICM_MESSENGER_ADDRESS)

    // A fee in an ERC-20 on A, taken from alice by transferFrom.
    const token = getAddress((await mined(a, await a.wallet(alice).deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode, args: ['Fee', 'FEE', 10n ** 24n] }))).contractAddress!)
    await mined(a, await a.wallet(alice).writeContract({ address: token, abi: ERC20.abi, functionName: 'approve', args: [ICM_MESSENGER_ADDRESS, 1_000n] }))
    const toB = await sendMessage(a, alice, { destinationBlockchainID: b.blockchainId, destinationAddress: receiverB, feeInfo: { feeTokenAddress: token, amount: 300n }, message: '0x0b' })
    expect(toB.args.feeInfo).toEqual({ feeTokenAddress: token, amount: 300n })
    expect(await a.publicClient.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [ICM_MESSENGER_ADDRESS] })).toBe(300n)
    // More fee while it waits.
    const added = await mined(a, await a.wallet(alice).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'addFeeAmount', args: [toB.args.messageID, token, 200n] }))
    expect(messengerEvents(added, ICM_MESSENGER_ADDRESS)).toEqual([{ eventName: 'AddFeeAmount', args: { messageID: toB.args.messageID, updatedFeeInfo: { feeTokenAddress: token, amount: 500n } } }])
    const toC = await sendMessage(a, alice, { destinationBlockchainID: c.blockchainId, destinationAddress: receiverC, message: '0x0c' })
    expect(toC.args.message.messageNonce).toBe(2n)

    // carol relays A → B with dave as reward address, and A → C-chain.
    const dave = accounts[4]!
    const onB = await mined(b, await deliver(network, toB.receipt, b, carol, ICM_MESSENGER_ADDRESS, dave.address))
    expect(messengerEvents(onB, ICM_MESSENGER_ADDRESS).map((e) => e.eventName)).toEqual(['BlockchainIDInitialized', 'ReceiveCrossChainMessage', 'MessageExecuted'])
    const onC = await mined(c, await deliver(network, toC.receipt, c, carol, ICM_MESSENGER_ADDRESS))
    const received = messengerEvents(onC, ICM_MESSENGER_ADDRESS).find((e) => e.eventName === 'ReceiveCrossChainMessage')!
    expect(received.args).toMatchObject({ messageID: toC.args.messageID, sourceBlockchainID: a.blockchainId, deliverer: carol.address, rewardRedeemer: carol.address })
    expect(await c.publicClient.readContract({ address: receiverC, abi: ICMReceiver.abi, functionName: 'lastMessage' })).toBe('0x0c')
    expect(await b.publicClient.readContract({ address: receiverB, abi: ICMReceiver.abi, functionName: 'lastMessage' })).toBe('0x0b')

    // B's next message to A carries the receipt (nonce 1, dave); A pays dave the 500 on delivery.
    expect(await read(b, 'getReceiptQueueSize', [a.blockchainId])).toBe(1n)
    const back = await sendMessage(b, bob, { destinationBlockchainID: a.blockchainId, destinationAddress: ZERO_ADDRESS })
    expect(back.args.message.receipts).toEqual([{ receivedMessageNonce: 1n, relayerRewardAddress: dave.address }])
    expect(await read(b, 'getReceiptQueueSize', [a.blockchainId])).toBe(0n)
    const onA = await mined(a, await deliver(network, back.receipt, a, carol, ICM_MESSENGER_ADDRESS))
    const receipt = messengerEvents(onA, ICM_MESSENGER_ADDRESS).find((e) => e.eventName === 'ReceiptReceived')!
    expect(receipt.args).toEqual({ messageID: toB.args.messageID, destinationBlockchainID: b.blockchainId, relayerRewardAddress: dave.address, feeInfo: { feeTokenAddress: token, amount: 500n } })
    expect(await read(a, 'getMessageHash', [toB.args.messageID])).toBe(`0x${'00'.repeat(32)}`)
    expect(await a.publicClient.readContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'checkRelayerRewardAmount', args: [dave.address, token] })).toBe(500n)
    const redeemed = await mined(a, await a.wallet(dave).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'redeemRelayerRewards', args: [token] }))
    expect(messengerEvents(redeemed, ICM_MESSENGER_ADDRESS)).toEqual([{ eventName: 'RelayerRewardsRedeemed', args: { redeemer: dave.address, asset: token, amount: 500n } }])
    expect(await a.publicClient.readContract({ address: token, abi: ERC20.abi, functionName: 'balanceOf', args: [dave.address] })).toBe(500n)
    await expect(a.wallet(dave).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'redeemRelayerRewards', args: [token] })).rejects.toThrow('TeleporterMessenger: no reward to redeem')
    // The fee cannot grow once the receipt is in.
    await expect(a.wallet(alice).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'addFeeAmount', args: [toB.args.messageID, token, 1n] })).rejects.toThrow('TeleporterMessenger: message not found')
  })

  it('a receiver that reverts: MessageExecutionFailed, the message still received; retryMessageExecution fails while it reverts and succeeds once it does not', async () => {
    const { network, a, b } = await predeployed()
    const receiver = await deployReceiver(b, bob, ICM_MESSENGER_ADDRESS)
    await mined(b, await b.wallet(bob).writeContract({ address: receiver, abi: ICMReceiver.abi, functionName: 'setFailing', args: [true] }))
    const sent = await sendMessage(a, alice, { destinationBlockchainID: b.blockchainId, destinationAddress: receiver, message: '0xbeef' })
    const delivered = await mined(b, await deliver(network, sent.receipt, b, carol, ICM_MESSENGER_ADDRESS))
    const events = messengerEvents(delivered, ICM_MESSENGER_ADDRESS)
    expect(events.map((e) => e.eventName)).toEqual(['BlockchainIDInitialized', 'ReceiveCrossChainMessage', 'MessageExecutionFailed'])
    const failed = events[2]!.args as { messageID: Hex; sourceBlockchainID: Hex; message: Record<string, unknown> }
    expect(failed.messageID).toBe(sent.args.messageID)
    expect(failed.message).toEqual(sent.args.message)
    expect(await read(b, 'messageReceived', [sent.args.messageID])).toBe(true)
    expect(await read(b, 'receivedFailedMessageHashes', [sent.args.messageID])).toBe(keccak256(encodeAbiParameters(TELEPORTER_MESSAGE, [sent.args.message as never])))

    const retry = () => b.wallet(carol).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'retryMessageExecution', args: [a.blockchainId, sent.args.message as never], gas: 1_000_000n })
    await expect(b.publicClient.simulateContract({ account: carol.address, address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'retryMessageExecution', args: [a.blockchainId, sent.args.message as never] })).rejects.toThrow('TeleporterMessenger: retry execution failed')
    // A tampered copy is not the message that failed.
    await expect(b.publicClient.simulateContract({ account: carol.address, address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'retryMessageExecution', args: [a.blockchainId, { ...sent.args.message, message: '0xbeee' } as never] })).rejects.toThrow('TeleporterMessenger: invalid message hash')
    await mined(b, await b.wallet(bob).writeContract({ address: receiver, abi: ICMReceiver.abi, functionName: 'setFailing', args: [false] }))
    const retried = await mined(b, await retry())
    expect(messengerEvents(retried, ICM_MESSENGER_ADDRESS)).toEqual([{ eventName: 'MessageExecuted', args: { messageID: sent.args.messageID, sourceBlockchainID: a.blockchainId } }])
    expect(await b.publicClient.readContract({ address: receiver, abi: ICMReceiver.abi, functionName: 'lastMessage' })).toBe('0xbeef')
    expect(await read(b, 'receivedFailedMessageHashes', [sent.args.messageID])).toBe(`0x${'00'.repeat(32)}`)
    await expect(b.publicClient.simulateContract({ account: carol.address, address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'retryMessageExecution', args: [a.blockchainId, sent.args.message as never] })).rejects.toThrow('TeleporterMessenger: message not found')
  })

  it("refusals with the messenger's revert strings: a replay, another sender's warp message, another destination, a relayer not allowed, too little gas, no verified message", async () => {
    const { network, a, b, c } = await predeployed()
    const receiver = await deployReceiver(b, bob, ICM_MESSENGER_ADDRESS)
    const refused = (s: Side, sent: TransactionReceipt, reason: string) => expect(deliver(network, sent, s, carol, ICM_MESSENGER_ADDRESS)).rejects.toThrow(reason)

    const sent = await sendMessage(a, alice, { destinationBlockchainID: b.blockchainId, destinationAddress: receiver, message: '0x01' })
    await mined(b, await deliver(network, sent.receipt, b, carol, ICM_MESSENGER_ADDRESS))
    await refused(b, sent.receipt, 'TeleporterMessenger: message already received')
    // The same message delivered on the C-chain: it was meant for B.
    await refused(c, sent.receipt, 'TeleporterMessenger: invalid destination chain ID')

    // A TeleporterMessage-shaped payload sent to warp by an EOA, not by the messenger.
    const forged = encodeAbiParameters(TELEPORTER_MESSAGE, [{ ...(sent.args.message as Parameters<typeof encodeAbiParameters<typeof TELEPORTER_MESSAGE>>[1][0]), messageNonce: 9n }])
    const byEoa = await mined(a, await a.wallet(alice).writeContract({ address: WARP, abi: parseAbi(['function sendWarpMessage(bytes) returns (bytes32)']), functionName: 'sendWarpMessage', args: [forged] }))
    await refused(b, byEoa, 'TeleporterMessenger: invalid origin sender address')

    const onlyDave = await sendMessage(a, alice, { destinationBlockchainID: b.blockchainId, destinationAddress: receiver, allowedRelayerAddresses: [accounts[4]!.address], message: '0x02' })
    await refused(b, onlyDave.receipt, 'TeleporterMessenger: unauthorized relayer')

    const heavy = await sendMessage(a, alice, { destinationBlockchainID: b.blockchainId, destinationAddress: receiver, requiredGasLimit: 5_000_000n, message: '0x03' })
    // The relayer's transaction must leave the messenger the gas the sender asked for.
    const signed = network.aggregateSignatures({ message: warpLogData(heavy.receipt) })
    const call = { account: carol.address, address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'receiveCrossChainMessage', args: [0, carol.address], accessList: [{ address: WARP, storageKeys: packPredicateHex(signed) }] } as const
    await expect(b.publicClient.simulateContract({ ...call, gas: 1_000_000n })).rejects.toThrow('TeleporterMessenger: insufficient gas')
    await b.publicClient.simulateContract({ ...call, gas: 6_000_000n })

    // No signed message in the access list.
    await expect(b.wallet(carol).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'receiveCrossChainMessage', args: [0, carol.address] })).rejects.toThrow('TeleporterMessenger: invalid warp message')
    expect(await b.publicClient.readContract({ address: receiver, abi: ICMReceiver.abi, functionName: 'received' })).toBe(1n)
  })

  it('retrySendCrossChainMessage re-emits an unacknowledged message; sendSpecifiedReceipts sends chosen receipts back in an empty message', async () => {
    const { network, a, b } = await predeployed()
    const receiver = await deployReceiver(b, bob, ICM_MESSENGER_ADDRESS)
    expect(await a.publicClient.readContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'getNextMessageID', args: [b.blockchainId] }).catch((e: Error) => e.message)).toContain('TeleporterMessenger: zero blockchain ID')
    const sent = await sendMessage(a, alice, { destinationBlockchainID: b.blockchainId, destinationAddress: receiver, message: '0x05' })
    expect(await a.publicClient.readContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'getNextMessageID', args: [b.blockchainId] })).toBe(
      keccak256(encodeAbiParameters(parseAbiParameters('address, bytes32, bytes32, uint256'), [ICM_MESSENGER_ADDRESS, a.blockchainId, b.blockchainId, 2n])),
    )
    const resent = await mined(a, await a.wallet(carol).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'retrySendCrossChainMessage', args: [sent.args.message as never] }))
    expect(warpLogData(resent)).toBe(warpLogData(sent.receipt))
    await expect(a.publicClient.simulateContract({ account: carol.address, address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'retrySendCrossChainMessage', args: [{ ...sent.args.message, message: '0x06' } as never] })).rejects.toThrow('TeleporterMessenger: invalid message hash')
    // The re-sent copy delivers the message.
    await mined(b, await deliver(network, resent, b, carol, ICM_MESSENGER_ADDRESS))

    const specified = await mined(b, await b.wallet(carol).writeContract({ address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'sendSpecifiedReceipts', args: [a.blockchainId, [sent.args.messageID], NO_FEE, []] }))
    const event = messengerEvents(specified, ICM_MESSENGER_ADDRESS).find((e) => e.eventName === 'SendCrossChainMessage')!
    expect((event.args as { message: unknown }).message).toMatchObject({ destinationBlockchainID: a.blockchainId, destinationAddress: ZERO_ADDRESS, requiredGasLimit: 0n, receipts: [{ receivedMessageNonce: 1n, relayerRewardAddress: carol.address }], message: '0x' })
    await expect(b.publicClient.simulateContract({ account: carol.address, address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'sendSpecifiedReceipts', args: [b.blockchainId, [sent.args.messageID], NO_FEE, []] })).rejects.toThrow('TeleporterMessenger: message ID not from source blockchain')
    const delivered = await mined(a, await deliver(network, specified, a, carol, ICM_MESSENGER_ADDRESS))
    expect(messengerEvents(delivered, ICM_MESSENGER_ADDRESS).map((e) => e.eventName)).toEqual(['ReceiptReceived', 'ReceiveCrossChainMessage'])
  })
})
