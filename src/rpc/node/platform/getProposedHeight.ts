import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'
import type { GetHeightResult } from './getHeight.js'

/**
 * `platform.getProposedHeight`: the P-Chain height the node's proposervm would put in its next
 * block (`GetMinimumHeight`, `api.GetHeightResponse`); the context's {@link PlatformContext.proposedHeight},
 * by default the last accepted height.
 */
export const getProposedHeight = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetHeightResult => ({ height: String(ctx.proposedHeight?.() ?? ctx.pchain.height) }))
