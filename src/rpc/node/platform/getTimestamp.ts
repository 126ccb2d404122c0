import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { goTime } from './common.js'
import type { PlatformContext } from './context.js'

export type GetTimestampResult = { timestamp: string }

/** `platform.getTimestamp`: the chain time as Go writes a `time.Time` (RFC 3339, UTC here). */
export const getTimestamp = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetTimestampResult => ({ timestamp: goTime(ctx.pchain.timestamp) }))
