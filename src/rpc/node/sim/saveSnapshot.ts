import { defineNodeMethod, NodeRpcError } from '../types.js'
import { objectParams, str } from '../params.js'
import { type SimContext } from './context.js'
import { snapshotTarget } from './snapshotPath.js'

/**
 * Serves `sim.saveSnapshot {path}`: writes the whole network to a snapshot file under the server's
 * snapshot directory (`--snapshot-dir`; a relative path is taken from it, a path leaving it is
 * refused), atomically; `l1sim start --snapshot` and `loadNetwork` continue from it. Returns the
 * absolute path, its size and its sha256.
 * @example sim.saveSnapshot {"path":"ready.l1sim"} → {"path":"/…/snapshots/ready.l1sim","bytes":48211,"sha256":"9f…"}
 */
export const saveSnapshot = defineNodeMethod(objectParams({ path: str }), async (args, ctx: SimContext) => {
  if (args.path === '') throw new NodeRpcError('path must not be empty')
  const fail = (reason: string) => new NodeRpcError(`cannot save the snapshot to ${args.path}: ${reason}`)
  try {
    const where = await snapshotTarget(ctx.snapshotDir, args.path)
    if ('refused' in where) throw fail(where.refused)
    const saved = await ctx.network.save(where.target)
    return { path: saved.path, bytes: saved.bytes, sha256: saved.sha256 }
  } catch (error) {
    if (error instanceof NodeRpcError) throw error
    throw fail((error as { shortMessage?: string }).shortMessage ?? (error as Error).message)
  }
})
