import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32, uint64 } from '../params.js'
import { issue, walletsOf, type SimContext } from './context.js'

/** `sim.addDelegator {nodeID, stake, duration, account?}`: an AddPermissionlessDelegatorTx to a current primary validator, starting now. */
export const addDelegator = defineNodeMethod(objectParams({ nodeID: str, stake: uint64, duration: uint64, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const end = ctx.network.clock.now() + Number(args.duration)
  const r = issue(() => p.addDelegator({ nodeId: args.nodeID, stake: args.stake, end }))
  return { txID: r.txId, height: r.height }
})
