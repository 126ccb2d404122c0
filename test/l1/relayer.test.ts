import { describe, expect, it } from 'vitest'
import { getAddress, type Hex } from 'viem'
import { ICM_MESSENGER_ABI } from '../../src/evm/icm/messenger.js'
import { ICMReceiver } from '../fixtures/contracts/index.js'
import { alice, bob } from './helpers.js'
import { deployReceiver } from './icmHelpers.js'
import { deliveryEvents, icmNetwork, predeployedIcmNetwork, sendMessage, type IcmNetwork } from './relayerHelpers.js'
import type { Side } from './icmHelpers.js'

const lastMessage = (s: Side, receiver: Hex) => s.publicClient.readContract({ address: receiver, abi: ICMReceiver.abi, functionName: 'lastMessage' })
const received = (s: Side, receiver: Hex) => s.publicClient.readContract({ address: receiver, abi: ICMReceiver.abi, functionName: 'received' })
const messageReceived = (n: IcmNetwork, s: Side, id: Hex) => s.publicClient.readContract({ address: n.messenger, abi: ICM_MESSENGER_ABI, functionName: 'messageReceived', args: [id] })

/** Receivers on b and C, a message from a to each; checks both arrived once the relayer settles. */
async function aToBAndC(n: IcmNetwork, toBPayload: Hex, toCPayload: Hex) {
  const onB = await deployReceiver(n.b, bob, n.messenger)
  const onC = await deployReceiver(n.c, bob, n.messenger)
  const toB = await sendMessage(n, n.a, n.b, onB, toBPayload)
  const toC = await sendMessage(n, n.a, n.c, onC, toCPayload)
  await n.network.relayer.settled()
  expect([await lastMessage(n.b, onB), await lastMessage(n.c, onC)]).toEqual([toBPayload, toCPayload])
  return { onB, onC, toB, toC }
}

