import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { InvalidStateError, NotFoundError } from '../../src/core/errors.js'
import { EMPTY_ID, idFromString, idToString, nodeIdToString, parseNodeId } from '../../src/core/ids.js'
import { NetworkUptime, UptimeTracker, trackedValidators, validationIdOf } from '../../src/network/uptime.js'
import { expectThrows } from '../helpers/expectThrows.js'

const T0 = 1_767_225_600
const node = (i: number) => nodeIdToString(new Uint8Array(20).fill(i + 1))
const A = node(0)
const B = node(1)

describe('UptimeTracker', () => {
  it('counts a validator as online from its start until tracking starts', () => {
    const t = new UptimeTracker()
    t.add({ id: 'va', nodeId: A, startTime: T0 - 1000 })
    expect(t.started).toBe(false)
    expect(t.getUptime('va', T0)).toEqual({ upDurationSeconds: 1000, lastUpdated: T0 })
    // Reading does not store anything.
    expect(t.record('va')).toEqual({ id: 'va', nodeId: A, startTime: T0 - 1000, upDuration: 0, lastUpdated: T0 - 1000 })
  })

  it('after tracking starts, only connected time counts (connect, disconnect, reconnect)', () => {
    const t = new UptimeTracker()
    t.add({ id: 'va', nodeId: A, startTime: T0 - 100 })
    t.startTracking(T0)
    expect(t.record('va')).toMatchObject({ upDuration: 100, lastUpdated: T0 })
    // Not connected: time passes, nothing gained.
    expect(t.getUptime('va', T0 + 50)).toEqual({ upDurationSeconds: 100, lastUpdated: T0 + 50 })
    t.connect(A, T0 + 50)
    expect(t.isConnected(A)).toBe(true)
    expect(t.getUptime('va', T0 + 80)).toEqual({ upDurationSeconds: 130, lastUpdated: T0 + 80 })
    t.disconnect(A, T0 + 120)
    expect(t.isConnected(A)).toBe(false)
    expect(t.record('va')).toMatchObject({ upDuration: 170, lastUpdated: T0 + 120 })
    expect(t.getUptime('va', T0 + 500)).toEqual({ upDurationSeconds: 170, lastUpdated: T0 + 500 })
    t.connect(A, T0 + 500)
    expect(t.getUptime('va', T0 + 530)).toEqual({ upDurationSeconds: 200, lastUpdated: T0 + 530 })
    // Fraction from the validator's start: 200 up out of 630.
    expect(t.uptimeFraction(A, T0 + 530)).toBe(200 / 630)
    expect(t.uptimeFraction(A, T0 + 530, T0)).toBe(200 / 530)
    expect(t.uptimeFraction(B, T0 + 530)).toBeUndefined()
  })

  it('does not count a connection twice: time before the last update is not added again', () => {
    const t = new UptimeTracker()
    t.add({ id: 'va', nodeId: A, startTime: T0 })
    t.connect(A, T0) // connected before tracking starts
    t.startTracking(T0 + 60) // online-since-start: 60 s, last updated T0+60
    expect(t.getUptime('va', T0 + 100)).toEqual({ upDurationSeconds: 100, lastUpdated: T0 + 100 })
  })

  it('adds nothing when time runs backwards', () => {
    const t = new UptimeTracker()
    t.add({ id: 'va', nodeId: A, startTime: T0 })
    t.connect(A, T0)
    t.startTracking(T0 + 100)
    expect(t.getUptime('va', T0 + 40)).toEqual({ upDurationSeconds: 100, lastUpdated: T0 + 100 })
    // Connected after lastUpdated but queried before the connection: nothing gained, now returned.
    t.disconnect(A, T0 + 100)
    t.connect(A, T0 + 200)
    expect(t.getUptime('va', T0 + 150)).toEqual({ upDurationSeconds: 100, lastUpdated: T0 + 150 })
  })

  it('counts 1 (100%) when no time has passed since the start', () => {
    const t = new UptimeTracker()
    t.add({ id: 'va', nodeId: A, startTime: T0 })
    t.startTracking(T0)
    expect(t.uptimeFraction(A, T0)).toBe(1)
  })

  it('stopTracking writes the uptime back and counts validators as online again', () => {
    const t = new UptimeTracker()
    t.add({ id: 'va', nodeId: A, startTime: T0 })
    t.startTracking(T0)
    t.stopTracking(T0 + 10)
    expect(t.record('va')).toMatchObject({ upDuration: 0, lastUpdated: T0 + 10 })
    expect(t.getUptime('va', T0 + 30)).toEqual({ upDurationSeconds: 20, lastUpdated: T0 + 30 })
    expectThrows(() => t.stopTracking(T0 + 30), InvalidStateError, 'not started tracking')
    t.startTracking(T0 + 30)
    expectThrows(() => t.startTracking(T0 + 30), InvalidStateError, 'already started tracking')
  })

  it('reports an unknown validation id as subnet-evm does', () => {
    const t = new UptimeTracker()
    expectThrows(() => t.getUptime('nope', T0), NotFoundError, 'validationID not found: nope')
    expect(t.uptimeOfNode(A, T0)).toBeUndefined()
  })

  it('sync adds new validators, drops departed ones and starts tracking once', () => {
    const t = new UptimeTracker()
    t.sync([{ id: 'va', nodeId: A, startTime: T0 - 10 }], T0)
    expect(t.started).toBe(true)
    expect(t.record('va')).toMatchObject({ upDuration: 10, lastUpdated: T0 })
    t.sync([{ id: 'vb', nodeId: B, startTime: T0 + 5 }], T0 + 5)
    expect(t.ids()).toEqual(['vb'])
    expect(t.has('va')).toBe(false)
    // Added while tracking and not connected: no uptime.
    expect(t.getUptime('vb', T0 + 20)).toEqual({ upDurationSeconds: 0, lastUpdated: T0 + 20 })
    // The node id is free again for a new validation.
    t.sync([{ id: 'vb', nodeId: B, startTime: T0 + 5 }, { id: 'va2', nodeId: A, startTime: T0 + 5 }], T0 + 20)
    expect(t.ids()).toEqual(['vb', 'va2'])
  })

  it('snapshots to plain data and restores', () => {
    const t = new UptimeTracker()
    t.sync([{ id: 'va', nodeId: A, startTime: T0 }], T0)
    t.connect(A, T0)
    const snap = JSON.parse(JSON.stringify(t.snapshot()))
    t.disconnect(A, T0 + 50)
    expect(t.getUptime('va', T0 + 100).upDurationSeconds).toBe(50)
    t.restore(snap)
    expect(t.getUptime('va', T0 + 100).upDurationSeconds).toBe(100)
    expect(UptimeTracker.fromSnapshot(snap).getUptime('va', T0 + 10).upDurationSeconds).toBe(10)
    expect(snap).toEqual({
      started: true,
      records: [{ id: 'va', nodeId: A, startTime: T0, upDuration: 0, lastUpdated: T0 }],
      connections: [[A, T0]],
      deactivated: [],
    })
  })

  it('an inactive validator counts as offline whatever its connection, and as online again once reactivated', () => {
    const t = new UptimeTracker()
    t.connect(A, T0)
    t.sync([{ id: 'va', nodeId: A, startTime: T0 }], T0)
    expect(t.getUptime('va', T0 + 100).upDurationSeconds).toBe(100)
    // Its balance runs out at T0+100: what it had is kept, nothing more is gained while connected.
    t.sync([{ id: 'va', nodeId: A, startTime: T0, isActive: false }], T0 + 100)
    expect(t.isDeactivated(A)).toBe(true)
    expect(t.getUptime('va', T0 + 300)).toEqual({ upDurationSeconds: 100, lastUpdated: T0 + 300 })
    // Network connections come and go without counting.
    t.disconnect(A, T0 + 150)
    t.connect(A, T0 + 160)
    expect(t.getUptime('va', T0 + 300).upDurationSeconds).toBe(100)
    // Topped up at T0+300: online from then (the node connects it, as subnet-evm's tracker does).
    t.sync([{ id: 'va', nodeId: A, startTime: T0 }], T0 + 300)
    expect(t.isDeactivated(A)).toBe(false)
    expect(t.getUptime('va', T0 + 400).upDurationSeconds).toBe(200)
    expect(t.uptimeFraction(A, T0 + 400)).toBe(0.5)
    // A restored snapshot keeps the state; one from before the field existed has none.
    t.sync([{ id: 'va', nodeId: A, startTime: T0, isActive: false }], T0 + 400)
    expect(UptimeTracker.fromSnapshot(JSON.parse(JSON.stringify(t.snapshot()))).isDeactivated(A)).toBe(true)
    const { deactivated: _, ...older } = t.snapshot()
    expect(UptimeTracker.fromSnapshot(older).isDeactivated(A)).toBe(false)
  })

  it('a validator inactive when first seen gains nothing once tracking starts', () => {
    const t = new UptimeTracker()
    t.connect(A, T0)
    t.sync([{ id: 'va', nodeId: A, startTime: T0 - 50, isActive: false }], T0)
    // Online since its start until tracking began (as any validator), offline afterwards.
    expect(t.getUptime('va', T0 + 100)).toEqual({ upDurationSeconds: 50, lastUpdated: T0 + 100 })
  })
})

