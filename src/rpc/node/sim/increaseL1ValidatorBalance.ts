import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32, uint64 } from '../params.js'
import { issue, walletsOf, type SimContext } from './context.js'

/** `sim.increaseL1ValidatorBalance {validationID, amount, account?}`: tops up an L1 validator's fee balance (nAVAX); an inactive validator becomes active again. */
export const increaseL1ValidatorBalance = defineNodeMethod(objectParams({ validationID: str, amount: uint64, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const r = issue(() => p.increaseL1ValidatorBalance({ validationId: args.validationID, amount: args.amount }))
  return { txID: r.txId, height: r.height }
})
