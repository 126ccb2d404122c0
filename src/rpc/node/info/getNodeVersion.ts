import { DATABASE_VERSION, GIT_COMMIT, NODE_VERSION, RPC_CHAIN_VM_PROTOCOL } from '../../../network/version.js'
import { defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'

export type GetNodeVersionResult = {
  version: string
  databaseVersion: string
  rpcProtocolVersion: string
  gitCommit: string
  vmVersions: Record<string, string>
}

/**
 * `info.getNodeVersion`: the imitated avalanchego release (src/network/version.ts), and each VM's
 * version keyed by its primary alias (its id when it has no other), keys sorted as Go sorts a map.
 */
export const getNodeVersion = defineNodeMethod(noParams, (_params, ctx: InfoContext): GetNodeVersionResult => {
  const versions: [string, string][] = []
  for (const vm of ctx.node.vms()) if (vm.version !== undefined) versions.push([vm.aliases[0] ?? vm.id, vm.version])
  return {
    version: NODE_VERSION,
    databaseVersion: DATABASE_VERSION,
    rpcProtocolVersion: String(RPC_CHAIN_VM_PROTOCOL),
    gitCommit: GIT_COMMIT,
    vmVersions: sortedRecord(versions),
  }
})

/** A Go map's JSON: keys sorted by bytes (these keys are ASCII, so code units sort the same). */
export function sortedRecord<V>(entries: Iterable<[string, V]>): Record<string, V> {
  const out: Record<string, V> = {}
  for (const [k, v] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = v
  return out
}
