import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `net_peerCount`. Always 0x0: coreth's eth service has no devp2p peers.
 */
export const net_peerCount = defineEthMethod(
  tuple(),
  () => '0x0',
)
