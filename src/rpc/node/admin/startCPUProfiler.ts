import { defineNodeMethod } from '../types.js'
import { emptyParams, type EmptyReply } from './alias.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/**
 * Serves `admin.startCPUProfiler`: starts the CPU profiler; `cpu profiler already running` if it is.
 * @example {} → {}
 */
export const startCPUProfiler = defineNodeMethod(
  emptyParams,
  (_params, ctx: AdminContext): Promise<EmptyReply> =>
    asNodeErrors(async () => {
      await ctx.node.profiler.startCPUProfiler()
      return {}
    }),
)
