import { statfsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { createClock, DEFAULT_MANUAL_START } from '../../src/core/clock.js'
import { InvalidArgumentError } from '../../src/core/errors.js'
import { PRIMARY_NETWORK_ID } from '../../src/core/ids.js'
import type { EvmChain } from '../../src/evm/chain.js'
import {
  APPLICATION_TAG,
  compareGoStrings,
  createNodeHealth,
  encodeHealthReply,
  HealthRegistrationError,
  healthGet,
  HealthWorker,
  MAX_CATCH_UP_RUNS,
  toGoMapOrder,
  type HealthCheckOutcome,
} from '../../src/network/health.js'
import {
  createBootstrappedCheck,
  createChainCheck,
  createDatabaseCheck,
  createDiskSpaceCheck,
  createNetworkCheck,
  createRouterCheck,
  goFormatFixed,
  goFormatG,
  minPercentConnectedHealthy,
  registerNodeHealthChecks,
  type ChainHealthSubject,
  type NodeHealthView,
} from '../../src/network/healthChecks.js'
import { expectThrows } from '../helpers/expectThrows.js'

const T0 = DEFAULT_MANUAL_START // 2026-01-01T00:00:00Z
const iso = (secondsAfterT0: number) => new Date((T0 + secondsAfterT0) * 1000).toISOString().replace('.000Z', 'Z')

/** A check whose outcome the test sets, counting its runs. */
function switchable(initial: HealthCheckOutcome = { details: { ok: true } }) {
  const state = { outcome: initial, runs: 0 }
  return { state, check: () => (state.runs++, state.outcome) }
}

describe('HealthWorker results', () => {
  it('starts every check as "not yet run", failing', () => {
    const w = new HealthWorker('health')
    w.register({ name: 'a', tags: [APPLICATION_TAG], check: () => ({}) })
    const reply = w.results()
    expect(JSON.stringify(reply)).toBe('{"checks":{"a":{"error":"not yet run","timestamp":"0001-01-01T00:00:00Z","duration":0}},"healthy":false}')
  })

  it('counts contiguous failures from the first failing run and keeps its time', async () => {
    const w = new HealthWorker('health')
    const c = switchable({ details: { n: 1 }, error: 'boom' })
    w.register({ name: 'a', check: c.check })
    await w.runAll(T0)
    const first = w.results().checks.a!
    expect(Object.keys(first)).toEqual(['message', 'error', 'timestamp', 'duration', 'contiguousFailures', 'timeOfFirstFailure'])
    expect(first).toMatchObject({ message: { n: 1 }, error: 'boom', timestamp: iso(0), contiguousFailures: 1, timeOfFirstFailure: iso(0) })
    await w.runAll(T0 + 30)
    expect(w.results().checks.a).toMatchObject({ timestamp: iso(30), contiguousFailures: 2, timeOfFirstFailure: iso(0) })
    await w.runAll(T0 + 60)
    expect(w.results().checks.a).toMatchObject({ contiguousFailures: 3, timeOfFirstFailure: iso(0) })
    expect(w.results().healthy).toBe(false)
  })

  it('clears the failure counters when the check passes, and starts over on the next failure', async () => {
    const w = new HealthWorker('health')
    const c = switchable({ error: 'boom' })
    w.register({ name: 'a', check: c.check })
    await w.runAll(T0)
    await w.runAll(T0 + 30)
    c.state.outcome = {}
    await w.runAll(T0 + 60)
    const passed = w.results()
    expect(Object.keys(passed.checks.a!)).toEqual(['timestamp', 'duration'])
    expect(passed.healthy).toBe(true)
    c.state.outcome = { error: 'again' }
    await w.runAll(T0 + 90)
    expect(w.results().checks.a).toMatchObject({ error: 'again', contiguousFailures: 1, timeOfFirstFailure: iso(90) })
  })

  it('records a thrown error as the failure', async () => {
    const w = new HealthWorker('health')
    w.register({ name: 'a', check: () => { throw new Error('exploded') } })
    w.register({ name: 'b', check: async () => ({ details: 'async', error: 'late' }) })
    await w.runAll(T0)
    expect(w.results().checks.a).toMatchObject({ error: 'exploded', contiguousFailures: 1 })
    expect(w.results().checks.b).toMatchObject({ message: 'async', error: 'late' })
  })

  it('measures the duration in integer nanoseconds', async () => {
    const w = new HealthWorker('health')
    w.register({ name: 'busy', check: () => { let x = 0; for (let i = 0; i < 2_000_000; i++) x += i % 7; return { details: x > 0 } } })
    await w.runAll(T0)
    const { duration } = w.results().checks.busy!
    expect(Number.isInteger(duration)).toBe(true)
    expect(duration).toBeGreaterThan(0)
  })

  it('writes details as Go maps: keys sorted, bigints as numbers', async () => {
    const w = new HealthWorker('health')
    w.register({ name: 'a', check: () => ({ details: { z: 1, a: { y: 2n, b: [{ d: 1, c: 2 }] } } }) })
    await w.runAll(T0)
    expect(JSON.stringify(w.results().checks.a!.message)).toBe('{"a":{"b":[{"c":2,"d":1}],"y":2},"z":1}')
  })

  it('keeps a monotonic check passing with its first passing details; timestamp and duration still move', async () => {
    const w = new HealthWorker('readiness')
    const c = switchable({ details: ['x'], error: 'not yet' })
    w.register({ name: 'bootstrapped', tags: [APPLICATION_TAG], check: c.check, monotonic: true })
    await w.runAll(T0)
    expect(w.results().checks.bootstrapped).toMatchObject({ error: 'not yet', contiguousFailures: 1 })
    c.state.outcome = { details: [] }
    await w.runAll(T0 + 30)
    c.state.outcome = { details: ['y'], error: 'failing again' }
    await w.runAll(T0 + 60)
    expect(w.results().checks.bootstrapped).toEqual({ message: [], timestamp: iso(60), duration: expect.any(Number) })
    expect(c.state.runs).toBe(2)
    expect(w.results().healthy).toBe(true)
  })

  it('does not cache a monotonic pass without details (Go caches only non-nil details)', async () => {
    const w = new HealthWorker('readiness')
    const c = switchable({})
    w.register({ name: 'a', check: c.check, monotonic: true })
    await w.runAll(T0)
    c.state.outcome = { error: 'now failing' }
    await w.runAll(T0 + 30)
    expect(w.results().checks.a).toMatchObject({ error: 'now failing' })
  })

  it('answers requests from cached results without running checks', async () => {
    const w = new HealthWorker('health')
    const c = switchable()
    w.register({ name: 'a', tags: [APPLICATION_TAG], check: c.check })
    await w.runAll(T0)
    for (let i = 0; i < 100; i++) {
      w.results()
      healthGet(w, ['x'])
    }
    expect(c.state.runs).toBe(1)
  })
})

describe('tags', () => {
  const subnet = '2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r'
  async function tagged() {
    const w = new HealthWorker('health')
    w.register({ name: 'network', tags: [APPLICATION_TAG], check: () => ({}) })
    w.register({ name: 'C', tags: [PRIMARY_NETWORK_ID], check: () => ({}) })
    w.register({ name: 'L', tags: [subnet], check: () => ({ error: 'l1 down' }) })
    w.register({ name: 'untagged', check: () => ({}) })
    await w.runAll(T0)
    return w
  }
  const names = (w: HealthWorker, tags: string[]) => Object.keys(w.results(tags).checks)

  it('no tags: every check', async () => {
    expect(names(await tagged(), [])).toEqual(['C', 'L', 'network', 'untagged'])
  })
  it('"all" is every check too', async () => {
    expect(names(await tagged(), ['all'])).toEqual(['C', 'L', 'network', 'untagged'])
  })
  it('unknown tags add nothing but the application checks', async () => {
    const w = await tagged()
    expect(names(w, ['bogus'])).toEqual(['network'])
    expect(w.results(['bogus']).healthy).toBe(true)
  })
  it('a subnet id selects its chains plus the application checks', async () => {
    const w = await tagged()
    expect(names(w, [PRIMARY_NETWORK_ID])).toEqual(['C', 'network'])
    expect(w.results([PRIMARY_NETWORK_ID]).healthy).toBe(true)
    expect(w.results([subnet]).healthy).toBe(false)
  })
  it('several tags give the union', async () => {
    expect(names(await tagged(), [PRIMARY_NETWORK_ID, subnet, PRIMARY_NETWORK_ID])).toEqual(['C', 'L', 'network'])
  })
  it('"application" alone gives the application checks', async () => {
    expect(names(await tagged(), [APPLICATION_TAG])).toEqual(['network'])
  })
})

describe('registration', () => {
  it('refuses the "all" tag and duplicate names with the node\'s messages', () => {
    const w = new HealthWorker('health')
    expectThrows(() => w.register({ name: 'a', tags: ['x', 'all'], check: () => ({}) }), HealthRegistrationError, 'restricted tag: "all"')
    w.register({ name: 'a', check: () => ({}) })
    expectThrows(() => w.register({ name: 'a', check: () => ({}) }), HealthRegistrationError, 'duplicate check: "a"')
    w.register({ name: 'q"\n', check: () => ({}) })
    expectThrows(() => w.register({ name: 'q"\n', check: () => ({}) }), HealthRegistrationError, 'duplicate check: "q\\"\\n"')
  })
})

describe('scheduling on the virtual clock', () => {
  function scheduled() {
    const clock = createClock({ mode: 'manual', start: T0 })
    const w = new HealthWorker('health')
    const c = switchable({ error: 'down' })
    w.register({ name: 'a', tags: [APPLICATION_TAG], check: c.check })
    return { clock, w, c }
  }

  it('runs at start, not before the next period, then every period', async () => {
    const { clock, w, c } = scheduled()
    await w.start({ clock, frequencySeconds: 30 })
    expect(c.state.runs).toBe(1)
    expect(w.results().checks.a).toMatchObject({ timestamp: iso(0), contiguousFailures: 1 })
    expect(w.nextRunAt).toBe(T0 + 30)

    clock.advance(29)
    expect(await w.tick(clock.now())).toBe(0)
    expect(c.state.runs).toBe(1)

    clock.advance(1)
    expect(await w.tick()).toBe(1)
    expect(w.results().checks.a).toMatchObject({ timestamp: iso(30), contiguousFailures: 2, timeOfFirstFailure: iso(0) })
  })

  it('defaults to 30 seconds', async () => {
    const { clock, w, c } = scheduled()
    await w.start({ clock })
    clock.advance(29.999)
    await w.tick()
    expect(c.state.runs).toBe(1)
    clock.advance(0.001)
    await w.tick()
    expect(c.state.runs).toBe(2)
  })

  it('catches up one run per period crossed, stamped at each period', async () => {
    const { clock, w, c } = scheduled()
    await w.start({ clock, frequencySeconds: 30 })
    clock.advance(95)
    expect(await w.tick()).toBe(3)
    expect(c.state.runs).toBe(4)
    expect(w.results().checks.a).toMatchObject({ timestamp: iso(90), contiguousFailures: 4, timeOfFirstFailure: iso(0) })
    expect(w.nextRunAt).toBe(T0 + 120)
  })

  it('after a long jump runs once, at the last period boundary', async () => {
    const { clock, w, c } = scheduled()
    await w.start({ clock, frequencySeconds: 30 })
    clock.advance(30 * (MAX_CATCH_UP_RUNS + 10) + 5)
    expect(await w.tick()).toBe(1)
    expect(c.state.runs).toBe(2)
    expect(w.results().checks.a).toMatchObject({ timestamp: iso(30 * (MAX_CATCH_UP_RUNS + 10)) })
  })

  it('restarts the schedule when time goes backwards (a snapshot revert)', async () => {
    const { clock, w, c } = scheduled()
    await w.start({ clock, frequencySeconds: 30 })
    clock.advance(60)
    await w.tick()
    clock.setTime(T0 + 10, { allowBackwards: true })
    expect(await w.tick()).toBe(1)
    expect(c.state.runs).toBe(4)
    expect(w.nextRunAt).toBe(T0 + 40)
  })

  it('runs a check registered after start only at the next period', async () => {
    const { clock, w } = scheduled()
    await w.start({ clock, frequencySeconds: 10 })
    const late = switchable()
    w.register({ name: 'late', check: late.check })
    clock.advance(5)
    await w.tick()
    expect(w.results().checks.late).toMatchObject({ error: 'not yet run' })
    clock.advance(5)
    await w.tick()
    expect(w.results().checks.late).toEqual({ message: { ok: true }, timestamp: iso(10), duration: expect.any(Number) })
  })

  it('refuses a zero or negative frequency; a second start changes nothing', async () => {
    const { clock, w, c } = scheduled()
    await expect(w.start({ clock, frequencySeconds: 0 })).rejects.toThrow(new InvalidArgumentError('health-check-frequency must be positive'))
    await expect(w.start({ clock, frequencySeconds: -30 })).rejects.toThrow('health-check-frequency must be positive')
    await expect(createNodeHealth().start({ clock, frequencySeconds: -1 })).rejects.toThrow('health-check-frequency must be positive')
    await w.start({ clock, frequencySeconds: 30 })
    await w.start({ clock, frequencySeconds: 5 })
    expect(c.state.runs).toBe(1)
    expect(w.nextRunAt).toBe(T0 + 30)
  })

  it('stop ends scheduling; tick before start does nothing', async () => {
    const { clock, w, c } = scheduled()
    expect(await w.tick(T0 + 100)).toBe(0)
    await w.start({ clock })
    w.stop()
    clock.advance(60)
    expect(await w.tick()).toBe(0)
    expect(c.state.runs).toBe(1)
  })

  it('NodeHealth starts and ticks its three workers together', async () => {
    const clock = createClock({ mode: 'manual', start: T0 })
    const node = createNodeHealth()
    const r = switchable({ details: [] })
    const h = switchable()
    node.registerReadinessCheck({ name: 'bootstrapped', tags: [APPLICATION_TAG], check: r.check })
    node.registerHealthCheck({ name: 'x', tags: [APPLICATION_TAG], check: h.check })
    await node.start({ clock, frequencySeconds: 30 })
    clock.advance(30)
    await node.tick()
    expect([r.state.runs, h.state.runs]).toEqual([1, 2]) // readiness cached its pass (monotonic)
    expect(node.readiness.results().checks.bootstrapped!.timestamp).toBe(iso(30))
    expect(node.liveness.results()).toEqual({ checks: {}, healthy: true })
  })
})

describe('healthGet', () => {
  it('answers 200 with the JSON body and a newline when healthy', async () => {
    const w = new HealthWorker('health')
    w.register({ name: 'b', tags: [APPLICATION_TAG], check: () => ({ details: { k: 1 } }) })
    w.register({ name: 'a', tags: [APPLICATION_TAG], check: () => ({}) })
    await w.runAll(T0)
    const { status, body } = healthGet(w, [])
    expect(status).toBe(200)
    expect(body).toMatch(/^\{"checks":\{"a":\{"timestamp":"2026-01-01T00:00:00Z","duration":\d+\},"b":\{"message":\{"k":1\},"timestamp":"2026-01-01T00:00:00Z","duration":\d+\}\},"healthy":true\}\n$/)
    expect(body).toBe(encodeHealthReply(w.results()))
  })

  it('answers 503 when a selected check fails, 200 when it is filtered out', async () => {
    const w = new HealthWorker('health')
    w.register({ name: 'C', tags: ['subnet'], check: () => ({ error: 'down' }) })
    await w.runAll(T0)
    expect(healthGet(w, []).status).toBe(503)
    expect(healthGet(w, ['subnet']).status).toBe(503)
    expect(healthGet(w, ['other'])).toEqual({ status: 200, body: '{"checks":{},"healthy":true}\n' })
  })

  it('answers 503 before the first run, and a worker without checks is healthy', () => {
    const w = new HealthWorker('readiness')
    expect(healthGet(new HealthWorker('liveness'))).toEqual({ status: 200, body: '{"checks":{},"healthy":true}\n' })
    w.register({ name: 'bootstrapped', tags: [APPLICATION_TAG], check: () => ({ details: [] }), monotonic: true })
    expect(healthGet(w)).toEqual({
      status: 503,
      body: '{"checks":{"bootstrapped":{"error":"not yet run","timestamp":"0001-01-01T00:00:00Z","duration":0}},"healthy":false}\n',
    })
  })

  it('escapes HTML characters as Go does and sorts names by bytes', async () => {
    const w = new HealthWorker('health')
    for (const name of ['b', 'B', 'a<b>'])
      w.register({ name, check: () => ({ error: 'x < y && y > z \u2028' }) })
    await w.runAll(T0)
    const { body } = healthGet(w)
    expect(body.indexOf('"B"')).toBeLessThan(body.indexOf('"a\\u003cb\\u003e"'))
    expect(body.indexOf('"a\\u003cb\\u003e"')).toBeLessThan(body.indexOf('"b"'))
    expect(body).toContain('"error":"x \\u003c y \\u0026\\u0026 y \\u003e z \\u2028"')
    expect(body).not.toMatch(/[<>&]/)
  })

  it("sorts keys in Go's UTF-8 byte order, past the Basic Multilingual Plane too (where UTF-16 order differs)", () => {
    const names = ['b', 'B', 'a<b>', 'é', 'z', '\uffff', '\u{10000}', 'a\u{1f600}', 'a\uffee', '', 'ab', 'a', '\ud800', '\u00ff']
    const byBytes = [...names].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))
    expect([...names].sort(compareGoStrings)).toEqual(byBytes)
    expect(Object.keys(toGoMapOrder({ '\u{10000}': 1, '\uffff': 2, b: 3, a: 4 }) as object)).toEqual(['a', 'b', '\uffff', '\u{10000}'])
  })

  it('writes a lone surrogate as U+FFFD, as Go writes invalid UTF-8', async () => {
    const w = new HealthWorker('health')
    w.register({ name: 'a', check: () => ({ error: 'bad \ud800 \\ud800 😀' }) })
    await w.runAll(T0)
    expect(healthGet(w).body).toContain('"error":"bad \\ufffd \\\\ud800 😀"')
  })
})

