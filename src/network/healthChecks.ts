import { statfsSync } from 'node:fs'
import { cb58Encode } from '../core/cb58.js'
import type { Hex } from '../core/hex.js'
import { APPLICATION_TAG, type HealthCheck, type HealthCheckOutcome, type NodeHealth } from './health.js'
import { formatGoDuration } from './goTime.js'

/**
 * The checks an avalanchego node registers (node.go `initHealthAPI`, chains/manager.go,
 * snow/networking/handler/health.go, network.go, chain_router.go), with their details and error
 * texts. Each factory reads a small slice of {@link NodeHealthView}, which the simulated node
 * implements over its state and the injected faults. Times are virtual unix seconds.
 */

/** What the checks read from one simulated node. Every member is read at check time, never cached. */
export type NodeHealthView = {
  /** Peers this node is connected to (`network` → `connectedPeers`). */
  connectedPeers(): number
  /** How many of those connections the peer dialled (checked once the node is past the no-ingress grace period). */
  ingressConnections(): number
  /** Whether this node is a current primary-network validator (the no-ingress check only fails for one). */
  isPrimaryNetworkValidator(): boolean
  /** Virtual unix seconds the node started at (the no-ingress part appears 10 minutes later). */
  startedAt(): number
  /** Virtual unix seconds of the last message received from a peer; undefined if none ever was. */
  lastMessageReceivedAt(): number | undefined
  /** Virtual unix seconds of the last message sent to a peer; undefined if none ever was. */
  lastMessageSentAt(): number | undefined
  /** Share of sends that failed, 0 to 1 (an averaged rate in avalanchego). */
  sendFailRate(): number
  /**
   * The node's view of a subnet's validator set: connected stake over total stake (0 to 1), and
   * the NodeIDs (`NodeID-…`) of validators it is not connected to (order free; sorted here).
   */
  subnetConnectivity(subnetId: string): { percentConnected: number; disconnectedValidators: readonly string[] }
  /** Virtual unix seconds since which a block of the chain (by alias) has been processing without being decided; undefined when none is. */
  chainStalledSince(alias: string): number | undefined
  /** Subnet ids this node is still bootstrapping (empty when done). A bootstrapping subnet's chains report the bootstrapper's details. */
  bootstrappingSubnets(): readonly string[]
  /** True when the node's database is closed (the `database` check fails with `closed`). */
  databaseClosed(): boolean
  /** Directory whose file system `diskspace` measures with statfs (the node's data directory). */
  dataDir(): string
  /** An injected available-disk percentage that replaces the measured one; undefined for the real value. */
  diskPercentOverride(): number | undefined
}

/** Go's `%f` (6 decimals) or `%.Nf`, rounding the exact binary value half to even as strconv does. */
export function goFormatFixed(x: number, prec = 6): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf'
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const negative = bits >> 63n === 1n
  const exponentBits = Number((bits >> 52n) & 0x7ffn)
  let mantissa = bits & ((1n << 52n) - 1n)
  if (exponentBits !== 0) mantissa |= 1n << 52n
  const exponent = (exponentBits === 0 ? 1 : exponentBits) - 1075
  const scaled = mantissa * 10n ** BigInt(prec)
  let q: bigint
  if (exponent >= 0) q = scaled << BigInt(exponent)
  else {
    const shift = BigInt(-exponent)
    q = scaled >> shift
    const rest = scaled - (q << shift)
    const half = 1n << (shift - 1n)
    if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n
  }
  const digits = q.toString().padStart(prec + 1, '0')
  const text = prec === 0 ? digits : `${digits.slice(0, -prec)}.${digits.slice(-prec)}`
  return negative ? `-${text}` : text
}

/** Go's `%g` with no precision: shortest digits; exponent form (`1e-05`, `1.5e+06`) when the exponent is below -4 or at least 6. */
export function goFormatG(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf'
  const sign = x < 0 || Object.is(x, -0) ? '-' : ''
  if (x === 0) return `${sign}0`
  const [mantissa, exponentText] = Math.abs(x).toExponential().split('e') as [string, string]
  const digits = mantissa.replace('.', '')
  const exp = Number(exponentText)
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0')
  const frac = digits.slice(exp + 1)
  return `${sign}${int}${frac ? `.${frac}` : ''}`
}

