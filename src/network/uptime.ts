import { sha256 } from '../core/sha256.js'
import { InvalidArgumentError, InvalidStateError, NotFoundError } from '../core/errors.js'
import { idFromString, idToString, parseNodeId } from '../core/ids.js'
import type { ValidatorEntry } from './validators.js'

/**
 * Validator uptime as one node measures it, on the virtual clock, with the semantics of
 * avalanchego `snow/uptime/manager.go` (`CalculateUptime`) and the state kept by
 * `vms/evm/uptimetracker` (subnet-evm's validators API) and the P-chain:
 *
 * - a validator enters with `upDuration = 0`, `lastUpdated = startTime`;
 * - before tracking starts, a validator counts as online since `lastUpdated`;
 * - once tracking, a connected validator gains `now − max(connectedAt, lastUpdated)`, a
 *   disconnected one gains nothing;
 * - starting or stopping tracking, and a disconnect while tracking, write the computed uptime
 *   back (`lastUpdated = now`); reading it changes nothing;
 * - a `now` before `lastUpdated` (time went backwards, e.g. after a snapshot revert) adds nothing;
 * - an inactive L1 validator (balance run out) is tracked but counts as offline whatever its
 *   connection; when it becomes active again it counts as online from then
 *   (`vms/evm/uptimetracker` `deactivate` / `activate`).
 *
 * Times are unix seconds (the node truncates its clock to seconds). Records are keyed by
 * validation id (what subnet-evm's API asks for); connections by node id, as the network
 * reports them. One tracker is one node's view of one validator set (one subnet); uptime is
 * local: two nodes can disagree.
 */

/** A validator as the tracker learns it from the validator set (`isActive` false: an inactive L1 validator). */
export type TrackedValidator = { id: string; nodeId: string; startTime: number; isActive?: boolean }

/** One validator's stored uptime (the tracker's "state"). */
export type UptimeRecord = { id: string; nodeId: string; startTime: number; upDuration: number; lastUpdated: number }

export type UptimeTrackerSnapshot = {
  started: boolean
  records: UptimeRecord[]
  /** Connected node ids and when they connected. */
  connections: [nodeId: string, connectedAt: number][]
  /** Node ids of inactive validators, which count as offline (absent in files that predate it). */
  deactivated?: string[]
}

export type Uptime = {
  /** Seconds the validator has been seen online. */
  upDurationSeconds: number
  /** The time the uptime is computed for: `now`, or the stored time if `now` is earlier. */
  lastUpdated: number
}

/** `--uptime-requirement` default (`genesis.LocalParams`, also mainnet and fuji): 80%. */
export const DEFAULT_UPTIME_REQUIREMENT = 0.8
/** `genesis.ACP267UptimeRequirement`: 90%, for validators that started after Helicon. */
export const ACP267_UPTIME_REQUIREMENT = 0.9

export class UptimeTracker {
  #started = false
  #records = new Map<string, UptimeRecord>()
  /** nodeId → validation id, as `nodeIDsToValidationIDs`. */
  #byNode = new Map<string, string>()
  #connections = new Map<string, number>()
  /** Inactive validators' node ids: their connections are not counted (`deactivatedValidators`). */
  #deactivated = new Set<string>()
  /**
   * The snapshot the state is equal to (the last one taken or restored), until the next change:
   * snapshots of an unchanged tracker share it, and restoring it onto an unchanged tracker is free.
   */
  #unchangedSince: UptimeTrackerSnapshot | undefined

  /** Whether tracking has started (`StartedTracking`). */
  get started(): boolean {
    return this.#started
  }

