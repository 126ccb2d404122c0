/**
 * The built-in ICM relayer: icm-relayer (ava-labs/icm-services `relayer/`) for every chain of the
 * network. It watches the accepted blocks of the C-chain and every L1 for the warp precompile's
 * `SendWarpMessage` logs sent by the Teleporter messenger, and delivers each message to its
 * destination (see `relayerDelivery.ts`) when its mode says: at once (`auto`), after a delay of
 * virtual seconds or source blocks (`delay`), or when asked (`manual`). Tests can drop, duplicate
 * and reorder deliveries; every attempt is recorded with its transaction, status and revert reason.
 */
import { InvalidArgumentError, NotFoundError } from '../core/errors.js'
import { addressOfPrivateKey } from '../core/keys.js'
import { TypedEmitter } from '../core/events.js'
import type { Hex } from '../core/hex.js'
import { idToString } from '../core/ids.js'
import { createSeededRandom } from '../core/random.js'
import type { EvmChain } from '../evm/chain.js'
import type { StoredBlock } from '../evm/types.js'
import { abiDecodeBytes } from '../evm/warp/abi.js'
import { messageId as warpId, parseUnsignedMessage } from '../evm/warp/codec.js'
import { SEND_WARP_MESSAGE_TOPIC } from '../evm/warp/precompile.js'
import { WARP_ADDRESS } from '../evm/warp/predicate.js'
import { ICM_MESSENGER_ADDRESS } from '../evm/icm/predeploy.js'
import { teleporterMessageId, teleporterMessageOf } from './icmMessages.js'
import type { Network } from './network.js'
import { messageReceived, NO_APPLICATION_RELAYER, revertReason, sendDelivery, type RelayerAccount, type RelayItem } from './relayerDelivery.js'

/** When deliveries go: `auto`, `manual`, or `delay` by virtual seconds or by blocks of the source chain. */
export type RelayerMode = { mode: 'auto' } | { mode: 'manual' } | { mode: 'delay'; seconds?: number; blocks?: number }

export type RelayerOptions = {
  /** `auto` (default), `manual`, `delay=5s`, `delay=3blocks`, or the object form. */
  mode?: RelayerMode | string
  /** The messenger the relayer serves (the canonical TeleporterMessenger address by default). */
  messenger?: Hex
  /** The relayer's private key (a key derived from the network seed by default). */
  privateKey?: Hex
  /** `relayerRewardAddress` of its deliveries (its own address by default). */
  rewardAddress?: Hex
}

export type DeliveryStatus = 'pending' | 'sent' | 'delivered' | 'reverted' | 'failed' | 'dropped' | 'skipped'

/** One attempt to deliver a message (a pending message is one record with status `pending`). */
export type IcmDelivery = {
  /** The Teleporter message id. */
  messageId: Hex
  /** The warp message id (sha256 of the unsigned message). */
  warpMessageId: Hex
  sourceChain: string
  sourceBlockchainId: string
  sourceTxHash: Hex
  sourceBlockNumber: bigint
  destinationBlockchainId: string
  /** The destination's alias (`C`, an L1's name), when it is a chain of this network. */
  destinationChain?: string
  nonce: bigint
  status: DeliveryStatus
  /** The delivery transaction on the destination. */
  txHash?: Hex
  blockNumber?: bigint
  /** Why it was skipped or failed, in icm-relayer's words. */
  error?: string
  revertReason?: string
  /** A second delivery of the same message sent by the duplicate fault. */
  duplicate?: boolean
}

type Pending = RelayItem & { record: IcmDelivery; sourceTime: number; source: EvmChain; failures: number }
type Fault = { kind: 'drop' | 'duplicate'; messageId?: Hex }

export type IcmRelayer = ReturnType<typeof createRelayer>

/** `delay=5s`, `delay=3blocks`, `auto`, `manual` → a mode; throws on anything else. */
export function parseRelayerMode(value: RelayerMode | string): RelayerMode {
  if (typeof value !== 'string') {
    if (value.mode === 'delay' && value.seconds === undefined && value.blocks === undefined) throw new InvalidArgumentError('relayer delay needs seconds or blocks')
    return value
  }
  if (value === 'auto' || value === 'manual') return { mode: value }
  const delay = /^delay=(\d+)(s|blocks?|b)?$/.exec(value)
  if (!delay) throw new InvalidArgumentError(`relayer mode must be auto, manual, delay=<N>s or delay=<N>blocks, got ${JSON.stringify(value)}`)
  const n = Number(delay[1])
  return delay[2]?.startsWith('b') ? { mode: 'delay', blocks: n } : { mode: 'delay', seconds: n }
}

