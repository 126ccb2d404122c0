import { cb58Id, objectParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

/** `GetTxStatusResponse`: `reason` only for a dropped tx (omitempty). */
export type GetTxStatusResult = { status: 'Committed' | 'Aborted' | 'Processing' | 'Dropped' | 'Unknown'; reason?: string }

/**
 * `platform.getTxStatus({txID})`: `Committed` / `Aborted` (a reward tx whose abort block was
 * accepted) for an accepted tx, `Processing` while it waits in the mempool (the manual build mode),
 * else `Dropped` with the mempool's reason (the refusal it was issued with, or `standard tx <id>
 * failed execution: …` when its block refused it), else `Unknown`.
 */
export const getTxStatus = defineNodeMethod(objectParams({ txID: cb58Id }), ({ txID }, ctx: PlatformContext): GetTxStatusResult => {
  const stored = ctx.pchain.state.getTx(txID)
  if (stored) return { status: stored.status }
  if (ctx.pchain.mempool.has(txID)) return { status: 'Processing' }
  // dropped txs may be issued again: their reason is read after the state and the mempool
  const reason = ctx.dropReason ? ctx.dropReason(txID) : ctx.pchain.mempool.dropReason(txID)
  if (reason === undefined) return { status: 'Unknown' }
  return reason === '' ? { status: 'Dropped' } : { status: 'Dropped', reason }
})
