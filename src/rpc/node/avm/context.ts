import type { XChain } from '../../../platform/xchain/chain.js'
import { defaultAliases, type ChainAliases } from '../../../platform/xchain/api.js'

/** The context slice of the `avm` service at `/ext/bc/X` (alias `/ext/X`) on one node. */
export interface AvmContext {
  /** The X-chain whose last accepted state every method reads. */
  xchain: XChain
  /**
   * The node's chain aliaser (`BCLookup.Lookup`): alias or chain id → chain id; undefined when
   * unknown. Used for address prefixes and `getUTXOs` `sourceChain`. Default: `X`, `P`, `C` and
   * the three ids of the X-chain's network preset.
   */
  lookupChain?(alias: string): string | undefined
}

/** The aliases the X-chain API builders take. */
export function aliasesOf(ctx: AvmContext): ChainAliases {
  const lookup = ctx.lookupChain
  return lookup ? { lookup: (alias) => lookup(alias) } : defaultAliases(ctx.xchain)
}
