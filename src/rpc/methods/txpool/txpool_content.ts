import { defineEthMethod } from '../define.js'
import { formatTransaction } from '../../formatters.js'
import { tuple } from '../../params.js'
import { groupBySender, poolContent } from './content.js'

/** Serves `txpool_content`: pool transactions by sender and nonce, in geth's shape. */
export const txpool_content = defineEthMethod(
  tuple(),
  async (_params, ctx) => {
    const { pending, queued } = await poolContent(ctx.chain)
    const format = groupBySender((e) => formatTransaction(ctx.chain, e.tx, e.from))
    return { pending: format(pending), queued: format(queued) }
  },
)
