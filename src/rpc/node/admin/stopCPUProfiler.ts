import { defineNodeMethod } from '../types.js'
import { emptyParams, type EmptyReply } from './alias.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/**
 * Serves `admin.stopCPUProfiler`: stops the CPU profiler and writes `cpu.profile` in the profile directory; `cpu profiler doesn't exist` if none runs.
 * @example {} → {}
 */
export const stopCPUProfiler = defineNodeMethod(
  emptyParams,
  (_params, ctx: AdminContext): Promise<EmptyReply> =>
    asNodeErrors(async () => {
      await ctx.node.profiler.stopCPUProfiler()
      return {}
    }),
)