/** A node state the checks read; every field can be changed by a test. */
function fakeView(overrides: Partial<Record<string, unknown>> = {}) {
  const s = {
    peers: 4,
    ingress: 2,
    validator: true,
    startedAt: T0,
    receivedAt: T0 as number | undefined,
    sentAt: T0 as number | undefined,
    failRate: 0,
    percent: 1,
    disconnected: [] as string[],
    stalledSince: undefined as number | undefined,
    bootstrapping: [] as string[],
    dbClosed: false,
    dataDir: process.cwd(),
    diskOverride: undefined as number | undefined,
    ...overrides,
  }
  const view: NodeHealthView = {
    connectedPeers: () => s.peers,
    ingressConnections: () => s.ingress,
    isPrimaryNetworkValidator: () => s.validator,
    startedAt: () => s.startedAt,
    lastMessageReceivedAt: () => s.receivedAt,
    lastMessageSentAt: () => s.sentAt,
    sendFailRate: () => s.failRate,
    subnetConnectivity: () => ({ percentConnected: s.percent, disconnectedValidators: s.disconnected }),
    chainStalledSince: () => s.stalledSince,
    bootstrappingSubnets: () => s.bootstrapping,
    databaseClosed: () => s.dbClosed,
    dataDir: () => s.dataDir,
    diskPercentOverride: () => s.diskOverride,
  }
  return { s, view }
}

