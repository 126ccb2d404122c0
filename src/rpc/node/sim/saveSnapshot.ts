import { defineNodeMethod, NodeRpcError } from '../types.js'
import { objectParams, str } from '../params.js'
import { type SimContext } from './context.js'

/**
 * `sim.saveSnapshot {path}`: writes the whole network to a snapshot file on the server's machine
 * (a relative path is the server's working directory's), atomically; `l1sim start --snapshot`
 * and `loadNetwork` continue from it. Returns the absolute path, its size and its sha256.
 * @example sim.saveSnapshot {"path":"snapshots/ready.l1sim"} → {"path":"/…/snapshots/ready.l1sim","bytes":48211,"sha256":"9f…"}
 */
export const saveSnapshot = defineNodeMethod(objectParams({ path: str }), async (args, ctx: SimContext) => {
  if (args.path === '') throw new NodeRpcError('path must not be empty')
  try {
    const saved = await ctx.network.save(args.path)
    return { path: saved.path, bytes: saved.bytes, sha256: saved.sha256 }
  } catch (error) {
    throw new NodeRpcError(`cannot save the snapshot to ${args.path}: ${(error as { shortMessage?: string }).shortMessage ?? (error as Error).message}`)
  }
})
