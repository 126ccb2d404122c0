import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { DestinationStream } from 'pino'
import type { NodeIdentity } from '../core/keys.js'
import type { EvmChain } from '../evm/chain.js'
import { createNodeAliases, type NodeAliases } from './aliases.js'
import type { FaultState } from './faults.js'
import { createNodeHealth, type NodeHealth } from './health.js'
import { createChainCheck, registerNodeHealthChecks, type ChainHealthSubject, type NodeHealthView } from './healthChecks.js'
import { createNodeLoggers, type LogLevelName, type NodeLoggers } from './logging.js'
import { defaultNodeConfig, type NodeConfig } from './nodeConfig.js'
import type { NetworkPreset } from './presets.js'
import { createProfiler, type Profiler, type WaitRecorder } from './profiler.js'
import type { NetworkUptime, UptimeTracker } from './uptime.js'
import type { ValidatorRegistry } from './validators.js'
import { createVmRegistry, type VmRegistry } from './vmRegistry.js'
import { PRIMARY_NETWORK_ID } from '../core/ids.js'

/** Settings every simulated node shares (the CLI's avalanchego-style flags). */
export type NodeOptions = {
  /** `--api-admin-enabled`: serve `/ext/admin` (off by default, as on a real node). */
  apiAdminEnabled?: boolean
  /** `--data-dir`: node `i` keeps its logs, profiles and plugins under `<dataDir>/node-<i>`. Default `.l1sim` in the working directory. */
  dataDir?: string
  /** `--profile-dir`: node `i` writes its profiles to `<profileDir>/node-<i>`. Default `<node data dir>/profiles`. */
  profileDir?: string
  /** `--plugin-dir`: where `admin.loadVMs` looks for VM plugins. Default `<node data dir>/plugins`. */
  pluginDir?: string
  /** `--log-level` (default INFO): what each node writes to `<node data dir>/logs/<logger>.log`. */
  logLevel?: LogLevelName
  /** `--log-display-level` (default: the log level): what is shown on `display`. */
  logDisplayLevel?: LogLevelName
  /** Where displayed log lines go (the CLI passes stderr); nowhere by default. */
  display?: DestinationStream
  /** `--health-check-frequency` in seconds of network time (default 30). */
  healthCheckFrequency?: number
  /**
   * Every node starts bootstrapping for this many seconds of network time (a `delayBootstrap` fault
   * from the start), so readiness reports 503 until the nodes are ready, as a freshly started node does.
   */
  bootstrapDelay?: number
}

export const DEFAULT_DATA_DIR = '.l1sim'

/** What a node needs of the network it belongs to (kept narrow so the node does not hold the network). */
export type NodeEnvironment = {
  preset: NetworkPreset
  faults: FaultState
  validators: ValidatorRegistry
  uptime: NetworkUptime
  now: () => number
  startedAt: number
  nodeIds: readonly string[]
  /** The EVM chains with their subnets: the C-chain (primary network) and every L1. */
  chains: readonly { chain: EvmChain; subnetId: string; l1Name?: string; blockchainId: string }[]
  /** Other chains with a health check (the X-chain, the P-chain), on the primary network. */
  otherChains: readonly ChainHealthSubject[]
  waits: WaitRecorder
}

/**
 * A simulated node: its identity, and the state a real node keeps for its own APIs — aliases,
 * loggers, profiler, VM registry, health checks, its view of peers (through the network's faults)
 * and of validators' uptime. Every node serves the same chains; what differs is this state.
 */
export class SimNode {
  readonly index: number
  readonly identity: NodeIdentity
  readonly nodeId: string
  readonly config: NodeConfig
  readonly aliases: NodeAliases
  readonly loggers: NodeLoggers
  readonly profiler: Profiler
  readonly vms: VmRegistry
  readonly health: NodeHealth
  readonly #env: NodeEnvironment
  #view: NodeHealthView

