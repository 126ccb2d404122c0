import { defineNodeMethod } from '../types.js'
import { objectParams, optional, uint32, uint64 } from '../params.js'
import { issue, signerOf, walletsOf, type SimContext } from './context.js'

/** `sim.addValidator {stake, duration, node?, delegationFee?, account?}`: an AddPermissionlessValidatorTx on the primary network for a simulated node (`node`) or a fresh identity, starting now; returns the tx id, block height and NodeID. */
export const addValidator = defineNodeMethod(objectParams({ stake: uint64, duration: uint64, node: optional(uint32), delegationFee: optional(uint32), account: optional(uint32) }), async (args, ctx: SimContext) => {
  const signer = signerOf(ctx, args.node)
  const { p } = walletsOf(ctx, args.account)
  const end = ctx.network.clock.now() + Number(args.duration)
  const r = issue(() => p.addValidator({ node: signer, stake: args.stake, end, ...(args.delegationFee !== undefined ? { delegationFee: args.delegationFee } : {}) }))
  return { txID: r.txId, height: r.height, nodeID: signer.nodeId }
})
