import { PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

export type GetMinStakeResult = { minValidatorStake: string; minDelegatorStake: string }

/**
 * `platform.getMinStake({subnetID})`: the primary network's minimums (json.Uint64); other subnets
 * fail as in `getStakingAssetID` (no subnet transformations).
 */
export const getMinStake = defineNodeMethod(objectParams({ subnetID: cb58Id }), ({ subnetID }, ctx: PlatformContext): GetMinStakeResult => {
  if (subnetID !== PRIMARY_NETWORK_ID) throw new NodeRpcError(`failed fetching subnet transformation for ${subnetID}: not found`)
  const s = ctx.pchain.config.staking
  return { minValidatorStake: String(s.minValidatorStake), minDelegatorStake: String(s.minDelegatorStake) }
})
