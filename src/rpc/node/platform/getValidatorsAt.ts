import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { PROPOSED_HEIGHT, heightField, hexnc } from './common.js'
import type { PlatformContext } from './context.js'

/** One validator of `GetValidatorsAtReply` (`jsonGetValidatorOutput`). */
export type ValidatorAt = { publicKey: string | null; weight: string }

/**
 * `GetValidatorsAtReply.MarshalJSON`: the bare map node id → validator (no wrapping object),
 * keys sorted as Go writes maps.
 */
export type GetValidatorsAtResult = Record<string, ValidatorAt>

/**
 * `platform.getValidatorsAt({height, subnetID})`: the subnet's validator set at a P-chain height
 * (`"proposed"`: the proposervm's minimum height): weights with delegations included, compressed
 * BLS keys (hexnc; null without one). An unknown subnet has an empty set. A height above the
 * current one fails `failed to get validator set at <h>: failed to fetch validator set at
 * unfinalized height with SubnetID = <id>: current P-chain height (<c>) < requested P-Chain height (<h>)`.
 */
export const getValidatorsAt = defineNodeMethod(
  objectParams({ height: heightField, subnetID: cb58Id }),
  ({ height, subnetID }, ctx: PlatformContext): GetValidatorsAtResult => {
    const current = ctx.pchain.height
    const target = height === PROPOSED_HEIGHT ? BigInt(ctx.proposedHeight?.() ?? current) : height
    if (target > BigInt(current))
      throw new NodeRpcError(
        `failed to get validator set at ${target}: failed to fetch validator set at unfinalized height with SubnetID = ${subnetID}: current P-chain height (${current}) < requested P-Chain height (${target})`,
      )
    const set = ctx.validatorSetAt ? ctx.validatorSetAt(subnetID, Number(target)) : (ctx.pchain.validatorSets().get(subnetID) ?? [])
    const entries = [...set].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0))
    const out: GetValidatorsAtResult = {}
    for (const v of entries) out[v.nodeId] = { publicKey: v.blsPublicKey ? hexnc(v.blsPublicKey) : null, weight: String(v.weight) }
    return out
  },
)
