import { randomBytes } from 'node:crypto'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import { blockLogs } from '../evm/logs.js'
import type { LogEntry } from '../evm/types.js'
import { RpcServerError } from './errors.js'
import { matchesLogFilter, type LogFilter } from './methods/logFilter.js'
import { encodeSubscriptionId } from './subscriptions.js'

/** geth's filter timeout: a filter not polled for 5 minutes (network time) is removed. */
export const FILTER_TIMEOUT_SECONDS = 300

type Installed =
  | { kind: 'logs'; filter: LogFilter; pending: LogEntry[]; lastPolled: number }
  | { kind: 'blocks'; pending: Hex[]; lastPolled: number }
  | { kind: 'pendingTransactions'; pending: Hex[]; lastPolled: number }

/**
 * Polling filters (eth_newFilter & co.) of one chain. Changes accumulate from the chain's
 * events, so eth_getFilterChanges reads what arrived since the last poll without scanning.
 */
export class FilterRegistry {
  readonly #chain: EvmChain
  readonly #filters = new Map<Hex, Installed>()
  #listening = false

  constructor(chain: EvmChain) {
    this.#chain = chain
  }

  #listen(): void {
    if (this.#listening) return
    this.#listening = true
    this.#chain.events.on('block', (block) => {
      for (const f of this.#filters.values()) {
        if (f.kind === 'blocks') f.pending.push(block.hash)
        else if (f.kind === 'logs') for (const log of blockLogs(block, f.filter.criteria)) if (matchesLogFilter(f.filter, log)) f.pending.push(log)
      }
    })
    this.#chain.events.on('pendingTransaction', ({ hash }) => {
      for (const f of this.#filters.values()) if (f.kind === 'pendingTransactions') f.pending.push(hash)
    })
  }

  #expire(): void {
    const now = this.#chain.clock.now()
    for (const [id, f] of this.#filters) if (f.lastPolled + FILTER_TIMEOUT_SECONDS < now) this.#filters.delete(id)
  }

  install(filter: { kind: 'logs'; filter: LogFilter } | { kind: 'blocks' } | { kind: 'pendingTransactions' }): Hex {
    this.#expire()
    this.#listen()
    // geth's rpc.ID, the same form as a subscription id (hex quantity, no leading zeros).
    const id = encodeSubscriptionId(randomBytes(16)) as Hex
    const lastPolled = this.#chain.clock.now()
    this.#filters.set(id, filter.kind === 'logs' ? { ...filter, pending: [], lastPolled } : { ...filter, pending: [], lastPolled } as Installed)
    return id
  }

  get(id: Hex): Installed {
    this.#expire()
    const f = this.#filters.get(id.toLowerCase() as Hex)
    if (!f) throw new RpcServerError('filter not found')
    return f
  }

  /** What arrived since the last poll; resets the filter's buffer and timeout. */
  changes(id: Hex): Installed['pending'] {
    const f = this.get(id)
    const out = f.pending
    f.pending = []
    f.lastPolled = this.#chain.clock.now()
    return out
  }

  uninstall(id: Hex): boolean {
    return this.#filters.delete(id.toLowerCase() as Hex)
  }
}

const registries = new WeakMap<EvmChain, FilterRegistry>()

export function filtersOf(chain: EvmChain): FilterRegistry {
  let registry = registries.get(chain)
  if (!registry) registries.set(chain, (registry = new FilterRegistry(chain)))
  return registry
}
