import { formatAddress, hrpForNetworkId, parseAddress } from '../../../core/address.js'
import { cb58Decode } from '../../../core/cb58.js'
import type { CChainAtomic } from '../../../platform/xchain/cchainAtomic.js'
import { goQuote } from '../goJson.js'
import { NodeRpcError } from '../types.js'

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
  try {
    return cb58Decode(addr, 20)
  } catch {
    // not a bare short id: a localized address
  }
  try {
    const parsed = parseAddress(addr)
    const chainId = ctx.lookupChain(parsed.chainAlias)
    if (chainId === undefined) throw new Error(`there is no ID with alias: ${parsed.chainAlias}`)
    const hrp = hrpForNetworkId(ctx.cAtomic.networkId)
    if (parsed.hrp !== hrp) throw new Error(`expected hrp ${goQuote(hrp)} but got ${goQuote(parsed.hrp)}`)
    if (parsed.bytes.length !== 20) throw new Error(`invalid hash length: expected 20 bytes but got ${parsed.bytes.length}`)
    if (chainId !== ctx.cAtomic.chainId) throw new Error(`expected chainID to be ${goQuote(ctx.cAtomic.chainId)} but was ${goQuote(chainId)}`)
    return parsed.bytes
  } catch (error) {
    throw new NodeRpcError(`couldn't parse address ${goQuote(addr)}: ${(error as Error).message}`)
  }
}
