import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { tuple } from '../../params.js'
import { poolContent } from './content.js'

/** Serves `txpool_status`: counts of executable (pending) and nonce-gapped (queued) transactions. */
export const txpool_status = defineEthMethod(
  tuple(),
  async (_params, ctx) => {
    const { pending, queued } = await poolContent(ctx.chain)
    return { pending: toQuantity(pending.length), queued: toQuantity(queued.length) }
  },
)
