import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

export type GetNodeIDResult = { nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } }

/** `info.getNodeID`: the node id and the BLS key with its proof of possession (`0x` hex). */
export const getNodeID = defineNodeMethod(noParams, (_params, ctx: InfoContext): GetNodeIDResult => ({
  nodeID: ctx.node.nodeId,
  nodePOP: { publicKey: ctx.node.identity.blsPublicKey, proofOfPossession: ctx.node.identity.proofOfPossession },
}))
