import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32, uint64 } from '../params.js'
import { issue, walletsOf, type SimContext } from './context.js'

/** `sim.setL1ValidatorWeight {validationID, weight, account?}`: a SetL1ValidatorWeightTx (weight 0 removes the validator). */
export const setL1ValidatorWeight = defineNodeMethod(objectParams({ validationID: str, weight: uint64, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const r = issue(() => p.setL1ValidatorWeight({ validationId: args.validationID, weight: args.weight }))
  return { txID: r.txId, height: r.height }
})
