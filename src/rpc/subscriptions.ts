/**
 * `eth_subscribe` / `eth_unsubscribe` over WebSocket, as coreth's fork of go-ethereum serves them
 * (avalanchego `graft/evm/rpc/{handler,subscription,json}.go`, `graft/coreth/eth/filters/api.go`).
 * A subscription is a listener on the chain's typed events; its notifications are written through
 * the connection's {@link SubscriptionRegistry}. Over HTTP there is no registry and `eth_subscribe`
 * fails with geth's `notifications not supported` (-32601).
 */
import { randomBytes } from 'node:crypto'
import type { EvmChain } from '../evm/chain.js'
import { matchLog, type LogCriteria } from '../evm/logs.js'
import type { LogEntry } from '../evm/types.js'
import type { Hex } from '../core/hex.js'
import type { EthContext, SubscriptionHost, SubscriptionStart } from './context.js'
import { encodeJSON, type RpcMethod } from './dispatcher.js'
import { InvalidParamsError, NotificationsUnsupportedError, RpcServerError, SubscriptionNotFoundError } from './errors.js'
import { formatHeader, formatLog, formatTransaction } from './formatters.js'
import {
  any,
  array,
  blockNumber,
  bool,
  createParser,
  hash32,
  jsonKind,
  object,
  optional,
  tuple,
  UnmarshalTypeError,
  type BlockNumber,
} from './params.js'

// --- the registry of one connection ---

export type SubscriptionRegistryOptions = {
  /** Writes one text frame to the connection. */
  send: (text: string) => void
  /** The namespace of the notifications' method (`eth` → `eth_subscription`). */
  namespace?: string
  /** Source of the 16 random id bytes; node's CSPRNG by default (geth seeds math/rand from crypto/rand). */
  randomBytes?: (size: number) => Uint8Array
}

/** One call's view of the registry: what it subscribed is activated after its response is written. */
export type SubscriptionCall = SubscriptionHost & {
  /** Sends the notifications held back while the call ran, then sends the rest as they come. */
  activate(): void
}

export type SubscriptionRegistry = {
  /** A host for one incoming message, to pass as `ctx.subscriptions`. */
  forCall(): SubscriptionCall
  /** Ends every subscription (the connection closed); later notifications are dropped. */
  close(): void
  /** Live subscriptions. */
  readonly size: number
}

type Subscription = {
  id: string
  stop: () => void
  /** Notifications held until the subscribing call's response is out, or null once active. */
  buffer: unknown[] | null
}

/**
 * The subscriptions of one WebSocket connection. Notifications are written as geth's
 * `jsonrpcSubscriptionNotification`: `{"jsonrpc":"2.0","method":"eth_subscription","params":
 * {"subscription":id,"result":…}}` and a newline, as Go's json.Encoder ends every frame.
 */
export function createSubscriptionRegistry(options: SubscriptionRegistryOptions): SubscriptionRegistry {
  const method = `${options.namespace ?? 'eth'}_subscription`
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(randomBytes(size)))
  const live = new Map<string, Subscription>()
  let closed = false

  const write = (sub: Subscription, result: unknown) => {
    options.send(`{"jsonrpc":"2.0","method":"${method}","params":{"subscription":${encodeJSON(sub.id)},"result":${encodeJSON(result)}}}\n`)
  }

  const newId = () => {
    for (;;) {
      const id = encodeSubscriptionId(random(16))
      if (!live.has(id)) return id
    }
  }

  return {
    forCall() {
      const mine: Subscription[] = []
      return {
        subscribe(start: SubscriptionStart) {
          const sub: Subscription = { id: newId(), stop: () => undefined, buffer: [] }
          if (closed) return sub.id
          live.set(sub.id, sub)
          mine.push(sub)
          sub.stop = start((result) => {
            if (!live.has(sub.id)) return
            if (sub.buffer) sub.buffer.push(result)
            else write(sub, result)
          })
          return sub.id
        },
        unsubscribe(id: string) {
          const sub = live.get(id)
          if (!sub) return false
          live.delete(id)
          sub.stop()
          return true
        },
        activate() {
          for (const sub of mine.splice(0)) {
            const held = sub.buffer ?? []
            sub.buffer = null
            if (live.has(sub.id)) for (const result of held) write(sub, result)
          }
        },
      }
    },
    close() {
      closed = true
      for (const sub of live.values()) sub.stop()
      live.clear()
    },
    get size() {
      return live.size
    },
  }
}

