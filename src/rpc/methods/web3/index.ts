/** The `web3_` namespace: one method per file, registered here. */
import { web3_clientVersion } from './web3_clientVersion.js'

export const web3Methods = {
  web3_clientVersion,
}