  constructor(init: { index: number; identity: NodeIdentity; options: NodeOptions; env: NodeEnvironment }) {
    const { index, identity, options, env } = init
    this.index = index
    this.identity = identity
    this.nodeId = identity.nodeId
    this.#env = env
    const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR, `node-${index}`)
    this.config = defaultNodeConfig(dataDir, {
      apiAdminEnabled: options.apiAdminEnabled ?? false,
      ...(options.profileDir ? { profileDir: resolve(options.profileDir, `node-${index}`) } : {}),
      ...(options.pluginDir ? { pluginDir: resolve(options.pluginDir) } : {}),
      ...(options.logLevel ? { logLevel: options.logLevel } : {}),
      ...(options.logDisplayLevel ? { logDisplayLevel: options.logDisplayLevel } : {}),
      healthCheckFrequency: (options.healthCheckFrequency ?? 30) * 1000,
      httpPort: 9650 + 2 * index,
      networkId: env.preset.networkId,
    })
    // diskspace measures this directory, so it exists from the start.
    mkdirSync(dataDir, { recursive: true })
    const l1s = env.chains.filter((c) => c.l1Name !== undefined).map((c) => ({ name: c.l1Name!, blockchainId: c.blockchainId }))
    this.aliases = createNodeAliases({
      pChainId: env.preset.pChainId,
      xChainId: env.preset.xChainId,
      cChainId: env.preset.cChainId,
      l1s,
      apiAdminEnabled: this.config.apiAdminEnabled,
    })
    this.loggers = createNodeLoggers({
      dir: join(dataDir, 'logs'),
      logLevel: this.config.logLevel,
      displayLevel: this.config.logDisplayLevel,
      ...(options.display ? { display: options.display } : {}),
      chains: ['P', 'X', 'C', ...l1s.map((l) => l.name)],
    })
    this.profiler = createProfiler({ dir: this.config.profileDir, waits: env.waits })
    this.vms = createVmRegistry({ pluginDir: this.config.pluginDir })
    this.health = createNodeHealth()
    this.#view = this.#healthView()
    registerNodeHealthChecks(this.health, {
      view: this.#view,
      chains: [
        ...env.otherChains.map((chain) => ({ chain, subnetId: PRIMARY_NETWORK_ID })),
        ...env.chains.map(({ chain, subnetId }) => ({ chain, subnetId })),
      ],
      // A one-node network runs as avalanchego runs without sybil protection: no peers is not a fault.
      network: { enabled: env.nodeIds.length > 1 },
    })
  }

  /**
   * Adds a chain started while the node runs (a subnet-EVM chain the P-chain created): its
   * aliases, its logger and its health check.
   */
  addChain(chain: EvmChain, subnetId: string, blockchainId: string): void {
    this.aliases.addL1({ name: chain.alias, blockchainId })
    if (!this.loggers.has(chain.alias)) this.loggers.make(chain.alias)
    this.health.registerHealthCheck(createChainCheck({ chain, subnetId, view: this.#view }))
  }

  /** Starts the health workers on the network clock (each runs its checks once now). */
  async start(clock: { now(): number; nowMs(): number }, frequencySeconds: number): Promise<void> {
    await this.health.start({ clock, frequencySeconds })
  }

  /**
   * Records the address the node's server listens on: the host it was given and the port it is
   * bound to (a free one when 0 was asked), which `admin.getConfig` and the staking port report.
   */
  serving(address: { host: string; port: number }): void {
    this.config.httpHost = address.host
    this.config.httpPort = address.port
  }

  /** The HTTP port: the one the node's server is bound to, once serving (`9650 + 2 × index` before). */
  get httpPort(): number {
    return this.config.httpPort
  }

  /** The staking (P2P) port: the HTTP port + 1, as avalanchego's 9650 / 9651. */
  get stakingPort(): number {
    return this.httpPort + 1
  }

  /** Whether this node can talk to node `other` (faults decide; a node always reaches itself). */
  isConnected(other: number): boolean {
    return this.#env.faults.linked(this.index, other)
  }

  isConnectedTo(nodeId: string): boolean {
    const other = this.#env.nodeIds.indexOf(nodeId)
    return other >= 0 && this.isConnected(other)
  }

  /** Whether this node is still bootstrapping (a `delayBootstrap` fault). */
  get bootstrapping(): boolean {
    return this.#env.faults.bootstrapping(this.index)
  }

  /** This node's view of validators' uptime on a subnet. */
  uptime(subnetId: string = PRIMARY_NETWORK_ID): UptimeTracker {
    return this.#env.uptime.tracker(this.index, subnetId)
  }

  /** Chain id (cb58) of an alias or id on this node; undefined when the node knows no such chain. */
  lookupChain(aliasOrId: string): string | undefined {
    try {
      return this.aliases.chains.lookup(aliasOrId)
    } catch {
      return undefined
    }
  }

  close(): void {
    this.health.stop()
    this.loggers.close()
    void this.profiler.close()
  }

  #healthView(): NodeHealthView {
    const env = this.#env
    const i = this.index
    const peers = () => env.nodeIds.reduce((n, _id, j) => n + (j !== i && env.faults.linked(i, j) ? 1 : 0), 0)
    // Peers gossip continuously: while connected, the last message is now; cut off, it is when the cut came.
    const lastMessageAt = () => {
      if (peers() > 0) return env.now()
      const cuts = env.faults.list().filter((f) => f.kind === 'disconnectNode')
      if (cuts.length === 0) return undefined
      return cuts.find((f) => f.node === i)?.since ?? Math.max(...cuts.map((f) => f.since))
    }
    return {
      connectedPeers: peers,
      ingressConnections: peers,
      isPrimaryNetworkValidator: () => env.validators.get(PRIMARY_NETWORK_ID).some((v) => v.nodeId === this.nodeId),
      startedAt: () => env.startedAt,
      lastMessageReceivedAt: lastMessageAt,
      lastMessageSentAt: lastMessageAt,
      sendFailRate: () => 0,
      subnetConnectivity: (subnetId) => {
        const validators = env.validators.get(subnetId)
        let total = 0n
        let connected = 0n
        const disconnected: string[] = []
        for (const v of validators) {
          total += v.weight
          if (this.isConnectedTo(v.nodeId)) connected += v.weight
          else disconnected.push(v.nodeId)
        }
        // A subnet without validators (none configured) is fully "connected", as a node sees no stake to miss.
        return { percentConnected: total === 0n ? 1 : Number(connected) / Number(total), disconnectedValidators: disconnected }
      },
      chainStalledSince: (alias) => env.faults.stalledSince(alias),
      bootstrappingSubnets: () =>
        env.faults.bootstrapping(i) ? [...new Set([PRIMARY_NETWORK_ID, ...env.chains.map((c) => c.subnetId)])] : [],
      databaseClosed: () => env.faults.databaseClosed(i),
      dataDir: () => this.config.dataDir,
      diskPercentOverride: () => env.faults.diskPercentOverride(i),
    }
  }
}
