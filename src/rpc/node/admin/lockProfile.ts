import { defineNodeMethod } from '../types.js'
import { emptyParams, type EmptyReply } from './alias.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/**
 * Serves `admin.lockProfile`: writes the emulator's lock waits to `lock.profile` in the profile directory.
 * @example {} → {}
 */
export const lockProfile = defineNodeMethod(
  emptyParams,
  (_params, ctx: AdminContext): Promise<EmptyReply> =>
    asNodeErrors(async () => {
      await ctx.node.profiler.lockProfile()
      return {}
    }),
)
