import { bytesToHex } from '../../../core/hex.js'
import { idToString } from '../../../core/ids.js'
import { RpcServerError } from '../../errors.js'
import { tuple } from '../../params.js'
import { defineSubnetEvmMethod } from '../shared.js'
import { cb58Id } from './params.js'

/**
 * Serves subnet-EVM's `warp_getMessage(messageID)`: the unsigned warp message this chain sent
 * with that id (cb58), as hex bytes.
 */
export const warp_getMessage = defineSubnetEvmMethod(
  'warp_getMessage',
  tuple(cb58Id),
  ([id], ctx) => {
    const message = ctx.network.warpMessage(id)
    if (!message) throw new RpcServerError(`failed to get message ${idToString(id)} with error not found`)
    return bytesToHex(message)
  },
)
