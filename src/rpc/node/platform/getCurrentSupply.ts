import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'
import { supplyOf } from './state.js'

export type GetCurrentSupplyResult = { supply: string; height: string }

/**
 * `platform.getCurrentSupply({subnetID})`: an upper bound of the subnet's supply (primary: AVAX,
 * rewards included) and the height. A subnet without a supply fails
 * `fetching current supply failed: not found`.
 */
export const getCurrentSupply = defineNodeMethod(objectParams({ subnetID: cb58Id }), ({ subnetID }, ctx: PlatformContext): GetCurrentSupplyResult => {
  const supply = supplyOf(ctx.pchain, subnetID)
  if (supply === undefined) throw new NodeRpcError('fetching current supply failed: not found')
  return { supply: String(supply), height: String(ctx.pchain.height) }
})
