import { InvalidArgumentError } from '../../../core/errors.js'
import { defineNodeMethod, NodeRpcError } from '../types.js'
import { objectParams, str } from '../params.js'
import { type SimContext } from './context.js'
import { deliveryJson } from './relayerView.js'

/** `sim.setRelayerMode {mode}`: `auto`, `manual`, `delay=<N>s` or `delay=<N>blocks`; the messages due under it go at once (returned). */
export const setRelayerMode = defineNodeMethod(objectParams({ mode: str }), async (args, ctx: SimContext) => {
  try {
    return { deliveries: (await ctx.network.relayer.setMode(args.mode)).map(deliveryJson) }
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new NodeRpcError(error.shortMessage)
    throw error
  }
})