/** Virtual seconds between two instants as Go nanoseconds (millisecond resolution, the clock's). */
const elapsedNanos = (from: number, to: number): bigint => BigInt(Math.round(to * 1000) - Math.round(from * 1000)) * 1_000_000n
const secondsNanos = (seconds: number): bigint => BigInt(Math.round(seconds * 1000)) * 1_000_000n

// ---------------------------------------------------------------------------------------------
// network (network/network.go HealthCheck)

/** `--network-health-*` and `--network-no-ingress-connections-grace-period`, with their defaults. */
export type NetworkHealthConfig = {
  /** `HealthConfig.Enabled`: false when sybil protection is off; the check then never fails. */
  enabled: boolean
  minConnectedPeers: number
  maxTimeSinceMsgReceived: number
  maxTimeSinceMsgSent: number
  maxSendFailRate: number
  noIngressGracePeriod: number
}

export const DEFAULT_NETWORK_HEALTH_CONFIG: NetworkHealthConfig = {
  enabled: true,
  minConnectedPeers: 1,
  maxTimeSinceMsgReceived: 60,
  maxTimeSinceMsgSent: 60,
  maxSendFailRate: 0.9,
  noIngressGracePeriod: 600,
}

export type NetworkHealthInput = Pick<
  NodeHealthView,
  'connectedPeers' | 'ingressConnections' | 'isPrimaryNetworkValidator' | 'startedAt' | 'lastMessageReceivedAt' | 'lastMessageSentAt' | 'sendFailRate'
>

/** The `network` check: peers, message recency, send failure rate, and (after the grace period) inbound connections of a validator. */
export function createNetworkCheck(view: NetworkHealthInput, config: Partial<NetworkHealthConfig> = {}): HealthCheck {
  const cfg = { ...DEFAULT_NETWORK_HEALTH_CONFIG, ...config }
  return {
    name: 'network',
    tags: [APPLICATION_TAG],
    check: ({ now }) => {
      const connectedPeers = view.connectedPeers()
      const sendFailRate = view.sendFailRate()
      const isConnected = connectedPeers >= cfg.minConnectedPeers
      const details: Record<string, unknown> = { connectedPeers }

      const receivedAt = view.lastMessageReceivedAt()
      const sinceReceived = receivedAt === undefined ? 0n : elapsedNanos(receivedAt, now)
      const receivedRecently = receivedAt !== undefined && sinceReceived <= secondsNanos(cfg.maxTimeSinceMsgReceived)
      if (receivedAt !== undefined) details.timeSinceLastMsgReceived = formatGoDuration(sinceReceived)

      const sentAt = view.lastMessageSentAt()
      const sinceSent = sentAt === undefined ? 0n : elapsedNanos(sentAt, now)
      const sentRecently = sentAt !== undefined && sinceSent <= secondsNanos(cfg.maxTimeSinceMsgSent)
      if (sentAt !== undefined) details.timeSinceLastMsgSent = formatGoDuration(sinceSent)

      const failRateOk = sendFailRate <= cfg.maxSendFailRate
      details.sendFailRate = sendFailRate

      let reachable = true
      if (elapsedNanos(view.startedAt(), now) > secondsNanos(cfg.noIngressGracePeriod)) {
        const ingressConnectionCount = view.ingressConnections()
        const primaryNetworkValidator = view.isPrimaryNetworkValidator()
        reachable = ingressConnectionCount > 0 || !primaryNetworkValidator
        details['primary network validator health'] = { ingressConnectionCount, primaryNetworkValidator }
      }

      if ((isConnected && receivedRecently && sentRecently && failRateOk && reachable) || !cfg.enabled) return { details }

      const reasons: string[] = []
      if (!isConnected) reasons.push(`not connected to a minimum of ${cfg.minConnectedPeers} peer(s) only ${connectedPeers}`)
      if (receivedAt === undefined) reasons.push('no messages received from network')
      else if (!receivedRecently)
        reasons.push(`no messages from network received in ${formatGoDuration(sinceReceived)} > ${formatGoDuration(secondsNanos(cfg.maxTimeSinceMsgReceived))}`)
      if (sentAt === undefined) reasons.push('no messages sent to network')
      else if (!sentRecently)
        reasons.push(`no messages from network sent in ${formatGoDuration(sinceSent)} > ${formatGoDuration(secondsNanos(cfg.maxTimeSinceMsgSent))}`)
      if (!failRateOk) reasons.push(`messages failure send rate ${goFormatG(sendFailRate)} > ${goFormatG(cfg.maxSendFailRate)}`)
      if (!reachable) reasons.push('primary network validator has no inbound connections')
      return { details, error: `network layer is unhealthy reason: ${reasons.join(', ')}` }
    },
  }
}

