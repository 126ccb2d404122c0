import type { NodeService } from '../types.js'
import { alias } from './alias.js'
import { aliasChain } from './aliasChain.js'
import type { AdminContext } from './context.js'
import { getChainAliases } from './getChainAliases.js'
import { getConfig } from './getConfig.js'
import { getLoggerLevel } from './getLoggerLevel.js'
import { loadVMs } from './loadVMs.js'
import { lockProfile } from './lockProfile.js'
import { memoryProfile } from './memoryProfile.js'
import { setLoggerLevel } from './setLoggerLevel.js'
import { stacktrace } from './stacktrace.js'
import { startCPUProfiler } from './startCPUProfiler.js'
import { stopCPUProfiler } from './stopCPUProfiler.js'

export type { AdminContext, AdminNode, NodeConfig } from './context.js'
export { defaultNodeConfig, nodeConfigJson } from './context.js'
export { MAX_ALIAS_LENGTH } from './alias.js'

/**
 * The `admin` service at `/ext/admin` (avalanchego `api/admin/service.go`), by wire method name;
 * routed only when the node's `apiAdminEnabled` is set. `dbGet` is not served (no database).
 */
export const adminService = {
  alias,
  aliasChain,
  getChainAliases,
  getConfig,
  getLoggerLevel,
  loadVMs,
  lockProfile,
  memoryProfile,
  setLoggerLevel,
  stacktrace,
  startCPUProfiler,
  stopCPUProfiler,
} satisfies NodeService<AdminContext>
