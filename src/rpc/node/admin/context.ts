import type { NodeAliases } from '../../../network/aliases.js'
import type { NodeLoggers } from '../../../network/logging.js'
import type { Profiler } from '../../../network/profiler.js'
import type { VmRegistry } from '../../../network/vmRegistry.js'
import type { NodeConfig } from '../../../network/nodeConfig.js'

export { defaultNodeConfig, nodeConfigJson, type NodeConfig } from '../../../network/nodeConfig.js'

/** The node the admin service manages. */
export type AdminNode = {
  aliases: NodeAliases
  loggers: NodeLoggers
  profiler: Profiler
  vms: VmRegistry
  config: NodeConfig
  /** Where `admin.stacktrace` writes `stacktrace.txt`. */
  dataDir: string
}

/** The context slice of the `admin` service. */
export type AdminContext = { node: AdminNode }