// ---------------------------------------------------------------------------------------------
// router (snow/networking/router/chain_router.go HealthCheck)

/** Requests the node has sent and is waiting on. The simulation has none unless a fault adds some. */
export type RouterHealthInput = { outstandingRequests(): { count: number; oldestSince?: number } }

/** `--router-health-max-outstanding-requests` (1024) and `--network-health-max-outstanding-request-duration` (5m). */
export type RouterHealthConfig = { maxOutstandingRequests: number; maxOutstandingDuration: number }

export const DEFAULT_ROUTER_HEALTH_CONFIG: RouterHealthConfig = { maxOutstandingRequests: 1024, maxOutstandingDuration: 300 }

/** The `router` check: `{"longestRunningRequest":"0s","outstandingRequests":0}` on an idle node. */
export function createRouterCheck(input?: RouterHealthInput, config: Partial<RouterHealthConfig> = {}): HealthCheck {
  const cfg = { ...DEFAULT_ROUTER_HEALTH_CONFIG, ...config }
  return {
    name: 'router',
    tags: [APPLICATION_TAG],
    check: ({ now }) => {
      const { count, oldestSince } = input?.outstandingRequests() ?? { count: 0 }
      const running = oldestSince === undefined ? 0n : elapsedNanos(oldestSince, now)
      const details = { longestRunningRequest: formatGoDuration(running), outstandingRequests: count }
      const reasons: string[] = []
      if (count > cfg.maxOutstandingRequests) reasons.push(`number of outstanding requests ${count} > ${cfg.maxOutstandingRequests}`)
      if (running > secondsNanos(cfg.maxOutstandingDuration))
        reasons.push(`time for outstanding requests ${formatGoDuration(running)} > ${formatGoDuration(secondsNanos(cfg.maxOutstandingDuration))}`)
      return reasons.length === 0 ? { details } : { details, error: `the router is not healthy reason: ${reasons.join(', ')}` }
    },
  }
}

// ---------------------------------------------------------------------------------------------
// database, diskspace, bootstrapped

/** The `database` check: no details (no `message` key); error `closed` while the database is closed. */
export function createDatabaseCheck(view: Pick<NodeHealthView, 'databaseClosed'>): HealthCheck {
  return { name: 'database', tags: [APPLICATION_TAG], check: () => (view.databaseClosed() ? { error: 'closed' } : {}) }
}

/** `--system-tracker-disk-required-available-space-percentage` (3) and `…-warning-…` (10). */
export type DiskSpaceConfig = { requiredPercentage: number; warningPercentage: number }

export const DEFAULT_DISK_SPACE_CONFIG: DiskSpaceConfig = { requiredPercentage: 3, warningPercentage: 10 }

/** Free space as `storage.AvailableBytes` computes it: `Bavail*Bsize` bytes and the integer `Bavail*100/Blocks`. */
export function measureDiskSpace(dir: string): { availableDiskBytes: bigint; availableDiskPercentage: bigint; totalBytes: bigint } {
  const stat = statfsSync(dir, { bigint: true })
  if (stat.blocks === 0n) throw new Error('available blocks is reported as 0')
  return {
    availableDiskBytes: stat.bavail * stat.bsize,
    availableDiskPercentage: (stat.bavail * 100n) / stat.blocks,
    totalBytes: stat.blocks * stat.bsize,
  }
}

/**
 * The `diskspace` check on the real file system of `view.dataDir()`. A failed statfs keeps the
 * last values (0 and 0 before any), as the resource tracker does. An injected percentage
 * replaces the measured one, and the bytes are scaled to match it.
 */
