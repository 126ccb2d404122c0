import { defineNodeMethod } from '../types.js'
import { emptyParams, type EmptyReply } from './alias.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/**
 * Serves `admin.memoryProfile`: writes a heap profile (V8 sampling heap profile, after a GC) to `mem.profile` in the profile directory.
 * @example {} → {}
 */
export const memoryProfile = defineNodeMethod(
  emptyParams,
  (_params, ctx: AdminContext): Promise<EmptyReply> =>
    asNodeErrors(async () => {
      await ctx.node.profiler.memoryProfile()
      return {}
    }),
)
