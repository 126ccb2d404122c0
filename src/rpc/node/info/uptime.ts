import { PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import { ACP267_UPTIME_REQUIREMENT, DEFAULT_UPTIME_REQUIREMENT } from '../../../network/uptime.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { noParams } from '../params.js'
import type { InfoContext } from './context.js'
import { float64String } from './format.js'
import { connectedPeers, observedUptime } from './peers.js'

export type UptimeResult = { rewardingStakePercentage: string; weightedAveragePercentage: string }

/**
 * `info.uptime` (`network.NodeUptime`): how the connected primary validators see this node.
 * weightedAverage = (100·myStake + Σ observedUptime·weight) / totalWeight; rewarding =
 * 100·(myStake + Σ weight of peers whose observed uptime meets the requirement) / totalWeight.
 * The requirement is 80%, or ACP-267's 90% when this node started validating after Helicon.
 * The docs' `subnetID` argument is ignored, as in avalanchego.
 */
export const uptime = defineNodeMethod(noParams, (_params, ctx: InfoContext): UptimeResult => {
  const primary = ctx.network.validators.get(PRIMARY_NETWORK_ID)
  const me = primary.find((v) => v.nodeId === ctx.node.nodeId)
  if (!me) throw new NodeRpcError('couldn\'t get node uptime: node is not a validator')
  const totalWeight = Number(primary.reduce((sum, v) => sum + v.weight, 0n))
  const myStake = Number(me.weight)
  const requirement =
    ctx.network.preset.upgrades.heliconTime <= Number(me.startTime) ? ACP267_UPTIME_REQUIREMENT : DEFAULT_UPTIME_REQUIREMENT
  let weighted = 100 * myStake
  let rewarding = myStake
  for (const index of connectedPeers(ctx)) {
    const nodeId = ctx.network.nodes[index]!.nodeId
    const entry = primary.find((v) => v.nodeId === nodeId)
    if (!entry) continue
    const weight = Number(entry.weight)
    const percent = observedUptime(ctx, index)
    weighted += percent * weight
    if (percent / 100 >= requirement) rewarding += weight
  }
  return {
    rewardingStakePercentage: float64String(Math.abs((100 * rewarding) / totalWeight)),
    weightedAveragePercentage: float64String(Math.abs(weighted / totalWeight)),
  }
})
