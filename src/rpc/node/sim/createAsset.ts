import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32, uint64 } from '../params.js'
import { issue, walletsOf, type SimContext } from './context.js'

/** `sim.createAsset {name, symbol, denomination, amount, account?}`: a CreateAssetTx on the X-chain with `amount` minted to the account; returns the asset id (the tx id). */
export const createAsset = defineNodeMethod(objectParams({ name: str, symbol: str, denomination: uint32, amount: uint64, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { x, address } = walletsOf(ctx, args.account)
  const r = issue(() => ctx.network.primary.xchain.issueTx(x.createAsset({ name: args.name, symbol: args.symbol, denomination: args.denomination, holders: [{ address, amount: args.amount }] })))
  return { txID: r.txId, height: r.height, assetID: r.txId }
})
