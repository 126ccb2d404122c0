import type { Hex } from '../../../core/hex.js'
import type { Network } from '../../../network/network.js'
import type { UptimeTracker } from '../../../network/uptime.js'

/** A VM registered on a node: id, aliases (primary first; may include the id itself), reported version. */
export type InfoVm = { id: string; aliases: readonly string[]; version?: string }

/** What the info service reads of any node (the answering one, and its peers). */
export interface InfoNodeView {
  index: number
  nodeId: string
  identity: { blsPublicKey: Hex; proofOfPossession: Hex }
  /** The node's staking (P2P) port: its HTTP port + 1, as avalanchego's 9650 / 9651. */
  stakingPort: number
  /** The node's primary-network uptime tracker: its view of every primary validator's uptime. */
  uptime: UptimeTracker
}

/** The answering node, with what only it is asked. */
export interface InfoNode extends InfoNodeView {
  /** Whether this node is connected to node `peerIndex` (never asked for itself). */
  isConnected(peerIndex: number): boolean
  /** This node's chain aliaser: alias or chain id → chain id (cb58); undefined when unknown. */
  lookupChain(aliasOrId: string): string | undefined
  /** Whether the chain (an id `lookupChain` returned) has finished bootstrapping on this node. */
  isBootstrapped(chainId: string): boolean
  /** The VMs this node has registered (see `simulatedVms` in src/network/version.ts). */
  vms(): readonly InfoVm[]
}

/** The context slice of the `info` service. */
export interface InfoContext {
  /** Network-wide facts: ids and upgrades (preset), nodes, validator sets, clock. */
  network: Pick<Network, 'preset' | 'validators' | 'clock'> & { nodes: readonly { index: number; nodeId: string }[] }
  node: InfoNode
  /** Another node's view, by index (peers read its port and its uptime view of this node). */
  peer(index: number): InfoNodeView
}
