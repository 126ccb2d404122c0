import { defineNodeMethod } from '../types.js'
import { emptyParams } from './alias.js'
import { nodeConfigJson, type AdminContext } from './context.js'

/**
 * Serves `admin.getConfig`: the node's configuration, under avalanchego's `node.Config` JSON keys.
 * @example {} → {"httpConfig":{"apiConfig":{"adminAPIEnabled":true},"httpHost":"127.0.0.1","httpPort":9650},"networkID":12345,…}
 */
export const getConfig = defineNodeMethod(emptyParams, (_params, ctx: AdminContext) => nodeConfigJson(ctx.node.config))
