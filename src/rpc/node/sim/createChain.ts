import { defineNodeMethod } from '../types.js'
import { objectParams, optional, str, uint32 } from '../params.js'
import { issue, walletsOf, type SimContext } from './context.js'
import { SUBNET_EVM_ID } from '../../../network/version.js'

/** `sim.createChain {subnetID, name, vmID?, genesisData, account?}`: a CreateChainTx on a subnet the account owns (subnet-EVM by default; `genesisData` is the genesis JSON text). A subnet-EVM chain starts running and is served at /ext/bc/<blockchainID>/rpc. */
export const createChain = defineNodeMethod(objectParams({ subnetID: str, name: str, vmID: optional(str), genesisData: str, account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const vmId = args.vmID || SUBNET_EVM_ID
  const r = issue(() => p.createChain({ subnetId: args.subnetID, name: args.name, vmId, genesis: args.genesisData }))
  await ctx.network.startChainFromP(r.blockchainId)
  return { txID: r.txId, height: r.height, blockchainID: r.blockchainId }
})
