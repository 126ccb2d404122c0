import { writeStacktrace } from '../../../network/profiler.js'
import { defineNodeMethod } from '../types.js'
import { emptyParams, type EmptyReply } from './alias.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

/**
 * Serves `admin.stacktrace`: writes `stacktrace.txt`. avalanchego dumps every goroutine into the
 * process's working directory; the emulator writes the JavaScript stack of the call and the
 * process's pending resources into the node's data dir (Node has one JavaScript thread).
 * @example {} → {}
 */
export const stacktrace = defineNodeMethod(
  emptyParams,
  (_params, ctx: AdminContext): Promise<EmptyReply> =>
    asNodeErrors(async () => {
      await writeStacktrace(ctx.node.dataDir)
      return {}
    }),
)
