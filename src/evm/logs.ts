import type { Hex } from '../core/hex.js'
import type { EvmChain } from './chain.js'
import type { LogEntry, StoredBlock } from './types.js'

/** A log query: addresses (any of), topics by position (null = any; array = any of). */
export type LogCriteria = {
  addresses: Hex[]
  topics: (Hex[] | null)[]
}

export function matchLog(log: LogEntry, criteria: LogCriteria): boolean {
  if (criteria.addresses.length > 0 && !criteria.addresses.includes(log.address)) return false
  if (criteria.topics.length > log.topics.length) return false
  for (let i = 0; i < criteria.topics.length; i++) {
    const wanted = criteria.topics[i]
    if (wanted && wanted.length > 0 && !wanted.includes(log.topics[i]!)) return false
  }
  return true
}

export function blockLogs(block: StoredBlock, criteria: LogCriteria): LogEntry[] {
  const out: LogEntry[] = []
  for (const tx of block.txs) for (const log of tx.receipt.logs) if (matchLog(log, criteria)) out.push(log)
  return out
}

/** Logs of blocks `from..to` inclusive that match; blocks without any logs are skipped cheaply. */
export function queryLogs(chain: EvmChain, from: bigint, to: bigint, criteria: LogCriteria): LogEntry[] {
  const out: LogEntry[] = []
  for (const block of chain.store.range(from, to)) {
    if (block.txs.length === 0) continue
    out.push(...blockLogs(block, criteria))
  }
  return out
}