async function runOne(check: Parameters<HealthWorker['register']>[0], now = T0) {
  const w = new HealthWorker('health')
  w.register(check)
  await w.runAll(now)
  const { duration, ...rest } = w.results().checks[check.name]!
  expect(Number.isInteger(duration)).toBe(true)
  return rest
}

describe('network check', () => {
  it('healthy: peers, send fail rate, time since the last messages', async () => {
    const { view } = fakeView({ receivedAt: T0 - 0.293, sentAt: T0 - 1.5 })
    expect(await runOne(createNetworkCheck(view))).toEqual({
      message: { connectedPeers: 4, sendFailRate: 0, timeSinceLastMsgReceived: '293ms', timeSinceLastMsgSent: '1.5s' },
      timestamp: iso(0),
    })
  })

  it('a node cut off from everyone: the reference failing message', async () => {
    const { view } = fakeView({ peers: 0, receivedAt: undefined, sentAt: undefined })
    const result = await runOne(createNetworkCheck(view))
    expect(JSON.stringify(result.message)).toBe('{"connectedPeers":0,"sendFailRate":0}')
    expect(result.error).toBe(
      'network layer is unhealthy reason: not connected to a minimum of 1 peer(s) only 0, no messages received from network, no messages sent to network',
    )
  })

  it('stale messages and a high send fail rate', async () => {
    const { view } = fakeView({ receivedAt: T0 - 90, sentAt: T0 - 61, failRate: 0.95 })
    expect((await runOne(createNetworkCheck(view))).error).toBe(
      'network layer is unhealthy reason: no messages from network received in 1m30s > 1m0s, no messages from network sent in 1m1s > 1m0s, messages failure send rate 0.95 > 0.9',
    )
    const exactlyAMinute = fakeView({ receivedAt: T0 - 60, sentAt: T0 - 60 })
    expect((await runOne(createNetworkCheck(exactlyAMinute.view))).error).toBeUndefined()
  })

  it('after the 10 minute grace period reports inbound connections; a validator with none fails', async () => {
    const { s, view } = fakeView({ startedAt: T0 - 601, ingress: 0 })
    const result = await runOne(createNetworkCheck(view))
    expect(JSON.stringify(result.message)).toBe(
      '{"connectedPeers":4,"primary network validator health":{"ingressConnectionCount":0,"primaryNetworkValidator":true},"sendFailRate":0,"timeSinceLastMsgReceived":"0s","timeSinceLastMsgSent":"0s"}',
    )
    expect(result.error).toBe('network layer is unhealthy reason: primary network validator has no inbound connections')
    s.validator = false
    expect((await runOne(createNetworkCheck(view))).error).toBeUndefined()
    s.startedAt = T0 - 600
    expect((await runOne(createNetworkCheck(view))).message).not.toHaveProperty(['primary network validator health'])
  })

  it('never fails with sybil protection disabled', async () => {
    const { view } = fakeView({ peers: 0, receivedAt: undefined })
    expect((await runOne(createNetworkCheck(view, { enabled: false }))).error).toBeUndefined()
  })
})

