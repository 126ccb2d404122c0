/** The `net_` namespace: one method per file, registered here. */
import { net_listening } from './net_listening.js'
import { net_peerCount } from './net_peerCount.js'
import { net_version } from './net_version.js'

export const netMethods = {
  net_listening,
  net_peerCount,
  net_version,
}
