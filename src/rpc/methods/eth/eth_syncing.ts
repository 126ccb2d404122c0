import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'

/**
 * Serves `eth_syncing`. Always false: the emulated node is never behind.
 */
export const eth_syncing = defineEthMethod(
  tuple(),
  () => false,
)