describe('router, database, bootstrapped', () => {
  it('router: idle, then too many and too old requests', async () => {
    expect(await runOne(createRouterCheck())).toEqual({ message: { longestRunningRequest: '0s', outstandingRequests: 0 }, timestamp: iso(0) })
    const busy = createRouterCheck({ outstandingRequests: () => ({ count: 1025, oldestSince: T0 - 301 }) })
    expect(await runOne(busy)).toMatchObject({
      message: { longestRunningRequest: '5m1s', outstandingRequests: 1025 },
      error: 'the router is not healthy reason: number of outstanding requests 1025 > 1024, time for outstanding requests 5m1s > 5m0s',
    })
  })

  it('database: no message; closed fails with "closed"', async () => {
    const { s, view } = fakeView()
    expect(await runOne(createDatabaseCheck(view))).toEqual({ timestamp: iso(0) })
    s.dbClosed = true
    expect(await runOne(createDatabaseCheck(view))).toEqual({ error: 'closed', timestamp: iso(0), contiguousFailures: 1, timeOfFirstFailure: iso(0) })
  })

  it('bootstrapped: [] when done, else the sorted subnets still bootstrapping', async () => {
    const { s, view } = fakeView()
    expect(await runOne(createBootstrappedCheck(view))).toEqual({ message: [], timestamp: iso(0) })
    s.bootstrapping = ['zz', PRIMARY_NETWORK_ID]
    expect(await runOne(createBootstrappedCheck(view))).toMatchObject({ message: [PRIMARY_NETWORK_ID, 'zz'], error: 'subnets not bootstrapped' })
  })
})