  /**
   * Adds a validator (`addNewValidator`): no uptime yet, last updated at its start; an inactive one
   * is deactivated at `now`. A known id is left as it is.
   */
  add(validator: TrackedValidator, now?: number): void {
    if (this.#records.has(validator.id)) return
    this.#unchangedSince = undefined
    checkTime(validator.startTime, 'startTime')
    const holder = this.#byNode.get(validator.nodeId)
    if (holder !== undefined)
      throw new InvalidArgumentError(`node ${validator.nodeId} is already tracked under validation ID ${holder}`)
    const { id, nodeId, startTime } = validator
    this.#records.set(id, { id, nodeId, startTime, upDuration: 0, lastUpdated: startTime })
    this.#byNode.set(nodeId, id)
    if (validator.isActive === false) this.#deactivate(nodeId, now ?? startTime)
  }

  remove(id: string): void {
    const record = this.#records.get(id)
    if (!record) return
    this.#unchangedSince = undefined
    this.#records.delete(id)
    this.#byNode.delete(record.nodeId)
    this.#deactivated.delete(record.nodeId)
  }

  /** Whether a node's validator is inactive (counted offline). */
  isDeactivated(nodeId: string): boolean {
    return this.#deactivated.has(nodeId)
  }

  has(id: string): boolean {
    return this.#records.has(id)
  }

  ids(): string[] {
    return [...this.#records.keys()]
  }

  /** The stored record (a copy) of a validation id. */
  record(id: string): UptimeRecord | undefined {
    const record = this.#records.get(id)
    return record && { ...record }
  }

  /**
   * Brings the records in line with the current validator set and starts tracking the first time,
   * as `UptimeTracker.Sync`: validators that left are dropped, new ones added (online since their
   * start until tracking begins), one whose activity changed is deactivated (offline from `now`) or
   * activated (online from `now`), then every record is brought up to `now` if tracking starts here.
   */
  sync(validators: readonly TrackedValidator[], now: number): void {
    checkTime(now, 'now')
    const current = new Set(validators.map((v) => v.id))
    for (const id of this.ids()) if (!current.has(id)) this.remove(id)
    for (const v of validators) {
      if (!this.#records.has(v.id)) {
        this.add(v, now)
        continue
      }
      const inactive = v.isActive === false
      if (inactive === this.#deactivated.has(v.nodeId)) continue
      if (inactive) this.#deactivate(v.nodeId, now)
      else this.#activate(v.nodeId, now)
    }
    if (!this.#started) this.startTracking(now)
  }

  /** `StartTracking`: every record is brought up to `now` (online since last update), then tracking begins. */
  startTracking(now: number): void {
    if (this.#started) throw new InvalidStateError('already started tracking')
    checkTime(now, 'now')
    this.#unchangedSince = undefined
    for (const record of this.#records.values()) this.#update(record, now)
    this.#started = true
  }

  /** `StopTracking`: every record is brought up to `now`; afterwards validators count as online again. */
  stopTracking(now: number): void {
    if (!this.#started) throw new InvalidStateError('not started tracking')
    checkTime(now, 'now')
    this.#unchangedSince = undefined
    for (const record of this.#records.values()) this.#update(record, now)
    this.#started = false
  }

  /**
   * `Connect`: the node counts as online from `now` (a node that is not a validator may connect
   * too); an inactive validator's connection is not counted.
   */
  connect(nodeId: string, now: number): void {
    checkTime(now, 'now')
    if (this.#deactivated.has(nodeId)) return
    this.#unchangedSince = undefined
    this.#connections.set(nodeId, now)
  }

  /** `Disconnect`: while tracking, the uptime so far is written back; the node then gains nothing. */
  disconnect(nodeId: string, now: number): void {
    checkTime(now, 'now')
    if (this.#deactivated.has(nodeId)) return
    this.#disconnect(nodeId, now)
  }

  /** `deactivate`: the validator counts as offline from `now` (its uptime so far written back). */
  #deactivate(nodeId: string, now: number): void {
    this.#unchangedSince = undefined
    this.#deactivated.add(nodeId)
    this.#disconnect(nodeId, now)
  }

  /** `activate`: the validator counts as online from `now`, as the node connects it whatever the network says. */
  #activate(nodeId: string, now: number): void {
    this.#unchangedSince = undefined
    this.#deactivated.delete(nodeId)
    this.#connections.set(nodeId, now)
  }

  #disconnect(nodeId: string, now: number): void {
    this.#unchangedSince = undefined
    if (this.#started) {
      const id = this.#byNode.get(nodeId)
      const record = id === undefined ? undefined : this.#records.get(id)
      if (record) this.#update(record, now)
    }
    this.#connections.delete(nodeId)
  }

  isConnected(nodeId: string): boolean {
    return this.#connections.has(nodeId)
  }

  /**
   * The uptime of a validation id at `now` (`UptimeTracker.GetUptime`).
   * @throws NotFoundError `validationID not found: <id>`
   */
  getUptime(id: string, now: number): Uptime {
    const record = this.#records.get(id)
    if (!record) throw new NotFoundError(`validationID not found: ${id}`)
    return this.#calculate(record, now)
  }

  /** The uptime of a node id at `now` (`CalculateUptime`); undefined when it is not a tracked validator. */
  uptimeOfNode(nodeId: string, now: number): Uptime | undefined {
    const id = this.#byNode.get(nodeId)
    const record = id === undefined ? undefined : this.#records.get(id)
    return record && this.#calculate(record, now)
  }

  /**
   * `CalculateUptimePercentFrom(nodeID, startTime)` as a fraction (0…1): uptime over the time since
   * `startTime` (the validator's start by default, as the P-chain's `CalculateUptimePercent`), 1
   * when no time has passed. Undefined when the node is not a tracked validator.
   */
  uptimeFraction(nodeId: string, now: number, startTime?: number): number | undefined {
    const id = this.#byNode.get(nodeId)
    const record = id === undefined ? undefined : this.#records.get(id)
    if (!record) return undefined
    const { upDurationSeconds, lastUpdated } = this.#calculate(record, now)
    const best = lastUpdated - (startTime ?? record.startTime)
    return best === 0 ? 1 : upDurationSeconds / best
  }

  /** The tracker's state as plain data (read-only: shared by the snapshots of an unchanged tracker). */
  snapshot(): UptimeTrackerSnapshot {
    this.#unchangedSince ??= {
      started: this.#started,
      records: [...this.#records.values()].map((r) => ({ ...r })),
      connections: [...this.#connections.entries()],
      deactivated: [...this.#deactivated],
    }
    return this.#unchangedSince
  }

  restore(snapshot: UptimeTrackerSnapshot): void {
    if (snapshot === this.#unchangedSince) return
    this.#unchangedSince = snapshot
    this.#started = snapshot.started
    this.#records = new Map(snapshot.records.map((r) => [r.id, { ...r }]))
    this.#byNode = new Map(snapshot.records.map((r) => [r.nodeId, r.id]))
    this.#connections = new Map(snapshot.connections)
    this.#deactivated = new Set(snapshot.deactivated ?? [])
  }

  static fromSnapshot(snapshot: UptimeTrackerSnapshot): UptimeTracker {
    const tracker = new UptimeTracker()
    tracker.restore(snapshot)
    return tracker
  }

  #calculate(record: UptimeRecord, now: number): Uptime {
    const { upDuration, lastUpdated } = record
    if (now < lastUpdated) return { upDurationSeconds: upDuration, lastUpdated }
    if (!this.#started) return { upDurationSeconds: upDuration + (now - lastUpdated), lastUpdated: now }
    const connectedAt = this.#connections.get(record.nodeId)
    if (connectedAt === undefined) return { upDurationSeconds: upDuration, lastUpdated: now }
    const since = Math.max(connectedAt, lastUpdated)
    if (now < since) return { upDurationSeconds: upDuration, lastUpdated: now }
    return { upDurationSeconds: upDuration + (now - since), lastUpdated: now }
  }

  #update(record: UptimeRecord, now: number): void {
    this.#unchangedSince = undefined
    const { upDurationSeconds, lastUpdated } = this.#calculate(record, now)
    record.upDuration = upDurationSeconds
    record.lastUpdated = lastUpdated
  }
}

function checkTime(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgumentError(`${what} must be unix seconds, got ${value}`)
}

/**
 * The validation id of a validator-set entry: its own `validationId` (an L1 validator), else a
 * stand-in for the AddSubnetValidator / AddValidator tx id a real node would show:
 * `cb58(sha256(subnetId bytes ‖ nodeId bytes))`, stable for a subnet and node.
 */
export function validationIdOf(subnetId: string, entry: Pick<ValidatorEntry, 'nodeId' | 'validationId'>): string {
  if (entry.validationId !== undefined) return entry.validationId
  const subnet = idFromString(subnetId)
  const node = parseNodeId(entry.nodeId)
  const bytes = new Uint8Array(subnet.length + node.length)
  bytes.set(subnet, 0)
  bytes.set(node, subnet.length)
  return idToString(sha256(bytes))
}

/** A subnet's validator set as the tracker's {@link UptimeTracker.sync} takes it. */
export function trackedValidators(subnetId: string, entries: readonly ValidatorEntry[]): TrackedValidator[] {
  return entries.map((e) => ({ id: validationIdOf(subnetId, e), nodeId: e.nodeId, startTime: Number(e.startTime), ...(e.isActive === false ? { isActive: false } : {}) }))
}

export type NetworkUptimeSnapshot = {
  trackers: [observer: number, subnetId: string, tracker: UptimeTrackerSnapshot][]
  /** Linked node pairs (`a <= b`) and since when. */
  links: [a: number, b: number, since: number][]
}

/**
 * Every node's trackers, one per (observing node, subnet): the whole network's uptime views in one
 * place, so connection changes and validator-set changes reach all of them and one snapshot
 * captures them. It remembers which nodes are linked, so a tracker created later (a new subnet)
 * starts with the current connections. Optional: the RPC handlers only need the {@link UptimeTracker}s.
 */
export class NetworkUptime {
  readonly #nodeIds: readonly string[]
  #trackers = new Map<string, UptimeTracker>()
  #links = new Map<string, number>()

  constructor(nodeIds: readonly string[]) {
    this.#nodeIds = nodeIds
  }

  /** The tracker of `observer` (node index) for a subnet, created on first use (not yet tracking). */
  tracker(observer: number, subnetId: string): UptimeTracker {
    this.#checkNode(observer)
    const key = `${observer}/${subnetId}`
    let tracker = this.#trackers.get(key)
    if (!tracker) {
      tracker = new UptimeTracker()
      for (let other = 0; other < this.#nodeIds.length; other++) {
        const since = this.#links.get(pairKey(observer, other))
        if (since !== undefined) tracker.connect(this.#nodeIds[other]!, since)
      }
      this.#trackers.set(key, tracker)
    }
    return tracker
  }

  /** Syncs every node's tracker of a subnet with its validator set (starting tracking the first time). */
  syncSubnet(subnetId: string, entries: readonly ValidatorEntry[], now: number): void {
    const validators = trackedValidators(subnetId, entries)
    for (let i = 0; i < this.#nodeIds.length; i++) this.tracker(i, subnetId).sync(validators, now)
  }

  isLinked(a: number, b: number): boolean {
    return this.#links.has(pairKey(a, b))
  }

  /**
   * Nodes `a` and `b` connect or disconnect: each one's trackers (every subnet) see the other
   * come or go. `a === b` is a node's connection to itself, which avalanchego also reports.
   * Linking a linked pair (or unlinking an unlinked one) changes nothing.
   */
  setLinked(a: number, b: number, linked: boolean, now: number): void {
    this.#checkNode(a)
    this.#checkNode(b)
    const key = pairKey(a, b)
    if (linked === this.#links.has(key)) return
    if (linked) this.#links.set(key, now)
    else this.#links.delete(key)
    for (const [trackerKey, tracker] of this.#trackers) {
      const observer = Number(trackerKey.slice(0, trackerKey.indexOf('/')))
      const other = observer === a ? b : observer === b ? a : undefined
      if (other === undefined) continue
      const nodeId = this.#nodeIds[other]!
      if (linked) tracker.connect(nodeId, now)
      else tracker.disconnect(nodeId, now)
    }
  }

  snapshot(): NetworkUptimeSnapshot {
    return {
      trackers: [...this.#trackers].map(([key, t]) => {
        const slash = key.indexOf('/')
        return [Number(key.slice(0, slash)), key.slice(slash + 1), t.snapshot()]
      }),
      links: [...this.#links].map(([key, since]) => {
        const [a, b] = key.split('/').map(Number)
        return [a!, b!, since]
      }),
    }
  }

  restore(snapshot: NetworkUptimeSnapshot): void {
    // A tracker that still exists is restored in place: one unchanged since the snapshot costs nothing.
    const old = this.#trackers
    this.#trackers = new Map(snapshot.trackers.map(([observer, subnetId, t]) => {
      const key = `${observer}/${subnetId}`
      const tracker = old.get(key)
      if (!tracker) return [key, UptimeTracker.fromSnapshot(t)]
      tracker.restore(t)
      return [key, tracker]
    }))
    this.#links = new Map(snapshot.links.map(([a, b, since]) => [pairKey(a, b), since]))
  }

  #checkNode(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.#nodeIds.length)
      throw new InvalidArgumentError(`node index must be from 0 to ${this.#nodeIds.length - 1}, got ${index}`)
  }
}

const pairKey = (a: number, b: number): string => (a <= b ? `${a}/${b}` : `${b}/${a}`)
