import { bytesToHex, type Hex } from '../../../core/hex.js'
import type { L1 } from '../../../network/l1.js'
import type { EthContext } from '../../context.js'
import { idFromString } from '../../../core/ids.js'
import { RpcServerError } from '../../errors.js'
import { optional, string, tuple } from '../../params.js'
import { defineSubnetEvmMethod, jsonUint64 } from '../shared.js'
import { cb58Id } from './params.js'

/**
 * Serves subnet-EVM's `warp_getMessageAggregateSignature(messageID, quorumNum, subnetID)`: the
 * message signed by the validators of the chain's subnet (or of `subnetID`), their BLS
 * signatures aggregated — what a relayer delivers to another chain. Every simulated validator
 * answers, so the signature always carries the whole set's weight.
 */
export const warp_getMessageAggregateSignature = defineSubnetEvmMethod(
  'warp_getMessageAggregateSignature',
  tuple(cb58Id, optional(jsonUint64), optional(string)),
  ([id, quorumNum, subnetIdText], ctx, l1) => {
    const message = ctx.network.warpMessage(id)
    if (!message) throw new RpcServerError('not found')
    return aggregate(ctx, l1, message, quorumNum, subnetIdText)
  },
)

/**
 * subnet-EVM's `aggregateSignatures`: the validators of the chain's subnet, or of `subnetID`,
 * sign; every simulated validator answers.
 */
export function aggregate(ctx: EthContext, l1: L1, message: Uint8Array, quorumNum: bigint | undefined, subnetIdText: string | undefined): Hex {
  let subnetId = l1.subnetId
  if (subnetIdText) {
    try {
      idFromString(subnetIdText)
    } catch {
      throw new RpcServerError(`failed to parse subnetID: ${JSON.stringify(subnetIdText)}`)
    }
    subnetId = subnetIdText
  }
  if (quorumNum !== undefined && quorumNum > 100n) throw new RpcServerError(`quorum numerator ${quorumNum} is over 100`)
  if (ctx.network.validators.get(subnetId).length === 0)
    throw new RpcServerError(`cannot aggregate signatures from subnet with no validators (SubnetID: ${subnetId}, Height: ${ctx.chain.head.number})`)
  return bytesToHex(ctx.network.signWarpMessage(message, { subnetId }))
}
