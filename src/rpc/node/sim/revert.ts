import { defineNodeMethod, NodeRpcError } from '../types.js'
import { objectParams, uint64 } from '../params.js'
import { type SimContext } from './context.js'

/**
 * `sim.revert {id}`: back to a snapshot of `sim.snapshot` or `evm_snapshot`. As there, the
 * snapshot is used up, and so is every snapshot taken after it. An unknown id is refused (where
 * `evm_revert` answers false) and changes nothing.
 * @example sim.revert {"id":"1"} → {}
 */
export const revert = defineNodeMethod(objectParams({ id: uint64 }), async (args, ctx: SimContext) => {
  if (!(await ctx.network.revert(args.id))) throw new NodeRpcError(`snapshot ${args.id} does not exist (a revert to it or to an earlier snapshot used it up, or a reset cleared it)`)
  return {}
})
