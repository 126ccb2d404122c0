import { PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import type { Subnet } from '../../../platform/pchain/state.js'
import { objectParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { formatLocal, idArray } from './common.js'
import type { PlatformContext } from './context.js'
import { sortedSubnets } from './state.js'

/** `APISubnet`. */
export type ApiSubnet = { id: string; controlKeys: string[]; threshold: string }

/** `GetSubnetsResponse`: `subnets` is null when ids were asked for and none exists. */
export type GetSubnetsResult = { subnets: ApiSubnet[] | null }

/**
 * `platform.getSubnets({ids})` (deprecated, still served): without ids every subnet in id order
 * then the primary network (no control keys, threshold 0); with ids those that exist, in the
 * order asked, duplicates skipped.
 */
export const getSubnets = defineNodeMethod(objectParams({ ids: idArray }), ({ ids }, ctx: PlatformContext): GetSubnetsResult => {
  const api = (s: Subnet): ApiSubnet => ({ id: s.id, controlKeys: s.owner.addrs.map((a) => formatLocal(ctx, a)), threshold: String(s.owner.threshold) })
  const primary: ApiSubnet = { id: PRIMARY_NETWORK_ID, controlKeys: [], threshold: '0' }
  if (ids.length === 0) return { subnets: [...sortedSubnets(ctx.pchain).map(api), primary] }
  let subnets: ApiSubnet[] | null = null
  const seen = new Set<string>()
  for (const id of ids) {
    if (seen.has(id)) continue
    seen.add(id)
    if (id === PRIMARY_NETWORK_ID) {
      ;(subnets ??= []).push(primary)
      continue
    }
    const subnet = ctx.pchain.state.getSubnet(id)
    if (subnet) (subnets ??= []).push(api(subnet))
  }
  return { subnets }
})
