import { PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

export type GetStakingAssetIDResult = { assetID: string }

/**
 * `platform.getStakingAssetID({subnetID})`: AVAX for the primary network; any other subnet would
 * need a TransformSubnetTx (disabled since Etna), so it fails as the node does:
 * `failed fetching subnet transformation for <id>: not found`.
 */
export const getStakingAssetID = defineNodeMethod(objectParams({ subnetID: cb58Id }), ({ subnetID }, ctx: PlatformContext): GetStakingAssetIDResult => {
  if (subnetID === PRIMARY_NETWORK_ID) return { assetID: ctx.pchain.config.avaxAssetId }
  throw new NodeRpcError(`failed fetching subnet transformation for ${subnetID}: not found`)
})
