import { defineEthMethod } from '../define.js'
import { data, tuple } from '../../params.js'
import { decodeRawTransaction, submitTransaction } from '../../../evm/send.js'

/**
 * Serves `eth_sendRawTransaction`. Admits a signed transaction; in automine mode the receipt exists when this returns.
 * @example eth_sendRawTransaction ["0x02f8…"] → "0x<tx hash>"
 */
export const eth_sendRawTransaction = defineEthMethod(
  tuple(data),
  async ([raw], ctx) => {
    const { tx, from, hash } = decodeRawTransaction(ctx.chain, raw)
    return submitTransaction(ctx.chain, ctx.chain.miner, tx, from, hash)
  },
)