/** The relayer of `network`; it watches the network's chains from now on. */
export function createRelayer(network: Network, options: RelayerOptions = {}) {
  let mode = parseRelayerMode(options.mode ?? 'auto')
  const messenger = (options.messenger ?? ICM_MESSENGER_ADDRESS).toLowerCase() as Hex
  const privateKey = options.privateKey ? Uint8Array.from(Buffer.from(options.privateKey.replace(/^0x/, ''), 'hex')) : createSeededRandom(network.options.seed ?? 'l1sim').derive('icm-relayer')
  const address = addressOfPrivateKey(privateKey)
  const account: RelayerAccount = { address, privateKey, rewardAddress: (options.rewardAddress ?? address).toLowerCase() as Hex }
  const senderTopic = `0x${messenger.slice(2).padStart(64, '0')}`
  const events = new TypedEmitter<{ delivery: IcmDelivery }>()
  const pending: Pending[] = []
  const history: IcmDelivery[] = []
  const faults: Fault[] = []
  /** Sent deliveries waiting for their block (manual or interval mining on the destination). */
  const sent = new Map<Hex, { item: Pending; record: IcmDelivery; dest: EvmChain }>()
  let queue: Promise<unknown> = Promise.resolve()
  const watched = new Set<EvmChain>()

  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task)
    queue = run.catch(() => undefined)
    return run
  }
  /** Work the chains' blocks start: its failures are recorded on the deliveries, never thrown at the block's miner. */
  const background = (task: () => Promise<unknown>) => void enqueue(task).catch(() => undefined)
  const publish = (record: IcmDelivery) => {
    history.push(record)
    events.emit('delivery', record)
  }

  const watch = (chain: EvmChain) => {
    if (watched.has(chain)) return
    watched.add(chain)
    chain.events.on('block', (block) => onBlock(chain, block))
    chain.events.on('truncate', ({ height }) => {
      // A revert forgets the messages of the blocks it removed.
      for (let i = pending.length - 1; i >= 0; i--) if (pending[i]!.source === chain && pending[i]!.record.sourceBlockNumber > height) pending.splice(i, 1)
    })
  }

  const onBlock = (chain: EvmChain, block: StoredBlock) => {
    for (const tx of block.txs) {
      const done = sent.get(tx.hash)
      if (done) {
        sent.delete(tx.hash)
        background(() => settle(done.item, done.record, done.dest, tx.hash))
      }
      for (const log of tx.receipt.logs) {
        if (log.address !== WARP_ADDRESS || log.topics[0] !== SEND_WARP_MESSAGE_TOPIC || log.topics[1] !== senderTopic) continue
        let unsigned: Uint8Array
        try {
          unsigned = abiDecodeBytes(Uint8Array.from(Buffer.from(log.data.slice(2), 'hex')))
        } catch {
          continue
        }
        const item = itemOf(chain, block, tx.hash, unsigned)
        if (item) pending.push(item)
      }
    }
    // Only when something waits: every block of every chain passes here, most with no message.
    if (pending.length > 0) background(deliverDue)
  }

  const itemOf = (chain: EvmChain, block: StoredBlock, txHash: Hex, unsigned: Uint8Array): Pending | undefined => {
    let parsed: ReturnType<typeof parseUnsignedMessage>
    try {
      parsed = parseUnsignedMessage(unsigned)
    } catch {
      return undefined
    }
    const teleporter = teleporterMessageOf(parsed, messenger)
    if (!teleporter) return undefined
    const destinationBytes = Uint8Array.from(Buffer.from(teleporter.message.destinationBlockchainId.slice(2), 'hex'))
    const destinationBlockchainId = idToString(destinationBytes)
    const destination = network.chain(destinationBlockchainId)
    const record: IcmDelivery = {
      messageId: teleporterMessageId(messenger, parsed.sourceChainId, destinationBytes, teleporter.message.messageNonce),
      warpMessageId: `0x${Buffer.from(warpId(unsigned)).toString('hex')}` as Hex,
      sourceChain: chain.alias,
      sourceBlockchainId: idToString(parsed.sourceChainId),
      sourceTxHash: txHash,
      sourceBlockNumber: block.number,
      destinationBlockchainId,
      ...(destination ? { destinationChain: destination.alias } : {}),
      nonce: teleporter.message.messageNonce,
      status: 'pending',
    }
    if (!destination) {
      // icm-relayer has no application relayer for a chain it does not know: the message is not routed.
      publish({ ...record, status: 'skipped', error: NO_APPLICATION_RELAYER })
      return undefined
    }
    return { record, messageId: record.messageId, unsigned, addressedPayload: teleporter.addressedPayload, message: teleporter.message, destination, sourceTime: Number(block.block.header.timestamp), source: chain, failures: 0 }
  }

  const isDue = (item: Pending): boolean => {
    if (mode.mode === 'auto') return true
    if (mode.mode === 'manual') return false
    if (mode.seconds !== undefined && network.clock.now() < item.sourceTime + mode.seconds) return false
    if (mode.blocks !== undefined && item.source.store.height < item.record.sourceBlockNumber + BigInt(mode.blocks)) return false
    return true
  }

  /** Delivers every pending message that is due, in the pending order. */
  const deliverDue = async (): Promise<IcmDelivery[]> => {
    const out: IcmDelivery[] = []
    for (const item of [...pending]) if (pending.includes(item) && isDue(item)) out.push(...(await deliver(item)))
    return out
  }

  const takeFault = (kind: Fault['kind'], messageId: Hex): boolean => {
    const index = faults.findIndex((f) => f.kind === kind && f.messageId === messageId)
    const any = index >= 0 ? index : faults.findIndex((f) => f.kind === kind && f.messageId === undefined)
    if (any < 0) return false
    faults.splice(any, 1)
    return true
  }

  /** One pending message: dropped, or sent (and sent again when duplicated); a failure stays pending. */
  const deliver = async (item: Pending): Promise<IcmDelivery[]> => {
    const at = pending.indexOf(item)
    if (takeFault('drop', item.messageId)) {
      if (at >= 0) pending.splice(at, 1)
      const record = { ...item.record, status: 'dropped' as const }
      publish(record)
      return [record]
    }
    const first = await attempt(item, false)
    const out = [first]
    if (first.status !== 'failed') {
      const index = pending.indexOf(item)
      if (index >= 0) pending.splice(index, 1)
      if ((first.status === 'delivered' || first.status === 'sent') && takeFault('duplicate', item.messageId)) out.push(await attempt(item, true))
    }
    return out
  }

  const attempt = async (item: Pending, duplicate: boolean): Promise<IcmDelivery> => {
    const base: IcmDelivery = { ...item.record, ...(duplicate ? { duplicate: true } : {}) }
    // Anything unexpected (a chain closed under it) is this attempt's failure, not the queue's.
    const outcome = await sendDelivery(network, item, account, messenger, duplicate).catch((error: unknown) => ({ kind: 'failed' as const, error: (error as Error).message }))
    if (outcome.kind === 'skipped') {
      const record = { ...base, status: 'skipped' as const, error: outcome.reason }
      publish(record)
      return record
    }
    if (outcome.kind === 'failed') {
      item.failures++
      const record = { ...base, status: 'failed' as const, error: outcome.error }
      item.record.error = outcome.error
      publish(record)
      return record
    }
    const record: IcmDelivery = { ...base, status: 'sent', txHash: outcome.txHash }
    if (item.destination.store.tx(outcome.txHash)) return settle(item, record, item.destination, outcome.txHash)
    sent.set(outcome.txHash, { item, record, dest: item.destination })
    publish(record)
    return record
  }

  /** The delivery's receipt: delivered, or reverted (icm-relayer counts a revert of a message someone else delivered as done). */
  const settle = async (item: Pending, record: IcmDelivery, dest: EvmChain, txHash: Hex): Promise<IcmDelivery> => {
    const mined = dest.store.tx(txHash)!
    const done: IcmDelivery = { ...record, txHash, blockNumber: mined.blockNumber, status: mined.receipt.status === 1 ? 'delivered' : 'reverted' }
    delete done.error
    if (done.status === 'reverted') {
      const reason = revertReason(mined)
      if (reason !== undefined) done.revertReason = reason
      if (!(await messageReceived(dest, messenger, item.messageId))) done.error = `failed to send warp message: transaction failed with status: ${mined.receipt.status}`
    }
    const index = history.indexOf(record)
    if (index >= 0) history.splice(index, 1)
    publish(done)
    return done
  }

  /** The transaction and block that sent an unsigned message on `source` (newest first), when it did. */
  const sentIn = (source: EvmChain, unsigned: Uint8Array): { txHash?: Hex; blockNumber?: bigint } => {
    const id = `0x${Buffer.from(warpId(unsigned)).toString('hex')}`
    for (let n = source.store.height; n >= 0n; n--)
      for (const tx of source.store.byNumber(n)?.txs ?? [])
        if (tx.receipt.logs.some((l) => l.address === WARP_ADDRESS && l.topics[0] === SEND_WARP_MESSAGE_TOPIC && l.topics[2] === id)) return { txHash: tx.hash, blockNumber: n }
    return {}
  }
  const find = (messageId: Hex): Pending | undefined => pending.find((p) => p.messageId === messageId.toLowerCase())

  for (const chain of network.chains) watch(chain)
  network.onChainAdded(watch)
  network.onTick(async () => {
    if (pending.length > 0) await enqueue(deliverDue).catch(() => undefined)
  })

  const pendingRecords = (): IcmDelivery[] => pending.map((p) => ({ ...p.record, ...(p.failures > 0 ? { status: 'failed' as const } : {}) }))

  return {
    /** The relayer's account: its deliveries are sent from it, its balance topped up on each chain it delivers to. */
    address: account.address,
    rewardAddress: account.rewardAddress,
    messenger,
    events,
    get mode(): RelayerMode {
      return mode
    },
    /** Changes the mode; messages already due under the new mode go at once. */
    setMode(next: RelayerMode | string): Promise<IcmDelivery[]> {
      mode = parseRelayerMode(next)
      return enqueue(deliverDue)
    },
    /** Messages waiting for delivery (and ones whose delivery failed, to be tried again), in delivery order. */
    pending: pendingRecords,
    /** Every attempt so far (optionally of one message), oldest first. */
    deliveries(messageId?: Hex): IcmDelivery[] {
      return messageId === undefined ? [...history] : history.filter((d) => d.messageId === messageId.toLowerCase())
    },
    /** Delivers one pending message now, whatever the mode. */
    relay(messageId: Hex): Promise<IcmDelivery[]> {
      return enqueue(async () => {
        const item = find(messageId)
        if (!item) throw new NotFoundError(`no pending ICM message ${messageId}`)
        return deliver(item)
      })
    },
    /** Delivers every pending message now, in the pending order, whatever the mode. */
    relayAll(): Promise<IcmDelivery[]> {
      return enqueue(async () => {
        const out: IcmDelivery[] = []
        for (const item of [...pending]) out.push(...(await deliver(item)))
        return out
      })
    },
    /**
     * Delivers the message a source chain's `SendWarpMessage` log carries, as icm-relayer's
     * `/relay` and `/relay/message` do: its pending entry if it has one, else the message read
     * again (reprocessing one dropped or already delivered). Resolves to the attempts.
     */
    relayUnsigned(source: EvmChain, unsigned: Uint8Array, origin: { txHash?: Hex; blockNumber?: bigint } = {}): Promise<IcmDelivery[] | undefined> {
      return enqueue(async () => {
        const found = origin.txHash !== undefined ? origin : sentIn(source, unsigned)
        const block = found.blockNumber !== undefined ? source.store.byNumber(found.blockNumber) : source.store.head
        const item = itemOf(source, block ?? source.store.head, found.txHash ?? ('0x' as Hex), unsigned)
        if (!item) return undefined
        const waiting = find(item.messageId)
        if (waiting) return deliver(waiting)
        pending.push(item)
        return deliver(item)
      })
    },
    /** Drops the next delivery (or the next of `messageId`): it is never sent. */
    dropNext(messageId?: Hex): void {
      faults.push({ kind: 'drop', ...(messageId ? { messageId: messageId.toLowerCase() as Hex } : {}) })
    },
    /** Sends the next delivery (or the next of `messageId`) twice; the second meets the messenger's replay refusal. */
    duplicateNext(messageId?: Hex): void {
      faults.push({ kind: 'duplicate', ...(messageId ? { messageId: messageId.toLowerCase() as Hex } : {}) })
    },
    /** Reorders pending deliveries: the given messages first, in that order, then the rest; reversed when none given. */
    reorder(order?: readonly Hex[]): IcmDelivery[] {
      if (!order) pending.reverse()
      else {
        const wanted = order.map((id) => {
          const item = find(id)
          if (!item) throw new NotFoundError(`no pending ICM message ${id}`)
          return item
        })
        const rest = pending.filter((p) => !wanted.includes(p))
        pending.splice(0, pending.length, ...wanted, ...rest)
      }
      return pendingRecords()
    },
    /** Forgets faults not used yet. */
    clearFaults(): void {
      faults.length = 0
    },
    /** Resolves when the relayer has nothing in progress (deliveries started by blocks and ticks included). */
    async settled(): Promise<void> {
      let seen: Promise<unknown>
      do {
        seen = queue
        await seen
      } while (seen !== queue)
    },
    /** Source chains whose last delivery failed (icm-relayer's unhealthy relayers), by blockchain id. */
    unhealthy(): string[] {
      return [...new Set(pending.filter((p) => p.failures > 0).map((p) => p.record.sourceBlockchainId))]
    },
  }
}
