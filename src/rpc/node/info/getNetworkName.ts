import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

/** `constants.NetworkIDToNetworkName`. */
const NETWORK_NAMES: ReadonlyMap<number, string> = new Map([
  [1, 'mainnet'],
  [2, 'cascade'],
  [3, 'denali'],
  [4, 'everest'],
  [5, 'fuji'],
  [10, 'testing'],
  [12345, 'local'],
])

/** `constants.NetworkName`: the well-known name, else `network-<id>`. */
export const networkName = (networkId: number): string => NETWORK_NAMES.get(networkId) ?? `network-${networkId}`

/** `info.getNetworkName`. */
export const getNetworkName = defineNodeMethod(noParams, (_params, ctx: InfoContext): { networkName: string } => ({
  networkName: networkName(ctx.network.preset.networkId),
}))