/** rpc.encodeID: hex of the random bytes without leading zeros, as a quantity (`0x0` at worst). */
export function encodeSubscriptionId(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString('hex').replace(/^0+/, '')
  return `0x${hex === '' ? '0' : hex}`
}

// --- log filters: filters.FilterCriteria and filterLogs ---

/** A decoded `filters.FilterCriteria`: the block range and what a log must match. */
export type LogFilter = {
  blockHash?: Hex
  fromBlock?: BlockNumber
  toBlock?: BlockNumber
  criteria: LogCriteria
}

/** coreth's `maxAddresses`. */
const MAX_ADDRESSES = 1000

const filterInput = object('filters.input', {
  blockHash: optional(hash32),
  fromBlock: optional(blockNumber),
  toBlock: optional(blockNumber),
  address: any,
  topics: array(any),
})

/**
 * `filters.FilterCriteria.UnmarshalJSON`, with its messages: a single address or a list, topics
 * as a list of `null` (any), a hash, or a list of hashes where a `null` member makes the whole
 * position match anything.
 */
export const logFilter = createParser<LogFilter>('filters.FilterCriteria', (raw) => {
  const input = filterInput(raw)
  const addresses: Hex[] = []
  const topics: (Hex[] | null)[] = []
  const out: LogFilter = { criteria: { addresses, topics } }
  if (input.blockHash !== undefined) {
    if (input.fromBlock !== undefined || input.toBlock !== undefined)
      throw new InvalidParamsError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    out.blockHash = input.blockHash
  } else {
    out.fromBlock = input.fromBlock
    out.toBlock = input.toBlock
  }
  const address = input.address
  if (Array.isArray(address)) {
    if (address.length > MAX_ADDRESSES) throw new InvalidParamsError('exceed max addresses')
    for (const [i, item] of address.entries()) {
      if (typeof item !== 'string') throw new InvalidParamsError(`non-string address at index ${i}`)
      addresses.push(decodeFixedHex(item, 20, 'address', (m) => `invalid address at index ${i}: ${m}`))
    }
  } else if (typeof address === 'string') {
    addresses.push(decodeFixedHex(address, 20, 'address', (m) => `invalid address: ${m}`))
  } else if (address !== undefined && address !== null) {
    throw new InvalidParamsError('invalid addresses in query')
  }
  for (const topic of input.topics ?? []) {
    if (topic === null) topics.push(null)
    else if (typeof topic === 'string') topics.push([decodeFixedHex(topic, 32, 'topic', (m) => m)])
    else if (Array.isArray(topic)) topics.push(topicAlternatives(topic))
    else throw new InvalidParamsError('invalid topic(s)')
  }
  return out
})

function topicAlternatives(list: unknown[]): Hex[] | null {
  const hashes: Hex[] = []
  for (const item of list) {
    // geth breaks out of the loop at the first null: the position matches anything.
    if (item === null) return null
    if (typeof item !== 'string') throw new InvalidParamsError('invalid topic(s)')
    hashes.push(decodeFixedHex(item, 32, 'topic', (m) => m))
  }
  return hashes
}

/** hexutil.Decode plus the length check of filters' `decodeAddress` / `decodeTopic`. */
function decodeFixedHex(text: string, bytes: number, what: string, wrap: (message: string) => string): Hex {
  const fail = (message: string) => new InvalidParamsError(wrap(message))
  if (text === '') throw fail('empty hex string')
  if (text[0] !== '0' || (text[1] !== 'x' && text[1] !== 'X')) throw fail('hex string without 0x prefix')
  const digits = text.slice(2)
  // Go's hex.Decode reports a bad character before an odd length.
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw fail('invalid hex string')
  if (digits.length % 2 !== 0) throw fail('hex string of odd length')
  if (digits.length !== bytes * 2)
    throw fail(`hex has invalid length ${digits.length / 2} after decoding; expected ${bytes} for ${what}`)
  return `0x${digits.toLowerCase()}`
}

/** rpc.BlockNumber as an int64, as the event system compares them. */
function blockNumberValue(n: BlockNumber | undefined): bigint {
  switch (n) {
    case undefined:
    case 'latest':
      return -2n
    case 'safe':
      return -4n
    case 'finalized':
      return -3n
    case 'pending':
      return -1n
    default:
      return n
  }
}

