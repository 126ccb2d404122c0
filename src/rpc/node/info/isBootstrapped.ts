import { NodeRpcError, defineNodeMethod } from '../types.js'
import { objectParams, str } from '../params.js'
import type { InfoContext } from './context.js'

/** `info.isBootstrapped({chain})`: chain by alias or id. */
export const isBootstrapped = defineNodeMethod(
  objectParams({ chain: str }),
  ({ chain }, ctx: InfoContext): { isBootstrapped: boolean } => {
    if (chain === '') throw new NodeRpcError("argument 'chain' not given")
    const id = ctx.node.lookupChain(chain)
    if (id === undefined) throw new NodeRpcError(`there is no chain with alias/ID '${chain}'`)
    return { isBootstrapped: ctx.node.isBootstrapped(id) }
  },
)
