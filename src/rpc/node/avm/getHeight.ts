import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { AvmContext } from './context.js'

export type GetHeightResult = { height: string }

/** `avm.getHeight`: the last accepted block's height (json.Uint64). */
export const getHeight = defineNodeMethod(noParams, (_params, ctx: AvmContext): GetHeightResult => ({ height: String(ctx.xchain.height) }))
