import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32 } from '../params.js'
import { issue, walletsOf, type SimContext } from './context.js'

/** `sim.disableL1Validator {validationID, account?}`: a DisableL1ValidatorTx signed by the deactivation owner; the remaining balance goes to its owner. */
export const disableL1Validator = defineNodeMethod(objectParams({ validationID: str, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const r = issue(() => p.disableL1Validator({ validationId: args.validationID }))
  return { txID: r.txId, height: r.height }
})