describe('built-in ICM relayer', () => {
  it('auto: a message from L1 A is delivered on L1 B and on the C-chain, and its receipt comes back on the next message', async () => {
    const n = await icmNetwork()
    const { network, a, b } = n
    const { onB, toB, toC } = await aToBAndC(n, '0xb0', '0xc0')
    const onA = await deployReceiver(a, bob, n.messenger)
    const [deliveredB] = network.relayer.deliveries(toB.id)
    expect(deliveredB).toMatchObject({ status: 'delivered', sourceChain: 'a', destinationChain: 'b', nonce: 1n, sourceTxHash: toB.receipt.transactionHash })
    const events = await deliveryEvents(n, b, deliveredB!.txHash!)
    expect(events.map((e) => e.eventName)).toEqual(['BlockchainIDInitialized', 'ReceiveCrossChainMessage', 'MessageExecuted'])
    expect(events[1]!.args).toMatchObject({ messageID: toB.id, deliverer: getAddress(network.relayer.address), rewardRedeemer: getAddress(network.relayer.rewardAddress) })
    expect(network.relayer.deliveries(toC.id)).toMatchObject([{ status: 'delivered', destinationChain: 'C' }])

    // B answers A: the relayer delivers it, and A's messenger takes the receipt of its first message.
    const back = await sendMessage(n, b, a, onA, '0xa0')
    await network.relayer.settled()
    expect(await lastMessage(a, onA)).toBe('0xa0')
    const backEvents = await deliveryEvents(n, a, network.relayer.deliveries(back.id)[0]!.txHash!)
    expect(backEvents.map((e) => e.eventName)).toContain('ReceiptReceived')
    expect(backEvents.find((e) => e.eventName === 'ReceiptReceived')!.args).toMatchObject({ messageID: toB.id, relayerRewardAddress: getAddress(network.relayer.rewardAddress) })

    // The C-chain sends too: a primary-network message signed by the destination L1's validators.
    const fromC = await sendMessage(n, n.c, b, onB, '0xcb')
    await network.relayer.settled()
    expect(await lastMessage(b, onB)).toBe('0xcb')
    expect(network.relayer.deliveries(fromC.id)).toMatchObject([{ status: 'delivered', sourceChain: 'C', destinationChain: 'b' }])
    expect(network.relayer.pending()).toEqual([])
  })

  it('with the messenger predeployed (icm: true) the relayer serves the canonical address out of the box', async () => {
    const n = await predeployedIcmNetwork()
    const { network } = n
    expect(network.relayer.messenger).toBe(n.messenger.toLowerCase())
    const { toB, toC } = await aToBAndC(n, '0x0b', '0x0c')
    expect([...network.relayer.deliveries(toB.id), ...network.relayer.deliveries(toC.id)].map((d) => d.status)).toEqual(['delivered', 'delivered'])
  })

  it('manual: nothing moves until asked; relay(id) and relayAll() deliver', async () => {
    const n = await icmNetwork({ mode: 'manual' })
    const { network, a, b } = n
    const onB = await deployReceiver(b, bob, n.messenger)
    const first = await sendMessage(n, a, b, onB, '0x01')
    const second = await sendMessage(n, a, b, onB, '0x02')
    await network.advanceTime(60)
    await network.relayer.settled()
    expect(await received(b, onB)).toBe(0n)
    expect(network.relayer.pending().map((p) => [p.messageId, p.status])).toEqual([
      [first.id, 'pending'],
      [second.id, 'pending'],
    ])
    expect(await network.relayer.relay(second.id)).toMatchObject([{ messageId: second.id, status: 'delivered' }])
    expect([await received(b, onB), await lastMessage(b, onB), await messageReceived(n, b, first.id)]).toEqual([1n, '0x02', false])
    expect(await network.relayer.relayAll()).toMatchObject([{ messageId: first.id, status: 'delivered' }])
    expect([await received(b, onB), await messageReceived(n, b, first.id)]).toEqual([2n, true])
    await expect(network.relayer.relay(first.id)).rejects.toThrow(`no pending ICM message ${first.id}`)
  })

  it('a revert forgets the pending messages of the blocks it removed', async () => {
    const n = await icmNetwork({ mode: 'manual' })
    const { network, a, b } = n
    const onB = await deployReceiver(b, bob, n.messenger)
    const kept = await sendMessage(n, a, b, onB, '0x01')
    const id = await network.snapshot()
    await sendMessage(n, a, b, onB, '0x02')
    expect(network.relayer.pending()).toHaveLength(2)
    await network.revert(id)
    expect(network.relayer.pending().map((p) => p.messageId)).toEqual([kept.id])
    await network.relayer.relayAll()
    expect([await received(b, onB), await lastMessage(b, onB)]).toEqual([1n, '0x01'])
  })

  it('delay: a message goes after its virtual seconds, or after its source chain\'s blocks', async () => {
    const n = await icmNetwork({ mode: 'delay=5s' })
    const { network, a, b } = n
    const onB = await deployReceiver(b, bob, n.messenger)
    await sendMessage(n, a, b, onB, '0x05')
    await network.advanceTime(4)
    await network.relayer.settled()
    expect(await received(b, onB)).toBe(0n)
    await network.advanceTime(1)
    await network.relayer.settled()
    expect(await received(b, onB)).toBe(1n)

    await network.relayer.setMode('delay=2blocks')
    const late = await sendMessage(n, a, b, onB, '0x06')
    await sendMessage(n, a, b, onB, '0x07')
    await network.relayer.settled()
    expect(await received(b, onB)).toBe(1n)
    await a.wallet(alice).sendTransaction({ to: alice.address, value: 0n })
    await network.relayer.settled()
    // The first message's block is 2 behind the head now; the second's is not yet.
    expect([await received(b, onB), await lastMessage(b, onB)]).toEqual([2n, '0x06'])
    expect(network.relayer.pending().map((p) => p.messageId)).not.toContain(late.id)
  })

  it('drop, duplicate and reorder show through the messenger: a dropped message retried by its sender, a duplicate refused, a reordered pair', async () => {
    const n = await icmNetwork({ mode: 'manual' })
    const { network, a, b } = n
    const onB = await deployReceiver(b, bob, n.messenger)

    // Dropped: never sent; the sender's retrySendCrossChainMessage emits it again and the relayer delivers it.
    const dropped = await sendMessage(n, a, b, onB, '0xd0')
    network.relayer.dropNext()
    expect(await network.relayer.relayAll()).toMatchObject([{ messageId: dropped.id, status: 'dropped' }])
    expect(await messageReceived(n, b, dropped.id)).toBe(false)
    const sent = (await a.publicClient.getContractEvents({ address: n.messenger, abi: ICM_MESSENGER_ABI, eventName: 'SendCrossChainMessage', fromBlock: 0n })).find((e) => e.args.messageID === dropped.id)!
    await a.wallet(bob).writeContract({ address: n.messenger, abi: ICM_MESSENGER_ABI, functionName: 'retrySendCrossChainMessage', args: [sent.args.message!] })
    expect(network.relayer.pending().map((p) => p.messageId)).toEqual([dropped.id])
    expect(await network.relayer.relayAll()).toMatchObject([{ messageId: dropped.id, status: 'delivered' }])
    expect(await messageReceived(n, b, dropped.id)).toBe(true)

    // Duplicated: the second delivery reverts with the messenger's replay refusal.
    const twice = await sendMessage(n, a, b, onB, '0xd1')
    network.relayer.duplicateNext(twice.id)
    const [once, again] = await network.relayer.relay(twice.id)
    expect(once).toMatchObject({ status: 'delivered' })
    expect(again).toMatchObject({ status: 'reverted', duplicate: true, revertReason: 'TeleporterMessenger: message already received' })
    expect(again!.error).toBeUndefined()
    expect((await b.publicClient.getTransactionReceipt({ hash: again!.txHash! })).status).toBe('reverted')
    expect(await received(b, onB)).toBe(2n)

    // Reordered: the later message is delivered first.
    const m1 = await sendMessage(n, a, b, onB, '0xe1')
    const m2 = await sendMessage(n, a, b, onB, '0xe2')
    expect(network.relayer.reorder([m2.id]).map((p) => p.messageId)).toEqual([m2.id, m1.id])
    const order = await network.relayer.relayAll()
    expect(order.map((d) => d.messageId)).toEqual([m2.id, m1.id])
    expect(order[0]!.blockNumber! < order[1]!.blockNumber!).toBe(true)
    expect(await lastMessage(b, onB)).toBe('0xe1')
  })

  it('a failing receiver: the delivery succeeds with MessageExecutionFailed, and retryMessageExecution runs it later', async () => {
    const n = await icmNetwork()
    const { network, a, b } = n
    const onB = await deployReceiver(b, bob, n.messenger)
    await b.wallet(bob).writeContract({ address: onB, abi: ICMReceiver.abi, functionName: 'setFailing', args: [true] })
    const msg = await sendMessage(n, a, b, onB, '0xf0')
    await network.relayer.settled()
    const [delivery] = network.relayer.deliveries(msg.id)
    expect(delivery).toMatchObject({ status: 'delivered' })
    const events = await deliveryEvents(n, b, delivery!.txHash!)
    expect(events.map((e) => e.eventName)).toContain('MessageExecutionFailed')
    const failed = events.find((e) => e.eventName === 'MessageExecutionFailed')!
    if (failed.eventName !== 'MessageExecutionFailed') throw new Error('unreachable')
    await b.wallet(bob).writeContract({ address: onB, abi: ICMReceiver.abi, functionName: 'setFailing', args: [false] })
    await b.wallet(bob).writeContract({ address: n.messenger, abi: ICM_MESSENGER_ABI, functionName: 'retryMessageExecution', args: [a.blockchainId, failed.args.message] })
    expect(await lastMessage(b, onB)).toBe('0xf0')
  })

  it('withheld signatures: the delivery fails observably and goes once they are resumed', async () => {
    const n = await icmNetwork()
    const { network, a, b } = n
    const onB = await deployReceiver(b, bob, n.messenger)
    // Two of b's five equal validators withhold: 60% of the stake signs, below the 67% quorum.
    network.faults.withholdWarpSignatures(0)
    network.faults.withholdWarpSignatures(1)
    const msg = await sendMessage(n, a, b, onB, '0x99')
    await network.relayer.settled()
    expect(network.relayer.deliveries(msg.id)).toMatchObject([
      { status: 'failed', error: 'failed to create signed warp message via AppRequest network: failed to aggregate signatures. error: failed to collect a threshold of signatures' },
    ])
    expect(network.relayer.pending()).toMatchObject([{ messageId: msg.id, status: 'failed' }])
    expect(network.relayer.unhealthy()).toEqual([network.l1('a')!.blockchainId])
    expect(await received(b, onB)).toBe(0n)

    network.faults.resumeWarpSignatures(0)
    network.faults.resumeWarpSignatures(1)
    await network.advanceTime(1)
    await network.relayer.settled()
    expect(await received(b, onB)).toBe(1n)
    expect(network.relayer.deliveries(msg.id).at(-1)).toMatchObject({ status: 'delivered' })
    expect(network.relayer.pending()).toEqual([])
    expect(network.relayer.unhealthy()).toEqual([])
  })

  it('skips what icm-relayer skips: a destination outside the network or without the messenger, a relayer not allowed', async () => {
    const n = await icmNetwork({}, ['a', 'b'])
    const { network, a, b } = n
    const onB = await deployReceiver(b, bob, n.messenger)
    const elsewhere = await sendMessage(n, a, { ...b, blockchainId: `0x${'ab'.repeat(32)}` }, onB, '0x00')
    const notUs = await sendMessage(n, a, b, onB, '0x01', { allowedRelayerAddresses: [bob.address] })
    const noMessenger = await sendMessage(n, a, n.c, onB, '0x02')
    await network.relayer.settled()
    expect(network.relayer.deliveries(noMessenger.id)).toMatchObject([{ status: 'skipped', destinationChain: 'C', error: 'Application relayer not found. Skipping message relay.' }])
    expect(network.relayer.deliveries(elsewhere.id)).toMatchObject([{ status: 'skipped', error: 'Application relayer not found. Skipping message relay.' }])
    expect(network.relayer.deliveries(notUs.id)).toMatchObject([{ status: 'skipped', error: 'Relayer EOA not allowed to deliver this message.' }])
    expect(await received(b, onB)).toBe(0n)
  })
})
