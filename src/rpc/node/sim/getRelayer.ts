import { defineNodeMethod } from '../types.js'
import { objectParams } from '../params.js'
import { type SimContext } from './context.js'
import { deliveryJson } from './relayerView.js'

/** `sim.getRelayer {}`: the built-in ICM relayer: its account, messenger, mode, pending messages (in delivery order) and every delivery attempt. */
export const getRelayer = defineNodeMethod(objectParams({}), async (_args, ctx: SimContext) => {
  const relayer = ctx.network.relayer
  return {
    address: relayer.address,
    rewardAddress: relayer.rewardAddress,
    messenger: relayer.messenger,
    mode: relayer.mode,
    pending: relayer.pending().map(deliveryJson),
    deliveries: relayer.deliveries().map(deliveryJson),
  }
})