/** `SubscribeAcceptedLogs`: the from/to combinations a logs subscription accepts. */
function checkSubscriptionRange(filter: LogFilter): void {
  const from = blockNumberValue(filter.fromBlock)
  const to = blockNumberValue(filter.toBlock)
  const pending = -1n
  const latest = -2n
  const ok =
    (from === pending && to === pending) ||
    (from === latest && to === latest) ||
    (from >= 0n && to >= 0n && to >= from) ||
    (from >= latest && to === pending) ||
    (from >= 0n && to === latest)
  if (!ok) throw new RpcServerError('invalid from and to block combination: from > to')
}

/** filters' `filterLogs` for one log: the block range (numbers only), then addresses and topics. */
export function matchesLogFilter(filter: LogFilter, log: LogEntry): boolean {
  const from = blockNumberValue(filter.fromBlock)
  const to = blockNumberValue(filter.toBlock)
  if (filter.fromBlock !== undefined && from >= 0n && from > log.blockNumber) return false
  if (filter.toBlock !== undefined && to >= 0n && to < log.blockNumber) return false
  return matchLog(log, filter.criteria)
}

// --- the subscription kinds: FilterAPI.NewHeads, Logs, NewPendingTransactions ---

type Kind = {
  params: (raw: unknown[]) => unknown[]
  start: (chain: EvmChain, args: unknown[]) => SubscriptionStart
}

/** `rpc.ID`, the argument of `eth_unsubscribe`. */
const subscriptionId = createParser('rpc.ID', (raw) => {
  if (raw === null) return ''
  if (typeof raw !== 'string') throw new UnmarshalTypeError(jsonKind(raw), 'rpc.ID', true)
  return raw
})

const name = createParser('string', (raw) => raw as string)

const KINDS: Record<string, Kind> = {
  newHeads: {
    params: tuple(name),
    start: (chain) => (notify) => chain.events.on('block', (stored) => notify(formatHeader(chain, stored))),
  },
  logs: {
    params: tuple(name, logFilter),
    start: (chain, [, filter]) => {
      checkSubscriptionRange(filter as LogFilter)
      return (notify) =>
        chain.events.on('logs', (logs) => {
          for (const log of logs) if (matchesLogFilter(filter as LogFilter, log)) notify(formatLog(log))
        })
    },
  },
  newPendingTransactions: {
    params: tuple(name, optional(bool)),
    start: (chain, [, fullTx]) => (notify) =>
      chain.events.on('pendingTransaction', ({ hash, tx, from }) => notify(fullTx ? formatTransaction(chain, tx, from) : hash)),
  },
}

/** rpc.parseSubscriptionName: the first member of the params array must be a string. */
function subscriptionName(raw: unknown): string {
  if (!Array.isArray(raw)) throw new InvalidParamsError('non-array args')
  if (typeof raw[0] !== 'string') throw new InvalidParamsError('expected subscription name as first argument')
  return raw[0]
}

/**
 * Serves `eth_subscribe` (WebSocket only). Checks run in geth's order: a connection without
 * notifications (HTTP) is refused before the params are read; then the name, the kind, the kind's
 * arguments, and for `logs` the block range.
 * @example eth_subscribe ["newHeads"] → "0x9cef478923ff08bf67fde6c64013158d"
 */
export const eth_subscribe: RpcMethod<unknown, string, EthContext> = {
  // Parsed in the handler: over HTTP geth answers `notifications not supported` whatever the params.
  params: (raw) => raw,
  handler: (raw, ctx) => {
    if (!ctx.subscriptions) throw new NotificationsUnsupportedError()
    const kindName = subscriptionName(raw)
    const kind = KINDS[kindName]
    if (!kind) throw new SubscriptionNotFoundError('eth', kindName)
    const start = kind.start(ctx.chain, kind.params(raw as unknown[]))
    return ctx.subscriptions.subscribe(start)
  },
}

/**
 * Serves `eth_unsubscribe`. Over HTTP, or for an id this connection does not hold, geth answers
 * `subscription not found` (-32000).
 * @example eth_unsubscribe ["0x9cef478923ff08bf67fde6c64013158d"] → true
 */
export const eth_unsubscribe: RpcMethod<[string], true, EthContext> = {
  params: tuple(subscriptionId),
  handler: ([id], ctx) => {
    if (!ctx.subscriptions?.unsubscribe(id)) throw new RpcServerError('subscription not found')
    return true
  },
}
