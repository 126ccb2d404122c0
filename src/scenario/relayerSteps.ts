/**
 * The scenario steps that drive the built-in ICM relayer: `relayer` (its mode, and faults on its
 * next deliveries: drop, duplicate, reorder) and `deliver` (the pending Teleporter messages a step's
 * transaction sent, or all of them, whatever the mode). A delivery that fails fails the step; a
 * dropped one or a duplicate's revert is what the step asked for.
 */
import { InvalidStateError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import type { Network } from '../network/network.js'
import type { IcmDelivery } from '../network/relayer.js'
import type { ScenarioContext } from './context.js'
import type { StepBodies } from './document.js'

/** The pending messages a named step's transaction sent. */
function messagesOf(network: Network, ctx: ScenarioContext, step: string): Hex[] {
  const tx = ctx.refs.txs[step]
  if (!tx) throw new InvalidStateError(`step ${step} sent no transaction`)
  const ids = network.relayer.pending().filter((p) => p.sourceTxHash === tx.hash.toLowerCase()).map((p) => p.messageId)
  if (ids.length === 0) throw new InvalidStateError(`step ${step} has no ICM message waiting for delivery`)
  return ids
}

export async function relayerStep(network: Network, ctx: ScenarioContext, body: StepBodies['relayer']): Promise<void> {
  const relayer = network.relayer
  for (let i = 0; i < (body.drop ?? 0); i++) relayer.dropNext()
  for (let i = 0; i < (body.duplicate ?? 0); i++) relayer.duplicateNext()
  if (body.reorder) relayer.reorder(body.reorder.flatMap((ref) => messagesOf(network, ctx, ref.name)))
  if (body.mode !== undefined) await relayer.setMode(body.mode)
  await relayer.settled()
}

export async function deliverStep(network: Network, ctx: ScenarioContext, body: StepBodies['deliver']): Promise<void> {
  const relayer = network.relayer
  const attempts: IcmDelivery[] = []
  if (body === 'all') attempts.push(...(await relayer.relayAll()))
  else for (const id of messagesOf(network, ctx, body.message.name)) attempts.push(...(await relayer.relay(id)))
  await relayer.settled()
  const failed = attempts.find((a) => a.status === 'failed' || (a.status === 'reverted' && !a.duplicate))
  if (failed) throw new InvalidStateError(`ICM message ${failed.messageId} was not delivered: ${failed.error ?? failed.revertReason ?? failed.status}`)
}
