import { cb58Id, objectParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

/** `GetTxStatusResponse`: `reason` only for a dropped tx (omitempty). */
export type GetTxStatusResult = { status: 'Committed' | 'Aborted' | 'Processing' | 'Dropped' | 'Unknown'; reason?: string }

/**
 * `platform.getTxStatus({txID})`: `Committed` / `Aborted` (a reward tx whose abort block was
 * accepted) for an accepted tx, else `Dropped` with the mempool's reason when the context knows
 * one, else `Unknown`. (l1sim accepts a tx when it is issued, so nothing is ever `Processing`.)
 */
export const getTxStatus = defineNodeMethod(objectParams({ txID: cb58Id }), ({ txID }, ctx: PlatformContext): GetTxStatusResult => {
  const stored = ctx.pchain.state.getTx(txID)
  if (stored) return { status: stored.status }
  const reason = ctx.dropReason?.(txID)
  if (reason === undefined) return { status: 'Unknown' }
  return reason === '' ? { status: 'Dropped' } : { status: 'Dropped', reason }
})
