import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { CLIENT_VERSION } from '../../version.js'

/**
 * Serves `web3_clientVersion`. The node's version, as coreth reports `version.Current.Semantic()`, with the emulator named.
 * @example web3_clientVersion → "v1.14.2-l1sim"
 */
export const web3_clientVersion = defineEthMethod(
  tuple(),
  () => CLIENT_VERSION,
)
