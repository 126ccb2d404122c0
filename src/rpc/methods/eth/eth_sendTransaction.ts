import { defineEthMethod } from '../define.js'
import { sendTransaction } from '../../../evm/send.js'
import { suggestTip } from '../../../evm/gasPrice.js'
import { RpcServerError } from '../../errors.js'
import { tuple } from '../../params.js'
import { toCallRequest, transactionArgs } from '../txArgs.js'

/**
 * Serves `eth_sendTransaction` for the dev accounts (signed with their keys) and impersonated
 * accounts (anvil_impersonateAccount; sent without a signature). Nonce, gas and fees default as
 * geth's `setDefaults` fills them.
 */
export const eth_sendTransaction = defineEthMethod(
  tuple(transactionArgs),
  async ([args], ctx) => {
    const request = toCallRequest(args, ctx.chain.chainId)
    if (!request.from) throw new RpcServerError('missing from address')
    return sendTransaction(ctx.chain, ctx.chain.miner, { ...request, from: request.from }, ctx.network.signers, suggestTip(ctx.chain))
  },
)
