import { describe, expect, it } from 'vitest'
import { bytesToHex, decodeAbiParameters, encodeAbiParameters, getContractAddress, hexToBytes, keccak256, parseAbiParameters, type Hex } from 'viem'
import { idFromString } from '../../src/core/ids.js'
import { ICM_MESSENGER_ABI, ICM_MESSENGER_BYTECODE } from '../../src/evm/icm/messenger.js'
import { parseAddressedCall, parseUnsignedMessage } from '../../src/evm/warp/codec.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { ICMReceiver } from '../fixtures/contracts/index.js'
import { accounts, alice, bob, carol, testGenesis } from './helpers.js'
import { deliver, deployReceiver, DURANGO_LOCAL, messengerEvents, mined, side, warpLogData, type Side } from './icmHelpers.js'

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

describe('ICM messenger (TeleporterMessenger v1 ABI)', () => {
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