describe('diskspace check', () => {
  it('reports the real free space of the data directory', async () => {
    const { view } = fakeView()
    const stat = statfsSync(process.cwd(), { bigint: true })
    const result = await runOne(createDiskSpaceCheck(view))
    expect(result.message).toEqual({
      availableDiskBytes: Number(stat.bavail * stat.bsize),
      availableDiskPercentage: Number((stat.bavail * 100n) / stat.blocks),
    })
  })

  it('fails below the warning and the required percentages with the node\'s messages', async () => {
    const { s, view } = fakeView({ diskOverride: 9 })
    expect((await runOne(createDiskSpaceCheck(view))).error).toBe(
      'remaining available disk space percentage (9%) is below warning threshold available space percentage (10%)',
    )
    s.diskOverride = 2
    const full = await runOne(createDiskSpaceCheck(view))
    expect(full.error).toBe('remaining available disk space percentage (2%) is below minimum required available space percentage (3%)')
    expect(full.message).toMatchObject({ availableDiskPercentage: 2 })
    s.diskOverride = 10
    expect((await runOne(createDiskSpaceCheck(view))).error).toBeUndefined()
    s.diskOverride = 3
    expect((await runOne(createDiskSpaceCheck(view, { warningPercentage: 3 }))).error).toBeUndefined()
  })

  it('reports 0 bytes and 0% (failing) when the directory cannot be measured', async () => {
    const { view } = fakeView({ dataDir: join(process.cwd(), 'no-such-dir-for-health-test') })
    expect(await runOne(createDiskSpaceCheck(view))).toMatchObject({
      message: { availableDiskBytes: 0, availableDiskPercentage: 0 },
      error: 'remaining available disk space percentage (0%) is below minimum required available space percentage (3%)',
    })
  })
})

