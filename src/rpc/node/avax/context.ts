import { formatAddress, hrpForNetworkId } from '../../../core/address.js'
import type { CChainAtomic } from '../../../platform/xchain/cchainAtomic.js'
import { goQuote } from '../goJson.js'
import { parseLocalServiceAddress } from '../platform/common.js'

/** The context slice of coreth's `avax` service at `/ext/bc/C/avax` on one node. */
export interface AvaxContext {
  /** The C-chain's atomic txs: mempool, accepted index, shared memory. */
  cAtomic: CChainAtomic
  /** The network's single entry for atomic txs (mempool, then the C-chain's next block). */
  issue(bytes: Uint8Array): Promise<{ txId: string }>
  /** The node's chain aliaser (`BCLookup.Lookup`): alias or chain id → chain id; undefined when unknown. */
  lookupChain(alias: string): string | undefined
}

/** `FormatLocalAddress`: `C-<hrp>1…` (the C-chain's primary alias). */
export function formatLocal(ctx: AvaxContext, addr: Uint8Array): string {
  return formatAddress('C', hrpForNetworkId(ctx.cAtomic.networkId), addr)
}

/**
 * coreth's `ParseServiceAddress`: a cb58 short id, else a `C-…` address (`ParseLocalAddress`: the
 * alias must name the C-chain, the hrp the network's). Failures read `couldn't parse address
 * "<addr>": <reason>`.
 */
export function parseServiceAddress(ctx: AvaxContext, addr: string): Uint8Array {
  const c = ctx.cAtomic.chainId
  return parseLocalServiceAddress(addr, {
    lookup: (alias) => ctx.lookupChain(alias),
    hrp: hrpForNetworkId(ctx.cAtomic.networkId),
    chainId: c,
    wrongChain: (got) => `expected chainID to be ${goQuote(c)} but was ${goQuote(got)}`,
  })
}
