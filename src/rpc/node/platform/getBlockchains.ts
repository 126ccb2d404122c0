import { PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'
import { chainsOf, sortedSubnets } from './state.js'

/** `APIBlockchain`. */
export type ApiBlockchain = { id: string; name: string; subnetID: string; vmID: string }

export type GetBlockchainsResult = { blockchains: ApiBlockchain[] }

/**
 * `platform.getBlockchains` (deprecated, still served): the chains of every subnet (subnets and
 * their chains in id order), then the primary network's chains (those the state holds: a
 * network that registers the X- and C-chains in the P-chain state at genesis lists them here).
 */
export const getBlockchains = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetBlockchainsResult => {
  const blockchains: ApiBlockchain[] = []
  const add = (subnetId: string) => {
    for (const c of chainsOf(ctx.pchain, subnetId)) blockchains.push({ id: c.id, name: c.name, subnetID: subnetId, vmID: c.vmId })
  }
  for (const s of sortedSubnets(ctx.pchain)) if (s.id !== PRIMARY_NETWORK_ID) add(s.id)
  add(PRIMARY_NETWORK_ID)
  return { blockchains }
})