export function createDiskSpaceCheck(view: Pick<NodeHealthView, 'dataDir' | 'diskPercentOverride'>, config: Partial<DiskSpaceConfig> = {}): HealthCheck {
  const cfg = { ...DEFAULT_DISK_SPACE_CONFIG, ...config }
  let last = { bytes: 0n, percentage: 0n, total: 0n }
  return {
    name: 'diskspace',
    tags: [APPLICATION_TAG],
    check: () => {
      try {
        const m = measureDiskSpace(view.dataDir())
        last = { bytes: m.availableDiskBytes, percentage: m.availableDiskPercentage, total: m.totalBytes }
      } catch {
        // keep the last measurement
      }
      let { bytes, percentage } = last
      const override = view.diskPercentOverride()
      if (override !== undefined) {
        percentage = BigInt(Math.trunc(override))
        bytes = (last.total * percentage) / 100n
      }
      const details = { availableDiskBytes: Number(bytes), availableDiskPercentage: Number(percentage) }
      const p = Number(percentage)
      if (p < cfg.requiredPercentage)
        return { details, error: `remaining available disk space percentage (${p}%) is below minimum required available space percentage (${cfg.requiredPercentage}%)` }
      if (p < cfg.warningPercentage)
        return { details, error: `remaining available disk space percentage (${p}%) is below warning threshold available space percentage (${cfg.warningPercentage}%)` }
      return { details }
    },
  }
}

/**
 * The `bootstrapped` check (registered for readiness, monotonic, and for health): `[]` when
 * done, else the ids of the subnets still bootstrapping (sorted; Go lists them in map order)
 * with error `subnets not bootstrapped`.
 */
export function createBootstrappedCheck(view: Pick<NodeHealthView, 'bootstrappingSubnets'>): Omit<HealthCheck, 'monotonic'> {
  return {
    name: 'bootstrapped',
    tags: [APPLICATION_TAG],
    check: () => {
      const subnets = [...view.bootstrappingSubnets()].sort()
      return subnets.length === 0 ? { details: [] } : { details: subnets, error: 'subnets not bootstrapped' }
    },
  }
}

// ---------------------------------------------------------------------------------------------
// chains (snow/networking/handler/health.go, snow/engine/snowman/engine.go, topological.go)

/** The consensus parameters the chain check uses (`snowball.DefaultParameters`). */
export type SnowHealthParameters = { k: number; alphaConfidence: number; maxOutstandingItems: number; maxItemProcessingTime: number }

export const DEFAULT_SNOW_HEALTH_PARAMETERS: SnowHealthParameters = { k: 20, alphaConfidence: 15, maxOutstandingItems: 256, maxItemProcessingTime: 30 }

/** `Parameters.MinPercentConnectedHealthy`: `alphaConfidence/k*(1-0.2)+0.2`, 0.8 with the defaults, computed as Go does. */
export function minPercentConnectedHealthy(params: Pick<SnowHealthParameters, 'k' | 'alphaConfidence'>): number {
  const buffer = 0.2
  return (params.alphaConfidence / params.k) * (1 - buffer) + buffer
}

/** An EVM chain as the check reads it; an `EvmChain` fits. `head` is read at every run. */
export type ChainHealthSubject = { alias: string; readonly head: { number: bigint; hash: Hex } }

export type ChainCheckOptions = {
  chain: ChainHealthSubject
  /** The chain's subnet id: the check's tag. */
  subnetId: string
  view: Pick<NodeHealthView, 'subnetConnectivity' | 'chainStalledSince' | 'bootstrappingSubnets'>
  /** Check name; the chain's alias by default (`C`, an L1's name). */
  name?: string
  params?: Partial<SnowHealthParameters>
}

/**
 * A chain's check, tagged with its subnet id. Details:
 * `{"engine":{"consensus":{…},"vm":null},"networking":{"disconnectedValidators":[…],"percentConnected":f}}`.
 * A stalled chain has one block processing since the stall began, and fails once that exceeds
 * 30s (`block processing too long: 31s > 30s`). Too little connected stake fails the networking
 * half. Both: `engine: <e>; networking: <e>`.
 */
