import { RpcServerError } from '../../errors.js'
import { optional, string, tuple } from '../../params.js'
import { defineSubnetEvmMethod, jsonUint64 } from '../shared.js'
import { cb58Id } from './params.js'
import { aggregate } from './warp_getMessageAggregateSignature.js'

/**
 * Serves subnet-EVM's `warp_getBlockAggregateSignature(blockID, quorumNum, subnetID)`: a warp
 * message whose payload is the hash of one of this chain's accepted blocks (the block id is the
 * block hash, cb58), signed by the subnet's validators — what `getVerifiedWarpBlockHash` reads.
 */
export const warp_getBlockAggregateSignature = defineSubnetEvmMethod(
  'warp_getBlockAggregateSignature',
  tuple(cb58Id, optional(jsonUint64), optional(string)),
  ([blockId, quorumNum, subnetIdText], ctx, l1) => {
    let message: Uint8Array
    try {
      message = ctx.network.warpBlockHashMessage(l1.name, blockId)
    } catch {
      throw new RpcServerError('failed to get block: not found')
    }
    return aggregate(ctx, l1, message, quorumNum, subnetIdText)
  },
)
