import { defineNodeMethod } from '../types.js'
import { objectParams } from '../params.js'
import { type SimContext } from './context.js'

/**
 * `sim.snapshot {}`: a snapshot of the whole network (every chain, the P- and X-chain state, the
 * validator sets and the clock). Its id is the one `evm_snapshot` counts with (`"3"` here is
 * `0x3` there), a decimal string as avalanchego writes a `json.Uint64`.
 * @example sim.snapshot {} → {"id":"1"}
 */
export const snapshot = defineNodeMethod(objectParams({}), async (_args, ctx: SimContext) => {
  return { id: (await ctx.network.snapshot()).toString() }
})