describe('chain check', () => {
  const chain: ChainHealthSubject = { alias: 'C', head: { number: 42n, hash: `0x${'00'.repeat(32)}` } }

  it('an EvmChain is a valid subject', () => {
    expectTypeOf<EvmChain>().toMatchTypeOf<ChainHealthSubject>()
  })

  it('healthy: the reference shape, tagged with the subnet id', async () => {
    const { view } = fakeView({ disconnected: [] })
    const check = createChainCheck({ chain, subnetId: PRIMARY_NETWORK_ID, view })
    expect(check.name).toBe('C')
    expect(check.tags).toEqual([PRIMARY_NETWORK_ID])
    const result = await runOne(check)
    expect(JSON.stringify(result)).toBe(
      '{"message":{"engine":{"consensus":{"lastAcceptedHeight":42,"lastAcceptedID":"11111111111111111111111111111111LpoYY","longestProcessingBlock":"0s","processingBlocks":0},"vm":null},"networking":{"disconnectedValidators":[],"percentConnected":1}},"timestamp":"2026-01-01T00:00:00Z"}',
    )
  })

  it('reads the head at every run', async () => {
    const { view } = fakeView()
    const moving = { alias: 'L', head: { number: 1n, hash: `0x${'11'.repeat(32)}` as const } }
    const w = new HealthWorker('health')
    w.register(createChainCheck({ chain: moving, subnetId: 's', view }))
    await w.runAll(T0)
    moving.head = { number: 2n, hash: `0x${'22'.repeat(32)}` }
    await w.runAll(T0 + 30)
    expect(w.results().checks.L!.message).toMatchObject({ engine: { consensus: { lastAcceptedHeight: 2 } } })
  })

  it('a stalled chain has a block processing, and fails after 30s', async () => {
    const { s, view } = fakeView({ stalledSince: T0 - 30 })
    const check = () => createChainCheck({ chain, subnetId: PRIMARY_NETWORK_ID, view })
    const at30 = await runOne(check())
    expect(at30.error).toBeUndefined()
    expect(at30.message).toMatchObject({ engine: { consensus: { longestProcessingBlock: '30s', processingBlocks: 1 } } })
    s.stalledSince = T0 - 31.5
    expect(await runOne(check())).toMatchObject({
      message: { engine: { consensus: { longestProcessingBlock: '31.5s', processingBlocks: 1 } } },
      error: 'block processing too long: 31.5s > 30s',
    })
  })

  it('too little connected stake fails the networking half; both halves combine', async () => {
    const { s, view } = fakeView({ percent: 0.6, disconnected: ['NodeID-b', 'NodeID-a'] })
    const check = () => createChainCheck({ chain, subnetId: PRIMARY_NETWORK_ID, view })
    const result = await runOne(check())
    expect(result.error).toBe('not connected to enough stake: connected to 60.000000%; required at least 80.000000%')
    expect(result.message).toMatchObject({ networking: { disconnectedValidators: ['NodeID-a', 'NodeID-b'], percentConnected: 0.6 } })
    s.percent = 0.8
    expect((await runOne(check())).error).toBeUndefined()
    s.percent = 0.5
    s.stalledSince = T0 - 60
    expect((await runOne(check())).error).toBe(
      'engine: block processing too long: 1m0s > 30s; networking: not connected to enough stake: connected to 50.000000%; required at least 80.000000%',
    )
  })

  it('while its subnet bootstraps, the engine reports the bootstrapper', async () => {
    const { view } = fakeView({ bootstrapping: ['sub'], stalledSince: T0 - 100 })
    const result = await runOne(createChainCheck({ chain: { ...chain, alias: 'L' }, subnetId: 'sub', view }))
    expect(JSON.stringify(result.message)).toBe('{"engine":{"consensus":{},"vm":null},"networking":{"disconnectedValidators":[],"percentConnected":1}}')
    expect(result.error).toBeUndefined()
  })

  it('the connected-stake threshold is 0.8 with the default parameters', () => {
    expect(minPercentConnectedHealthy({ k: 20, alphaConfidence: 15 })).toBe(0.8)
    expect(minPercentConnectedHealthy({ k: 1, alphaConfidence: 1 })).toBe(1)
  })
})

