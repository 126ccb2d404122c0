import type { Hex } from '../core/hex.js'
import { InvalidCursorError, StaleCursorError, type EvmIndexer, type Page, type TeleporterRecord } from './evm.js'
import type { TeleporterFeeInfo, TeleporterMessage } from './teleporter.js'

/**
 * Interchain Messaging across the network's EVM chains: each chain's indexer records the
 * Teleporter events logged on it (`teleporter.ts`); a message is its send on the source chain
 * paired, by message id and the two blockchain ids, with its receive on the destination chain.
 * Nothing is stored here: every answer is read from the chains' indexers as they are now, so a
 * revert or reorg of either chain (which truncates that chain's records) is seen at once — a
 * delivered message whose receive was reverted is pending again.
 */

/** One indexed EVM chain: its 32-byte blockchain id (`0x` hex, lower case) and its indexer. */
export type IcmChain = { blockchainId: Hex; indexer: EvmIndexer }

/**
 * The hosted API's statuses: `pending` (sent, not received yet), `delivered` (sent and received),
 * `delivered_source_not_indexed` (received from a chain this network does not index, or whose
 * send it has no record of).
 */
export type IcmStatus = 'pending' | 'delivered' | 'delivered_source_not_indexed'

export type IcmMessageView = {
  messageId: Hex
  status: IcmStatus
  sourceBlockchainId: Hex
  destinationBlockchainId: Hex
  /** The messenger that logged the send (or, without one, the receive). */
  messenger: Hex
  /** The message as the send carried it (the receive's copy without a send). */
  message: TeleporterMessage
  source?: { chain: IcmChain; record: Extract<TeleporterRecord, { kind: 'send' }> }
  destination?: { chain: IcmChain; record: Extract<TeleporterRecord, { kind: 'receive' }> }
  /** A `MessageExecuted` for it on the destination chain (at delivery or on a retry). */
  executed: boolean
  /** A `ReceiptReceived` for it on the source chain: a message back carried its receipt. */
  receiptDelivered: boolean
  /** The fee: the send's, or the last `AddFeeAmount` total on the source chain; none without a send. */
  feeInfo?: TeleporterFeeInfo
}

export type IcmQuery = {
  sourceBlockchainId?: Hex
  destinationBlockchainId?: Hex
  /** Either end. */
  blockchainId?: Hex
  /** The origin sender. */
  from?: Hex
  /** The destination address. */
  to?: Hex
  /** The origin sender or the destination address. */
  address?: Hex
  cursor?: string
  pageSize: number
}

type Send = Extract<TeleporterRecord, { kind: 'send' }>
type Receive = Extract<TeleporterRecord, { kind: 'receive' }>

const chainOf = (chains: readonly IcmChain[], id: Hex) => chains.find((c) => c.blockchainId === id)

function receiveOf(chains: readonly IcmChain[], send: Send, source: IcmChain): { chain: IcmChain; record: Receive } | undefined {
  const chain = chainOf(chains, send.remoteBlockchainId)
  const record = chain?.indexer.teleporterMessagesById(send.messageId).find((r): r is Receive => r.kind === 'receive' && r.remoteBlockchainId === source.blockchainId)
  return chain && record ? { chain, record } : undefined
}

function sendOf(chains: readonly IcmChain[], receive: Receive, destination: IcmChain): { chain: IcmChain; record: Send } | undefined {
  const chain = chainOf(chains, receive.remoteBlockchainId)
  const record = chain?.indexer.teleporterMessagesById(receive.messageId).find((r): r is Send => r.kind === 'send' && r.remoteBlockchainId === destination.blockchainId)
  return chain && record ? { chain, record } : undefined
}

function sentView(chains: readonly IcmChain[], chain: IcmChain, send: Send): IcmMessageView {
  const destination = receiveOf(chains, send, chain)
  const executed = destination?.chain.indexer.teleporterOutcomes(send.messageId).some((o) => o.kind === 'executed' && o.remoteBlockchainId === chain.blockchainId) ?? false
  const outcomes = chain.indexer.teleporterOutcomes(send.messageId)
  const receiptDelivered = outcomes.some((o) => o.kind === 'receiptReceived' && o.remoteBlockchainId === send.remoteBlockchainId)
  const raised = outcomes.filter((o) => o.kind === 'feeAdded' && o.messenger === send.messenger).at(-1)
  return {
    messageId: send.messageId,
    status: destination ? 'delivered' : 'pending',
    sourceBlockchainId: chain.blockchainId,
    destinationBlockchainId: send.remoteBlockchainId,
    messenger: send.messenger,
    message: send.message,
    source: { chain, record: send },
    ...(destination ? { destination } : {}),
    executed,
    receiptDelivered,
    feeInfo: raised?.kind === 'feeAdded' ? raised.feeInfo : send.feeInfo,
  }
}

