import { defineNodeMethod } from '../types.js'
import { array, objectParams, optional, str, struct, uint32, uint64 } from '../params.js'
import { issue, signerOf, walletsOf, type SimContext } from './context.js'

/** `sim.convertSubnetToL1 {subnetID, chainID, address, validators: [{node, weight, balance}], account?}`: a ConvertSubnetToL1Tx with simulated nodes as the initial L1 validators (weights, fee balances in nAVAX); returns each validation id. */
export const convertSubnetToL1 = defineNodeMethod(objectParams({ subnetID: str, chainID: str, address: str, validators: array(struct({ node: uint32, weight: uint64, balance: uint64 })), account: optional(uint32) }), async (args, ctx: SimContext) => {
  const { p } = walletsOf(ctx, args.account)
  const validators = args.validators.map((v) => ({ node: signerOf(ctx, v.node), weight: v.weight, balance: v.balance }))
  const r = issue(() => p.convertSubnetToL1({ subnetId: args.subnetID, chainId: args.chainID, address: (args.address || '0x') as `0x${string}`, validators }))
  return { txID: r.txId, height: r.height, validators: r.validators.map((v) => ({ nodeID: v.nodeId, validationID: v.validationId })) }
})
