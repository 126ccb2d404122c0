import { NotFoundError } from '../../../core/errors.js'
import type { Hex } from '../../../core/hex.js'
import { defineNodeMethod, NodeRpcError } from '../types.js'
import { objectParams, optional, str } from '../params.js'
import { type SimContext } from './context.js'
import { deliveryJson } from './relayerView.js'

/** `sim.relayMessages {messageID?}`: delivers one pending ICM message (by Teleporter message id), or all of them, whatever the relayer's mode; returns the attempts. */
export const relayMessages = defineNodeMethod(objectParams({ messageID: optional(str) }), async (args, ctx: SimContext) => {
  const relayer = ctx.network.relayer
  try {
    const attempts = args.messageID ? await relayer.relay(args.messageID as Hex) : await relayer.relayAll()
    return { deliveries: attempts.map(deliveryJson) }
  } catch (error) {
    if (error instanceof NotFoundError) throw new NodeRpcError(error.shortMessage)
    throw error
  }
})