describe('Go number formatting', () => {
  it('%f: six decimals, exact value rounded half to even', () => {
    expect(goFormatFixed(80)).toBe('80.000000')
    expect(goFormatFixed(99.99995)).toBe('99.999950')
    expect(goFormatFixed(0.0078125)).toBe('0.007812') // exactly halfway: even
    expect(goFormatFixed(0.0234375)).toBe('0.023438')
    expect(goFormatFixed(-1.5, 0)).toBe('-2')
    expect(goFormatFixed(2.5, 0)).toBe('2')
    expect(goFormatFixed(1 / 3)).toBe('0.333333')
  })

  it('%g: shortest digits, exponent below 1e-4 and from 1e6', () => {
    expect(goFormatG(0.95)).toBe('0.95')
    expect(goFormatG(0.9)).toBe('0.9')
    expect(goFormatG(1)).toBe('1')
    expect(goFormatG(0)).toBe('0')
    expect(goFormatG(0.0001)).toBe('0.0001')
    expect(goFormatG(0.00001)).toBe('1e-05')
    expect(goFormatG(100000)).toBe('100000')
    expect(goFormatG(1234567)).toBe('1.234567e+06')
    expect(goFormatG(1e21)).toBe('1e+21')
  })
})

describe('registerNodeHealthChecks', () => {
  it('registers what avalanchego registers, on the right workers', async () => {
    const { view } = fakeView()
    const node = createNodeHealth()
    const l1 = { alias: 'dex', head: { number: 0n, hash: `0x${'ab'.repeat(32)}` as const } }
    registerNodeHealthChecks(node, {
      view,
      chains: [
        { chain: { alias: 'C', head: { number: 0n, hash: `0x${'00'.repeat(32)}` } }, subnetId: PRIMARY_NETWORK_ID },
        { chain: l1, subnetId: 'dexSubnet' },
      ],
    })
    expect(node.health.checkNames.sort()).toEqual(['C', 'bootstrapped', 'database', 'dex', 'diskspace', 'network', 'router'])
    expect(node.readiness.checkNames).toEqual(['bootstrapped'])
    expect(node.liveness.checkNames).toEqual([])
    const clock = createClock({ mode: 'manual', start: T0 })
    await node.start({ clock })
    expect(Object.keys(node.health.results(['dexSubnet']).checks)).toEqual(['bootstrapped', 'database', 'dex', 'diskspace', 'network', 'router'])
    expect(node.readiness.results().healthy).toBe(true)
  })
})
