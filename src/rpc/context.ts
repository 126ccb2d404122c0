import type { EvmChain } from '../evm/chain.js'
import type { Network } from '../network/network.js'

/**
 * What a subscription sends through: it hands each result to `notify`, which wraps it in the
 * `eth_subscription` envelope of its connection.
 */
export type SubscriptionNotify = (result: unknown) => void

/**
 * Installs a subscription's listeners and returns the function that removes them. It runs once,
 * when `eth_subscribe` succeeds; the teardown runs on `eth_unsubscribe` or when the connection
 * closes, whichever comes first.
 */
export type SubscriptionStart = (notify: SubscriptionNotify) => () => void

/**
 * The subscriptions of one connection, as one call sees them. Only a WebSocket connection has
 * one: over HTTP `ctx.subscriptions` is undefined and `eth_subscribe` answers as geth does
 * (`notifications not supported`). Notifications of a subscription made by a call are held back
 * until that call's response is written, as geth's notifier does.
 */
export type SubscriptionHost = {
  /** Starts a subscription and returns its id (`0x` + hex, a quantity as geth writes it). */
  subscribe(start: SubscriptionStart): string
  /** Ends the subscription `id` of this connection; false when there is none. */
  unsubscribe(id: string): boolean
}

/** What every eth-dialect method receives: the network, the chain the URL named, the connection's subscriptions. */
export type EthContext = {
  network: Network
  chain: EvmChain
  subscriptions?: SubscriptionHost
}
