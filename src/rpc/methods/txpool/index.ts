/** The `txpool_` namespace: one method per file, registered here. */
import { txpool_content } from './txpool_content.js'
import { txpool_inspect } from './txpool_inspect.js'
import { txpool_status } from './txpool_status.js'

export const txpoolMethods = {
  txpool_content,
  txpool_inspect,
  txpool_status,
}
