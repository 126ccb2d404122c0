import { createPlatformIndexer, type PlatformIndexer } from '../../../../indexer/index.js'
import type { Network } from '../../../../network/network.js'

const indexers = new WeakMap<Network, PlatformIndexer>()

/**
 * The platform indexer of `network` (P, X and the C-chain's atomic txs), made on first use and
 * shared by every node's server; it rebuilds from the chains' history, then follows their blocks.
 */
export function platformIndexerFor(network: Network): PlatformIndexer {
  let index = indexers.get(network)
  if (!index) {
    const { pchain, xchain, cAtomic } = network.primary
    index = createPlatformIndexer({ pchain, xchain, cAtomic, cChainId: network.preset.cChainId })
    indexers.set(network, index)
  }
  return index
}
