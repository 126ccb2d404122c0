import { cb58Id, objectParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

export type GetTotalStakeResult = { stake: string; weight: string }

/**
 * `platform.getTotalStake({subnetID})`: the total weight of the subnet's current validator set
 * (delegations included; an unknown subnet weighs 0). `stake` is the deprecated copy of `weight`.
 */
export const getTotalStake = defineNodeMethod(objectParams({ subnetID: cb58Id }), ({ subnetID }, ctx: PlatformContext): GetTotalStakeResult => {
  let total = 0n
  for (const v of ctx.pchain.validatorSets().get(subnetID) ?? []) total += v.weight
  return { stake: String(total), weight: String(total) }
})
