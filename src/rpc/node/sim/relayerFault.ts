import { NotFoundError } from '../../../core/errors.js'
import type { Hex } from '../../../core/hex.js'
import { defineNodeMethod, NodeRpcError } from '../types.js'
import { objectParams, optional, str, strArray } from '../params.js'
import { type SimContext } from './context.js'
import { deliveryJson } from './relayerView.js'

/**
 * `sim.relayerFault {fault, messageID?, order?}`: `drop` (the next delivery, or the next of
 * `messageID`, is never sent), `duplicate` (it is sent twice), `reorder` (the `order` message ids
 * first, the rest after; reversed without `order`), `clear` (forgets faults not used yet). Returns
 * the pending messages.
 */
export const relayerFault = defineNodeMethod(objectParams({ fault: str, messageID: optional(str), order: optional(strArray) }), async (args, ctx: SimContext) => {
  const relayer = ctx.network.relayer
  const id = args.messageID ? (args.messageID as Hex) : undefined
  try {
    if (args.fault === 'drop') relayer.dropNext(id)
    else if (args.fault === 'duplicate') relayer.duplicateNext(id)
    else if (args.fault === 'reorder') relayer.reorder(args.order?.length ? (args.order as Hex[]) : undefined)
    else if (args.fault === 'clear') relayer.clearFaults()
    else throw new NodeRpcError(`unknown relayer fault ${JSON.stringify(args.fault)} (drop, duplicate, reorder, clear)`)
  } catch (error) {
    if (error instanceof NotFoundError) throw new NodeRpcError(error.shortMessage)
    throw error
  }
  return { pending: relayer.pending().map(deliveryJson) }
})
