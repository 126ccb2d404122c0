import { PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import { formatRFC3339Nano } from '../../../network/goTime.js'
import { NODE_VERSION } from '../../../network/version.js'
import { defineNodeMethod } from '../types.js'
import { nodeIdArray, objectParams } from '../params.js'
import type { InfoContext } from './context.js'
import { stakingAddress } from './getNodeIP.js'

/** `peer.Info` plus `benched`, in Go's field order. */
export type PeerResult = {
  ip: string
  publicIP: string
  nodeID: string
  version: string
  upgradeTime: number
  lastSent: string
  lastReceived: string
  observedUptime: string
  trackedSubnets: string[]
  supportedACPs: number[]
  objectedACPs: number[]
  benched: string[]
}

export type PeersResult = { numPeers: string; peers: PeerResult[] }

/** Indices of the nodes the answering node is connected to, itself excluded, in node order. */
export function connectedPeers(ctx: InfoContext): number[] {
  const out: number[] = []
  for (const n of ctx.network.nodes) if (n.index !== ctx.node.index && ctx.node.isConnected(n.index)) out.push(n.index)
  return out
}

/**
 * The uptime peer `peerIndex` reports for the answering node (its pings carry it): the peer's
 * primary-network `CalculateUptimePercent` of this node, times 100, truncated to a uint32; 0 when
 * the peer does not track this node (not a validator). Computed at the call rather than at the
 * last ping.
 */
export function observedUptime(ctx: InfoContext, peerIndex: number): number {
  const now = ctx.network.clock.now()
  const fraction = ctx.peer(peerIndex).uptime.uptimeFraction(ctx.node.nodeId, now)
  if (fraction === undefined || !(fraction > 0)) return 0
  return Math.min(Math.trunc(fraction * 100), 0xffffffff)
}

/**
 * The subnets a node tracks, as its handshake announces them: the primary network always, and
 * every subnet it validates. `set.Set` JSON: sorted by the bytes of each quoted id.
 */
export function trackedSubnets(ctx: InfoContext, nodeId: string): string[] {
  const subnets = new Set([PRIMARY_NETWORK_ID])
  const registry = ctx.network.validators
  for (const subnetId of registry.subnetIds()) if (registry.get(subnetId).some((v) => v.nodeId === nodeId)) subnets.add(subnetId)
  return [...subnets].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * `info.peers({nodeIDs?})`: the nodes this one is connected to. With `nodeIDs`, those of them that
 * are connected, in the order asked (a repeated id is listed again), as `peerSet.Info` does.
 * Simulated peers exchange messages all the time, so `lastSent` / `lastReceived` are the current
 * network time; `ip` and `publicIP` are both the peer's staking address; `upgradeTime` is the
 * network's Granite time (what 1.14 nodes put in their handshake). ACP votes and benches are empty.
 */
export const peers = defineNodeMethod(
  objectParams({ nodeIDs: nodeIdArray }),
  ({ nodeIDs }, ctx: InfoContext): PeersResult => {
    const connected = connectedPeers(ctx)
    const byId = new Map(connected.map((i) => [ctx.network.nodes[i]!.nodeId, i]))
    const selected = nodeIDs.length === 0 ? connected : nodeIDs.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))
    const now = formatRFC3339Nano(BigInt(ctx.network.clock.nowMs()) * 1_000_000n)
    const list = selected.map((index): PeerResult => {
      const peer = ctx.peer(index)
      const address = stakingAddress(peer.stakingPort)
      return {
        ip: address,
        publicIP: address,
        nodeID: peer.nodeId,
        version: NODE_VERSION,
        upgradeTime: ctx.network.preset.upgrades.graniteTime,
        lastSent: now,
        lastReceived: now,
        observedUptime: String(observedUptime(ctx, index)),
        trackedSubnets: trackedSubnets(ctx, peer.nodeId),
        supportedACPs: [],
        objectedACPs: [],
        benched: [],
      }
    })
    return { numPeers: String(list.length), peers: list }
  },
)
