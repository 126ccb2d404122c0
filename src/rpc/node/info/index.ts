import type { NodeService } from '../types.js'
import { acps } from './acps.js'
import type { InfoContext } from './context.js'
import { getBlockchainID } from './getBlockchainID.js'
import { getNetworkID } from './getNetworkID.js'
import { getNetworkName } from './getNetworkName.js'
import { getNodeID } from './getNodeID.js'
import { getNodeIP } from './getNodeIP.js'
import { getNodeVersion } from './getNodeVersion.js'
import { getTxFee } from './getTxFee.js'
import { getVMs } from './getVMs.js'
import { isBootstrapped } from './isBootstrapped.js'
import { peers } from './peers.js'
import { upgrades } from './upgrades.js'
import { uptime } from './uptime.js'

export type { InfoContext, InfoNode, InfoNodeView, InfoVm } from './context.js'

/** The `info` service at `/ext/info` (avalanchego `api/info/service.go`), by wire method name. */
export const infoService = {
  acps,
  getBlockchainID,
  getNetworkID,
  getNetworkName,
  getNodeID,
  getNodeIP,
  getNodeVersion,
  getTxFee,
  getVMs,
  isBootstrapped,
  peers,
  upgrades,
  uptime,
} satisfies NodeService<InfoContext>
