import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32 } from '../params.js'
import { issue, walletsOf, type SimContext } from './context.js'

/** `sim.createSubnet {account?}`: a CreateSubnetTx owned by the account; returns the subnet id (the tx id). */
export const createSubnet = defineNodeMethod(objectParams({ account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const r = issue(() => p.createSubnet())
  return { txID: r.txId, height: r.height, subnetID: r.subnetId }
})
