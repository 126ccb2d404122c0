import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { txFees } from '../../../evm/pool.js'
import { groupBySender, poolContent } from './content.js'

/** Serves `txpool_inspect`: geth's one-line summaries (`to: value wei + gas gas × price wei`). */
export const txpool_inspect = defineEthMethod(
  tuple(),
  async (_params, ctx) => {
    const { pending, queued } = await poolContent(ctx.chain)
    const format = groupBySender(({ tx }) => {
      const to = tx.to ? tx.to.toString() : 'contract creation'
      return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${txFees(tx).feeCap} wei`
    })
    return { pending: format(pending), queued: format(queued) }
  },
)
