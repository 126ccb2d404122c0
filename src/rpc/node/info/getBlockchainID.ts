import { NodeRpcError, defineNodeMethod } from '../types.js'
import { objectParams, str } from '../params.js'
import type { InfoContext } from './context.js'

/** `info.getBlockchainID({alias})`: the chain id an alias (or id) names on this node. */
export const getBlockchainID = defineNodeMethod(
  objectParams({ alias: str }),
  ({ alias }, ctx: InfoContext): { blockchainID: string } => {
    const id = ctx.node.lookupChain(alias)
    if (id === undefined) throw new NodeRpcError(`there is no ID with alias: ${alias}`)
    return { blockchainID: id }
  },
)
