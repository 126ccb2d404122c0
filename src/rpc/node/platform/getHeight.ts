import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

export type GetHeightResult = { height: string }

/** `platform.getHeight`: the last accepted block's height (`api.GetHeightResponse`, json.Uint64). */
export const getHeight = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetHeightResult => ({ height: String(ctx.pchain.height) }))