function unsourcedView(chain: IcmChain, receive: Receive): IcmMessageView {
  return {
    messageId: receive.messageId,
    status: 'delivered_source_not_indexed',
    sourceBlockchainId: receive.remoteBlockchainId,
    destinationBlockchainId: chain.blockchainId,
    messenger: receive.messenger,
    message: receive.message,
    destination: { chain, record: receive },
    executed: chain.indexer.teleporterOutcomes(receive.messageId).some((o) => o.kind === 'executed' && o.remoteBlockchainId === receive.remoteBlockchainId),
    receiptDelivered: false,
  }
}

/** The message a send or an unpaired receive stands for; undefined for a receive whose send is indexed (the send stands for it). */
function viewOf(chains: readonly IcmChain[], chain: IcmChain, record: TeleporterRecord): IcmMessageView | undefined {
  if (record.kind === 'send') return sentView(chains, chain, record)
  return sendOf(chains, record, chain) ? undefined : unsourcedView(chain, record)
}

/** A message by id (`0x` hex): its send on any chain, else its receive. */
export function icmMessage(chains: readonly IcmChain[], messageId: Hex): IcmMessageView | undefined {
  let unsourced: IcmMessageView | undefined
  for (const chain of chains) {
    for (const record of chain.indexer.teleporterMessagesById(messageId)) {
      const view = viewOf(chains, chain, record)
      if (view?.source) return view
      unsourced ??= view
    }
  }
  return unsourced
}

/** Where a message is listed: the record that stands for it (its send, else its receive). */
type Key = { chain: number; timestamp: number; block: number; log: number }
const keyOf = (chains: readonly IcmChain[], view: IcmMessageView): Key => {
  const at = view.source ?? view.destination!
  return { chain: chains.indexOf(at.chain), timestamp: at.record.timestamp, block: at.record.blockNumber, log: at.record.logIndex }
}
/** Newest first: timestamp, then the chain's place in the network, then the log's place in its chain. */
const compare = (a: Key, b: Key): number => b.timestamp - a.timestamp || b.chain - a.chain || b.block - a.block || b.log - a.log

const ANCHOR_CHARS = 16
function formatCursor(chains: readonly IcmChain[], key: Key): string {
  const hash = chains[key.chain]!.indexer.block(key.block)?.hash ?? '0x'
  return `${key.timestamp}.${key.chain}.${key.block}.${key.log}.${hash.slice(2, 2 + ANCHOR_CHARS)}`
}
function parseCursor(chains: readonly IcmChain[], cursor: string): Key {
  const m = /^(0|[1-9][0-9]{0,15})\.(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,9})\.(0|[1-9][0-9]{0,6})\.([0-9a-f]{16})$/.exec(cursor)
  if (!m) throw new InvalidCursorError(cursor)
  const key = { timestamp: Number(m[1]), chain: Number(m[2]), block: Number(m[3]), log: Number(m[4]) }
  // The cursor's block must still be the one it was issued in: a revert of that chain invalidates it.
  if (chains[key.chain]?.indexer.block(key.block)?.hash.slice(2, 2 + ANCHOR_CHARS) !== m[5]) throw new StaleCursorError(cursor)
  return key
}

function matches(view: IcmMessageView, q: IcmQuery): boolean {
  const { message } = view
  if (q.sourceBlockchainId !== undefined && view.sourceBlockchainId !== q.sourceBlockchainId) return false
  if (q.destinationBlockchainId !== undefined && view.destinationBlockchainId !== q.destinationBlockchainId) return false
  if (q.blockchainId !== undefined && view.sourceBlockchainId !== q.blockchainId && view.destinationBlockchainId !== q.blockchainId) return false
  if (q.from !== undefined && message.originSenderAddress !== q.from) return false
  if (q.to !== undefined && message.destinationAddress !== q.to) return false
  if (q.address !== undefined && message.originSenderAddress !== q.address && message.destinationAddress !== q.address) return false
  return true
}

/**
 * Messages matching the query, newest first (by the timestamp of the block that logged the send,
 * or the receive of a message whose send is not indexed), paged by a cursor that names the last
 * message's block (with its hash, so a page token outlives no revert of that chain). Ids and
 * addresses in the query are lower-case hex.
 */
export function icmMessages(chains: readonly IcmChain[], q: IcmQuery): Page<IcmMessageView> {
  const after = q.cursor === undefined ? undefined : parseCursor(chains, q.cursor)
  const found: { view: IcmMessageView; key: Key }[] = []
  for (const chain of chains) {
    for (const record of chain.indexer.allTeleporterMessages()) {
      const view = viewOf(chains, chain, record)
      if (!view || !matches(view, q)) continue
      const key = keyOf(chains, view)
      if (after && compare(after, key) >= 0) continue
      found.push({ view, key })
    }
  }
  found.sort((a, b) => compare(a.key, b.key))
  const pageSize = Math.max(1, Math.floor(q.pageSize))
  const page = found.slice(0, pageSize)
  const items = page.map((f) => f.view)
  return found.length > pageSize ? { items, nextCursor: formatCursor(chains, page[page.length - 1]!.key) } : { items }
}
