import { defineNodeMethod } from '../types.js'
import { emptyParams } from './alias.js'
import type { AdminContext } from './context.js'
import { asNodeErrors } from './errors.js'

export type LoadVMsReply = { newVMs: Record<string, string[]>; failedVMs?: Record<string, string> }

/**
 * Serves `admin.loadVMs`: registers the VM plugins of the plugin directory that are not
 * registered yet (format in `src/network/vmRegistry.ts`). `newVMs` maps each new VM id to its
 * aliases without the id itself; `failedVMs` (VM id, or file name when the id is unknown →
 * error) appears only when something failed.
 * @example {} → {"newVMs":{"tGas3T58KzdjcJ2iKSyiYsWiqYctRXaPTqBCA11BqEkNg8kPc":["myvm"]}}
 */
export const loadVMs = defineNodeMethod(
  emptyParams,
  (_params, ctx: AdminContext): Promise<LoadVMsReply> =>
    asNodeErrors(async () => {
      const { loaded, failed } = await ctx.node.vms.reload()
      const reply: LoadVMsReply = { newVMs: ctx.node.vms.relevantAliases(loaded) }
      const failedIds = Object.keys(failed).sort()
      if (failedIds.length > 0) reply.failedVMs = Object.fromEntries(failedIds.map((id) => [id, failed[id]!]))
      return reply
    }),
)
