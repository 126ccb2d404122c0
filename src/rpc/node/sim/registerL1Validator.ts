import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32, uint64 } from '../params.js'
import { issue, signerOf, walletsOf, type SimContext } from './context.js'

/** `sim.registerL1Validator {subnetID, node?, weight, balance, account?}`: a RegisterL1ValidatorTx (the validator manager's warp message built for it) for a simulated node or a fresh identity. */
export const registerL1Validator = defineNodeMethod(objectParams({ subnetID: str, node: optional(uint32), weight: uint64, balance: uint64, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const signer = signerOf(ctx, args.node)
  const r = issue(() => p.registerL1Validator({ subnetId: args.subnetID, node: signer, weight: args.weight, balance: args.balance }))
  return { txID: r.txId, height: r.height, validationID: r.validationId, nodeID: signer.nodeId }
})