describe('validationIdOf', () => {
  it('uses the entry validation id, else cb58(sha256(subnet ‖ node))', () => {
    expect(validationIdOf(EMPTY_ID, { nodeId: A, validationId: 'given' })).toBe('given')
    const subnet = idToString(new Uint8Array(32).fill(7))
    const expected = idToString(
      new Uint8Array(createHash('sha256').update(idFromString(subnet)).update(parseNodeId(A)).digest()),
    )
    expect(validationIdOf(subnet, { nodeId: A })).toBe(expected)
    expect(validationIdOf(EMPTY_ID, { nodeId: A })).not.toBe(expected)
    expect(trackedValidators(subnet, [{ nodeId: A, weight: 1n, blsPublicKey: undefined, startTime: 5n }])).toEqual([
      { id: expected, nodeId: A, startTime: 5 },
    ])
  })
})

describe('NetworkUptime', () => {
  const entries = [0, 1, 2].map((i) => ({ nodeId: node(i), weight: 1n, blsPublicKey: undefined, startTime: BigInt(T0) }))

  it('links reach both nodes’ trackers, and trackers made later start with the current links', () => {
    const u = new NetworkUptime([node(0), node(1), node(2)])
    for (let a = 0; a < 3; a++) for (let b = a; b < 3; b++) u.setLinked(a, b, true, T0)
    u.syncSubnet(EMPTY_ID, entries, T0)
    const id1 = validationIdOf(EMPTY_ID, entries[1]!)
    u.setLinked(0, 1, false, T0 + 100)
    expect(u.isLinked(1, 0)).toBe(false)
    // Node 0 sees node 1 down since T0+100, node 2 still sees it up.
    expect(u.tracker(0, EMPTY_ID).getUptime(id1, T0 + 400).upDurationSeconds).toBe(100)
    expect(u.tracker(2, EMPTY_ID).getUptime(id1, T0 + 400).upDurationSeconds).toBe(400)
    // Node 1 sees node 0 down too.
    expect(u.tracker(1, EMPTY_ID).isConnected(node(0))).toBe(false)
    expect(u.tracker(1, EMPTY_ID).isConnected(node(1))).toBe(true)
    // A new subnet's tracker knows node 0 and 2 are linked (since T0), not 0 and 1.
    const l1 = idToString(new Uint8Array(32).fill(9))
    u.syncSubnet(l1, entries, T0 + 400)
    expect(u.tracker(0, l1).isConnected(node(2))).toBe(true)
    expect(u.tracker(0, l1).isConnected(node(1))).toBe(false)
  })

  it('snapshots to plain data and restores links and trackers', () => {
    const u = new NetworkUptime([node(0), node(1), node(2)])
    u.setLinked(0, 1, true, T0)
    u.syncSubnet(EMPTY_ID, entries, T0)
    const snap = JSON.parse(JSON.stringify(u.snapshot()))
    u.setLinked(0, 1, false, T0 + 10)
    u.restore(snap)
    expect(u.isLinked(0, 1)).toBe(true)
    const id1 = validationIdOf(EMPTY_ID, entries[1]!)
    expect(u.tracker(0, EMPTY_ID).getUptime(id1, T0 + 50).upDurationSeconds).toBe(50)
    expect(() => u.tracker(3, EMPTY_ID)).toThrow('node index must be from 0 to 2, got 3')
  })
})
