import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

/** `info.getNetworkID`: a `json.Uint32`, so quoted. */
export const getNetworkID = defineNodeMethod(noParams, (_params, ctx: InfoContext): { networkID: string } => ({
  networkID: String(ctx.network.preset.networkId),
}))
