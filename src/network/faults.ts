import { InvalidArgumentError } from '../core/errors.js'
import { TypedEmitter } from '../core/events.js'

/** A fault injected into the simulated network, as `sim.faults` lists it. */
export type Fault =
  | { kind: 'disconnectNode'; node: number; since: number }
  | { kind: 'stallChain'; chain: string; since: number }
  | { kind: 'fillDisk'; node: number | undefined; availablePercentage: number; since: number }
  | { kind: 'closeDatabase'; node: number | undefined; since: number }
  | { kind: 'delayBootstrap'; node: number | undefined; until: number; since: number }
  | { kind: 'withholdWarpSignatures'; node: number; since: number }

type Events = { change: Fault[] }

/**
 * What is broken in the simulated network, and since when (network seconds). Health checks,
 * peers, uptime and the validators API read it; the network-control service (`sim.*`) and the
 * library change it. Faults are test-harness state, not chain state: a snapshot revert keeps
 * them, a reset clears them.
 */
export class FaultState {
  readonly events = new TypedEmitter<Events>()
  #faults: Fault[] = []
  readonly #nodeCount: number
  readonly #now: () => number

  constructor(options: { nodeCount: number; now: () => number }) {
    this.#nodeCount = options.nodeCount
    this.#now = options.now
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }))
  }

  /** Cuts a node off from every peer: it sees no one, and no one sees it. */
  disconnectNode(node: number): void {
    this.#checkNode(node)
    if (!this.isDisconnected(node)) this.#add({ kind: 'disconnectNode', node, since: this.#now() })
  }

  connectNode(node: number): void {
    this.#checkNode(node)
    this.#remove((f) => f.kind === 'disconnectNode' && f.node === node)
  }

  isDisconnected(node: number): boolean {
    return this.#faults.some((f) => f.kind === 'disconnectNode' && f.node === node)
  }

  /** Whether two nodes can talk (both up); a node is always "connected" to itself. */
  linked(a: number, b: number): boolean {
    return a === b || (!this.isDisconnected(a) && !this.isDisconnected(b))
  }

  /** The chain's last block stays "processing": consensus reports it and, after 30 s, fails. */
  stallChain(chain: string): void {
    if (!this.stalledSince(chain)) this.#add({ kind: 'stallChain', chain, since: this.#now() })
  }

  resumeChain(chain: string): void {
    this.#remove((f) => f.kind === 'stallChain' && f.chain === chain)
  }

  stalledSince(chain: string): number | undefined {
    const fault = this.#faults.find((f) => f.kind === 'stallChain' && f.chain === chain)
    return fault?.since
  }

  /** The data directory reports this much free space (a percentage) on one node or all. */
  fillDisk(availablePercentage: number, node?: number): void {
    if (!Number.isInteger(availablePercentage) || availablePercentage < 0 || availablePercentage > 100)
      throw new InvalidArgumentError(`availablePercentage must be an integer from 0 to 100, got ${availablePercentage}`)
    if (node !== undefined) this.#checkNode(node)
    this.#remove((f) => f.kind === 'fillDisk' && f.node === node)
    this.#add({ kind: 'fillDisk', node, availablePercentage, since: this.#now() })
  }

  clearDisk(node?: number): void {
    this.#remove((f) => f.kind === 'fillDisk' && (node === undefined || f.node === node))
  }

  /** The latest fillDisk that applies to the node (its own or a network-wide one) decides. */
  diskPercentOverride(node: number): number | undefined {
    for (let i = this.#faults.length - 1; i >= 0; i--) {
      const f = this.#faults[i]!
      if (f.kind === 'fillDisk' && (f.node === undefined || f.node === node)) return f.availablePercentage
    }
    return undefined
  }

  /** The node's database reports `closed`. */
  closeDatabase(node?: number): void {
    if (node !== undefined) this.#checkNode(node)
    this.#add({ kind: 'closeDatabase', node, since: this.#now() })
  }

  openDatabase(node?: number): void {
    this.#remove((f) => f.kind === 'closeDatabase' && (node === undefined || f.node === node))
  }

  databaseClosed(node: number): boolean {
    return this.#faults.some((f) => f.kind === 'closeDatabase' && (f.node === undefined || f.node === node))
  }

  /** The node (or every node) is still bootstrapping until `seconds` of network time have passed. */
  delayBootstrap(seconds: number, node?: number): void {
    if (!Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError(`seconds must be positive, got ${seconds}`)
    if (node !== undefined) this.#checkNode(node)
    const now = this.#now()
    this.#add({ kind: 'delayBootstrap', node, until: now + seconds, since: now })
  }

  bootstrapping(node: number): boolean {
    // Asked before every chain API request: without faults, no clock read nor closure.
    if (this.#faults.length === 0) return false
    const now = this.#now()
    return this.#faults.some((f) => f.kind === 'delayBootstrap' && (f.node === undefined || f.node === node) && now < f.until)
  }

  /** The node stays connected but answers no warp signature request (the aggregator counts its stake, not its signature). */
  withholdWarpSignatures(node: number): void {
    this.#checkNode(node)
    if (!this.withholdsWarpSignatures(node)) this.#add({ kind: 'withholdWarpSignatures', node, since: this.#now() })
  }

  /** Lifts a withholdWarpSignatures fault. */
  resumeWarpSignatures(node: number): void {
    this.#checkNode(node)
    this.#remove((f) => f.kind === 'withholdWarpSignatures' && f.node === node)
  }

  withholdsWarpSignatures(node: number): boolean {
    return this.#faults.some((f) => f.kind === 'withholdWarpSignatures' && f.node === node)
  }

  clear(): void {
    if (this.#faults.length === 0) return
    this.#faults = []
    this.events.emit('change', [])
  }

  /** Replaces every fault with a saved list (loading a file snapshot), announced as one change. */
  restore(faults: readonly Fault[]): void {
    for (const f of faults) if ('node' in f && f.node !== undefined) this.#checkNode(f.node)
    this.#faults = faults.map((f) => ({ ...f }))
    this.events.emit('change', this.list())
  }

  #checkNode(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.#nodeCount)
      throw new InvalidArgumentError(`node ${node} does not exist (the network has ${this.#nodeCount} nodes)`)
  }

  #add(fault: Fault): void {
    this.#faults.push(fault)
    this.events.emit('change', this.list())
  }

  #remove(match: (f: Fault) => boolean): void {
    const before = this.#faults.length
    this.#faults = this.#faults.filter((f) => !match(f))
    if (this.#faults.length !== before) this.events.emit('change', this.list())
  }
}
