import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `net_listening`. Always true, as on coreth.
 */
export const net_listening = defineEthMethod(
  tuple(),
  () => true,
)
