/**
 * `eth_subscribe` / `eth_unsubscribe` over WebSocket, as coreth's fork of go-ethereum serves them
 * (avalanchego `graft/evm/rpc/{handler,subscription,json}.go`, `graft/coreth/eth/filters/api.go`).
 * A subscription is a listener on the chain's typed events; its notifications are written through
 * the connection's {@link SubscriptionRegistry}. Over HTTP there is no registry and `eth_subscribe`
 * fails with geth's `notifications not supported` (-32601).
 */
import { randomBytes } from 'node:crypto'
import type { EvmChain } from '../evm/chain.js'
import type { EthContext, SubscriptionHost, SubscriptionStart } from './context.js'
import { encodeJSON, type RpcMethod } from './dispatcher.js'
import { InvalidParamsError, NotificationsUnsupportedError, RpcServerError, SubscriptionNotFoundError } from './errors.js'
import { formatHeader, formatLog, formatTransaction } from './formatters.js'
import { checkAcceptedLogsRange, logFilter, matchesLogFilter, type LogFilter } from './methods/logFilter.js'
import {
  bool,
  createParser,
  jsonKind,
  optional,
  tuple,
  UnmarshalTypeError,
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
      checkAcceptedLogsRange(filter as LogFilter)
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