export function createChainCheck(options: ChainCheckOptions): HealthCheck {
  const params = { ...DEFAULT_SNOW_HEALTH_PARAMETERS, ...options.params }
  const minConnected = minPercentConnectedHealthy(params)
  const { chain, subnetId, view } = options
  // The head's id in cb58, encoded again only when the head moved (checks run every 30s of virtual time, on every node).
  let encodedHash: Hex | undefined
  let encodedId = ''
  const idOf = (hash: Hex): string => {
    if (hash !== encodedHash) {
      encodedId = cb58Encode(Buffer.from(hash.slice(2), 'hex'))
      encodedHash = hash
    }
    return encodedId
  }
  return {
    name: options.name ?? chain.alias,
    tags: [subnetId],
    check: ({ now }) => {
      let engine: { details: unknown; error?: string }
      if (view.bootstrappingSubnets().includes(subnetId)) engine = { details: { consensus: {}, vm: null } }
      else {
        const consensus = consensusHealth(chain, view.chainStalledSince(chain.alias), now, params, idOf)
        // The VMs (coreth, subnet-evm) report nil details and no error, so the engine passes consensus' error through.
        engine = { details: { consensus: consensus.details, vm: null }, ...(consensus.error !== undefined ? { error: consensus.error } : {}) }
      }
      const networking = networkingHealth(view.subnetConnectivity(subnetId), minConnected)
      const details = { engine: engine.details, networking: networking.details }
      return { details, ...combine(engine.error, networking.error) }
    },
  }
}

function combine(engineError: string | undefined, networkingError: string | undefined): Pick<HealthCheckOutcome, 'error'> {
  if (engineError === undefined) return networkingError === undefined ? {} : { error: networkingError }
  if (networkingError === undefined) return { error: engineError }
  return { error: `engine: ${engineError}; networking: ${networkingError}` }
}

function consensusHealth(
  chain: ChainHealthSubject,
  stalledSince: number | undefined,
  now: number,
  params: SnowHealthParameters,
  idOf: (hash: Hex) => string,
): { details: unknown; error?: string } {
  const head = chain.head
  const processingBlocks = stalledSince === undefined ? 0 : 1
  const longest = stalledSince === undefined ? 0n : elapsedNanos(stalledSince, now)
  const errors: string[] = []
  if (processingBlocks > params.maxOutstandingItems) errors.push(`too many processing blocks: ${processingBlocks} > ${params.maxOutstandingItems}`)
  const limit = secondsNanos(params.maxItemProcessingTime)
  if (longest > limit) errors.push(`block processing too long: ${formatGoDuration(longest)} > ${formatGoDuration(limit)}`)
  const details = {
    lastAcceptedHeight: Number(head.number),
    lastAcceptedID: idOf(head.hash),
    longestProcessingBlock: formatGoDuration(longest),
    processingBlocks,
  }
  // errors.Join writes one error per line.
  return errors.length === 0 ? { details } : { details, error: errors.join('\n') }
}

function networkingHealth(connectivity: ReturnType<NodeHealthView['subnetConnectivity']>, minConnected: number): { details: unknown; error?: string } {
  const { percentConnected } = connectivity
  const details = { disconnectedValidators: [...connectivity.disconnectedValidators].sort(), percentConnected }
  if (percentConnected >= minConnected) return { details }
  return {
    details,
    error: `not connected to enough stake: connected to ${goFormatFixed(percentConnected * 100)}%; required at least ${goFormatFixed(minConnected * 100)}%`,
  }
}

// ---------------------------------------------------------------------------------------------

export type NodeHealthChecksOptions = {
  view: NodeHealthView
  /** The node's EVM chains with their subnet ids (C: the primary network). */
  chains: readonly { chain: ChainHealthSubject; subnetId: string; name?: string }[]
  router?: RouterHealthInput
  network?: Partial<NetworkHealthConfig>
  disk?: Partial<DiskSpaceConfig>
  snow?: Partial<SnowHealthParameters>
}

/**
 * Registers what avalanchego registers: health gets `network`, `router`, `database`,
 * `diskspace`, `bootstrapped` and one check per chain; readiness gets `bootstrapped`
 * (monotonic); liveness nothing.
 */
export function registerNodeHealthChecks(health: NodeHealth, options: NodeHealthChecksOptions): void {
  const { view } = options
  health.registerHealthCheck(createNetworkCheck(view, options.network))
  health.registerHealthCheck(createRouterCheck(options.router))
  health.registerHealthCheck(createDatabaseCheck(view))
  health.registerHealthCheck(createDiskSpaceCheck(view, options.disk))
  health.registerReadinessCheck(createBootstrappedCheck(view))
  health.registerHealthCheck(createBootstrappedCheck(view))
  for (const { chain, subnetId, name } of options.chains)
    health.registerHealthCheck(createChainCheck({ chain, subnetId, view, ...(name !== undefined ? { name } : {}), ...(options.snow ? { params: options.snow } : {}) }))
}
