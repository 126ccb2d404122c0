import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32, uint64 } from '../params.js'
import { type SimContext } from './context.js'

/** `sim.transfer {from, to, amount, account?}`: moves `amount` nAVAX of the account's AVAX between P, X and C (export on `from`, import on `to`); returns both tx ids. */
export const transfer = defineNodeMethod(objectParams({ from: str, to: str, amount: uint64, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const result = await ctx.network.transfer({ from: args.from, to: args.to, amount: args.amount, account: args.account ?? 0 })
  return { exportTxID: result.exportTxId, importTxID: result.importTxId }
})
