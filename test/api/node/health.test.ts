/**
 * `/ext/health` end to end over HTTP, with faults injected through the `sim` service and the
 * virtual clock advanced through `sim.advanceTime` (checks run every 30 s of network time, never
 * on the wall clock).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PRIMARY_NETWORK_ID } from '../../../src/core/ids.js'
import { testGenesis } from '../../l1/helpers.js'
import { call, healthGet, postRaw, request, result, sim, startTestDevnet, type TestDevnet } from './helpers.js'

const ALL_CHECKS = ['C', 'P', 'X', 'bootstrapped', 'database', 'dex', 'diskspace', 'network', 'router']
const APPLICATION_CHECKS = ['bootstrapped', 'database', 'diskspace', 'network', 'router']
const CHAIN_ID_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

let devnet: TestDevnet
let url: string
let dexSubnet: string

/** RFC3339 of the virtual clock now (UTC, Go trims zero fractions). */
const isoNow = () => new Date(devnet.network.clock.nowMs()).toISOString().replace('.000Z', 'Z')
const advance = (seconds: number, base = url) => sim(base, 'advanceTime', { seconds })

beforeAll(async () => {
  devnet = await startTestDevnet('health', { l1s: [{ name: 'dex', genesis: testGenesis() }] })
  url = devnet.url
  dexSubnet = devnet.network.l1('dex')!.subnetId
})
afterAll(() => devnet?.stop())
afterEach(async () => {
  // every test leaves the network healthy and the clock on a check boundary
  await sim(url, 'clearFaults')
  await advance(30)
  expect((await healthGet(`${url}/ext/health`)).status).toBe(200)
})

describe('a healthy network', () => {
  it('GET /ext/health → 200 with every check, keys sorted as Go sorts map keys', async () => {
    for (const node of devnet.nodes) {
      const { status, body, raw } = await healthGet(`${node.url}/ext/health`)
      expect(status).toBe(200)
      expect(Object.keys(body)).toEqual(['checks', 'healthy'])
      expect(body.healthy).toBe(true)
      expect(Object.keys(body.checks)).toEqual(ALL_CHECKS)
      expect(raw.headers.get('node-id')).toBe(node.nodeId)
      for (const [name, check] of Object.entries<any>(body.checks)) {
        expect(check.error, name).toBeUndefined()
        expect(check.contiguousFailures, name).toBeUndefined()
        expect(check.timeOfFirstFailure, name).toBeUndefined()
        expect(check.timestamp, name).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
        expect(Number.isInteger(check.duration), name).toBe(true)
      }
      const c = body.checks.C
      expect(Object.keys(c)).toEqual(['message', 'timestamp', 'duration'])
      expect(c.message).toEqual({
        engine: {
          consensus: {
            lastAcceptedHeight: expect.any(Number),
            lastAcceptedID: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]+$/),
            longestProcessingBlock: '0s',
            processingBlocks: 0,
          },
          vm: null,
        },
        networking: { disconnectedValidators: [], percentConnected: 1 },
      })
      expect(body.checks.bootstrapped.message).toEqual([])
      expect(Object.keys(body.checks.database)).toEqual(['timestamp', 'duration'])
      expect(Object.keys(body.checks.diskspace.message)).toEqual(['availableDiskBytes', 'availableDiskPercentage'])
      expect(body.checks.diskspace.message.availableDiskPercentage).toBeGreaterThanOrEqual(10)
      expect(body.checks.router.message).toEqual({ longestRunningRequest: '0s', outstandingRequests: 0 })
      expect(body.checks.network.message).toMatchObject({ connectedPeers: 4, sendFailRate: 0, timeSinceLastMsgReceived: '0s', timeSinceLastMsgSent: '0s' })
    }
  })

  it('/ext/health/health is the same report, for any method', async () => {
    const get = await healthGet(`${url}/ext/health/health`)
    expect(get.status).toBe(200)
    expect(Object.keys(get.body.checks)).toEqual(ALL_CHECKS)
    const post = await request(`${url}/ext/health/health`, { method: 'POST' })
    expect(post.status).toBe(200)
    expect(Object.keys(JSON.parse(post.body).checks)).toEqual(ALL_CHECKS)
  })

  it('?tag=<subnet id> returns that subnet\'s chain check plus the application checks', async () => {
    const dex = await healthGet(`${url}/ext/health?tag=${dexSubnet}`)
    expect(dex.status).toBe(200)
    expect(Object.keys(dex.body.checks)).toEqual(['bootstrapped', 'database', 'dex', 'diskspace', 'network', 'router'])
    const primary = await healthGet(`${url}/ext/health?tag=${PRIMARY_NETWORK_ID}`)
    expect(Object.keys(primary.body.checks)).toEqual(['C', 'P', 'X', ...APPLICATION_CHECKS])
    const both = await healthGet(`${url}/ext/health?tag=${PRIMARY_NETWORK_ID}&tag=${dexSubnet}`)
    expect(Object.keys(both.body.checks)).toEqual(ALL_CHECKS)
    const bogus = await healthGet(`${url}/ext/health?tag=bogus`)
    expect(Object.keys(bogus.body.checks)).toEqual(APPLICATION_CHECKS)
    const all = await healthGet(`${url}/ext/health?tag=all`)
    expect(Object.keys(all.body.checks)).toEqual(ALL_CHECKS)
    // tags over JSON-RPC too
    const rpc = await result(url, '/ext/health', 'health.health', { tags: [dexSubnet] })
    expect(Object.keys(rpc.checks)).toEqual(['bootstrapped', 'database', 'dex', 'diskspace', 'network', 'router'])
  })

  it('POST health.health / readiness / liveness over JSON-RPC', async () => {
    const health = await call(url, '/ext/health', 'health.health')
    expect(health.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(health.json.result.healthy).toBe(true)
    expect(Object.keys(health.json.result.checks)).toEqual(ALL_CHECKS)
    const readiness = await result(url, '/ext/health', 'health.readiness', {})
    expect(Object.keys(readiness.checks)).toEqual(['bootstrapped'])
    expect(readiness.healthy).toBe(true)
    const liveness = await call(url, '/ext/health', 'health.liveness')
    expect(liveness.body).toBe(`{"jsonrpc":"2.0","result":{"checks":{},"healthy":true},"id":${String(liveness.json.id)}}\n`)
  })

  it('GET /ext/health/liveness → {"checks":{},"healthy":true}; readiness → bootstrapped only', async () => {
    const liveness = await request(`${url}/ext/health/liveness`)
    expect(liveness.status).toBe(200)
    expect(liveness.body).toBe('{"checks":{},"healthy":true}\n')
    const readiness = await healthGet(`${url}/ext/health/readiness`)
    expect(readiness.status).toBe(200)
    expect(Object.keys(readiness.body.checks)).toEqual(['bootstrapped'])
    expect(readiness.body.checks.bootstrapped.message).toEqual([])
  })

  it('checks run on the virtual clock: timestamps move only when it is advanced', async () => {
    const before = (await healthGet(`${url}/ext/health`)).body.checks.database.timestamp
    expect(before).toBe(isoNow())
    expect((await healthGet(`${url}/ext/health`)).body.checks.database.timestamp).toBe(before)
    await advance(29)
    expect((await healthGet(`${url}/ext/health`)).body.checks.database.timestamp).toBe(before)
    await advance(1)
    expect((await healthGet(`${url}/ext/health`)).body.checks.database.timestamp).toBe(isoNow())
  })
})

describe('faults', () => {
  it('disconnectStake 0.4: the chain checks fail after the next run; contiguousFailures counts; lifting heals', async () => {
    const { disconnected } = await sim(url, 'disconnectStake', { fraction: 0.4 })
    expect(disconnected).toHaveLength(2)
    const watcher = devnet.nodes.find((n) => !disconnected.includes(n.nodeId))!
    // nothing has run yet: the cached results still pass
    expect((await healthGet(`${watcher.url}/ext/health`)).status).toBe(200)

    await advance(30)
    const first = await healthGet(`${watcher.url}/ext/health`)
    expect(first.status).toBe(503)
    expect(first.body.healthy).toBe(false)
    const c = first.body.checks.C
    expect(c.error).toBe('not connected to enough stake: connected to 60.000000%; required at least 80.000000%')
    expect(c.message.networking).toEqual({ disconnectedValidators: [...disconnected].sort(), percentConnected: 0.6 })
    expect(c.contiguousFailures).toBe(1)
    expect(c.timeOfFirstFailure).toBe(isoNow())
    expect(c.timeOfFirstFailure).toBe(c.timestamp)
    expect(Object.keys(c)).toEqual(['message', 'error', 'timestamp', 'duration', 'contiguousFailures', 'timeOfFirstFailure'])
    // the L1's validators are the same nodes: it fails too
    expect(first.body.checks.dex.error).toBe('not connected to enough stake: connected to 60.000000%; required at least 80.000000%')
    // the watcher still has peers: the network check passes
    expect(first.body.checks.network.error).toBeUndefined()
    expect(first.body.checks.network.message.connectedPeers).toBe(2)
    // a disconnected node has no peers at all
    const cut = devnet.nodes.find((n) => n.nodeId === disconnected[0])!
    const lonely = await healthGet(`${cut.url}/ext/health`)
    expect(lonely.body.checks.network.error).toBe('network layer is unhealthy reason: not connected to a minimum of 1 peer(s) only 0')
    expect(lonely.body.checks.C.error).toBe('not connected to enough stake: connected to 20.000000%; required at least 80.000000%')
    // the JSON-RPC answer is HTTP 200 even when unhealthy
    const rpc = await call(watcher.url, '/ext/health', 'health.health')
    expect(rpc.status).toBe(200)
    expect(rpc.json.result.healthy).toBe(false)
    // a filter that leaves the failing chains out is healthy
    expect((await healthGet(`${watcher.url}/ext/health?tag=bogus`)).status).toBe(200)
    expect((await healthGet(`${watcher.url}/ext/health?tag=${dexSubnet}`)).status).toBe(503)

    const firstFailure = c.timeOfFirstFailure
    await advance(30)
    const second = await healthGet(`${watcher.url}/ext/health`)
    expect(second.status).toBe(503)
    expect(second.body.checks.C.contiguousFailures).toBe(2)
    expect(second.body.checks.C.timeOfFirstFailure).toBe(firstFailure)
    expect(second.body.checks.C.timestamp).toBe(isoNow())
    expect(second.body.checks.C.timestamp).not.toBe(firstFailure)

    for (const nodeID of disconnected) await sim(url, 'connectNode', { nodeID })
    // lifted, but not re-run yet
    expect((await healthGet(`${watcher.url}/ext/health`)).status).toBe(503)
    await advance(30)
    const healed = await healthGet(`${watcher.url}/ext/health`)
    expect(healed.status).toBe(200)
    expect(healed.body.checks.C.error).toBeUndefined()
    expect(healed.body.checks.C.contiguousFailures).toBeUndefined()
    expect(healed.body.checks.C.timeOfFirstFailure).toBeUndefined()
    expect(healed.body.checks.C.message.networking).toEqual({ disconnectedValidators: [], percentConnected: 1 })
  })

  it('sim.clearFaults lifts a disconnectStake too', async () => {
    await sim(url, 'disconnectStake', { fraction: 0.4 })
    await advance(30)
    expect((await healthGet(`${devnet.nodes[4]!.url}/ext/health`)).status).toBe(503)
    await sim(url, 'clearFaults')
    expect(await sim(url, 'getFaults')).toEqual({ faults: [] })
    await advance(30)
    expect((await healthGet(`${devnet.nodes[4]!.url}/ext/health`)).status).toBe(200)
  })

  it('stallChain: a block processing, failing once it exceeds 30 s', async () => {
    await advance(1)
    await sim(url, 'stallChain', { chain: 'C' })
    await advance(29)
    const early = await healthGet(`${url}/ext/health`)
    expect(early.status).toBe(200)
    expect(early.body.checks.C.message.engine.consensus).toMatchObject({ longestProcessingBlock: '29s', processingBlocks: 1 })
    await advance(30)
    const late = await healthGet(`${url}/ext/health`)
    expect(late.status).toBe(503)
    expect(late.body.checks.C.error).toBe('block processing too long: 59s > 30s')
    expect(late.body.checks.C.message.engine.consensus).toMatchObject({ longestProcessingBlock: '59s', processingBlocks: 1 })
    expect(late.body.checks.dex.error).toBeUndefined()
    // every node sees the stalled chain
    expect((await healthGet(`${devnet.nodes[3]!.url}/ext/health`)).body.checks.C.error).toBe('block processing too long: 59s > 30s')
    await sim(url, 'resumeChain', { chain: 'C' })
    await advance(30)
    const resumed = await healthGet(`${url}/ext/health`)
    expect(resumed.status).toBe(200)
    expect(resumed.body.checks.C.message.engine.consensus).toMatchObject({ longestProcessingBlock: '0s', processingBlocks: 0 })
  })

  it('fillDisk below 3% and below 10%: the exact messages; clearDisk heals', async () => {
    await sim(url, 'fillDisk', { availablePercentage: 2 })
    await advance(30)
    const full = await healthGet(`${url}/ext/health`)
    expect(full.status).toBe(503)
    expect(full.body.checks.diskspace.error).toBe(
      'remaining available disk space percentage (2%) is below minimum required available space percentage (3%)',
    )
    expect(full.body.checks.diskspace.message.availableDiskPercentage).toBe(2)

    await sim(url, 'fillDisk', { availablePercentage: 9, node: 0 })
    await advance(30)
    const low = await healthGet(`${url}/ext/health`)
    expect(low.body.checks.diskspace.error).toBe(
      'remaining available disk space percentage (9%) is below warning threshold available space percentage (10%)',
    )
    expect(low.body.checks.diskspace.contiguousFailures).toBe(2)
    // node 1 still has the network-wide 2%
    expect((await healthGet(`${devnet.nodes[1]!.url}/ext/health`)).body.checks.diskspace.message.availableDiskPercentage).toBe(2)

    await sim(url, 'fillDisk', { availablePercentage: 10, node: 0 })
    await advance(30)
    expect((await healthGet(`${url}/ext/health`)).body.checks.diskspace.error).toBeUndefined()
    await sim(url, 'clearDisk')
    await advance(30)
    expect((await healthGet(`${devnet.nodes[1]!.url}/ext/health`)).status).toBe(200)
  })

  it('closeDatabase: the database check fails with `closed`; openDatabase heals', async () => {
    await sim(url, 'closeDatabase', { node: 2 })
    await advance(30)
    const closed = await healthGet(`${devnet.nodes[2]!.url}/ext/health`)
    expect(closed.status).toBe(503)
    expect(closed.body.checks.database).toEqual({
      error: 'closed',
      timestamp: isoNow(),
      duration: expect.any(Number),
      contiguousFailures: 1,
      timeOfFirstFailure: isoNow(),
    })
    expect(Object.keys(closed.body.checks.database)[0]).toBe('error')
    expect((await healthGet(`${url}/ext/health`)).status).toBe(200)
    await sim(url, 'openDatabase', { node: 2 })
    await advance(30)
    expect((await healthGet(`${devnet.nodes[2]!.url}/ext/health`)).body.checks.database.error).toBeUndefined()
  })

  it('delayBootstrap: bootstrapped fails, chain APIs answer 503, info.isBootstrapped false; all heal once the delay has passed', async () => {
    await sim(url, 'delayBootstrap', { seconds: 45, node: 0 })
    // the chain APIs refuse at once
    for (const path of ['/ext/bc/C/rpc', '/ext/bc/dex/rpc', '/ext/bc/dex/validators']) {
      const res = await postRaw(`${url}${path}`, path.endsWith('validators') ? '{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators"}' : CHAIN_ID_CALL)
      expect(res.status, path).toBe(503)
      expect(res.body).toBe('API call rejected because chain is not done bootstrapping\n')
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(res.headers.get('node-id')).toBe(devnet.nodes[0]!.nodeId)
    }
    expect(await result(url, '/ext/info', 'info.isBootstrapped', { chain: 'C' })).toEqual({ isBootstrapped: false })
    expect(await result(url, '/ext/info', 'info.isBootstrapped', { chain: 'dex' })).toEqual({ isBootstrapped: false })
    // other nodes are done
    expect((await postRaw(`${devnet.nodes[1]!.url}/ext/bc/C/rpc`, CHAIN_ID_CALL)).status).toBe(200)
    expect(await result(devnet.nodes[1]!.url, '/ext/info', 'info.isBootstrapped', { chain: 'C' })).toEqual({ isBootstrapped: true })

    await advance(30)
    const report = await healthGet(`${url}/ext/health`)
    expect(report.status).toBe(503)
    expect(report.body.checks.bootstrapped.error).toBe('subnets not bootstrapped')
    expect(report.body.checks.bootstrapped.message).toEqual([PRIMARY_NETWORK_ID, dexSubnet].sort())
    expect(report.body.checks.C.message.engine).toEqual({ consensus: {}, vm: null })
    // readiness passed at start and is monotonic (avalanchego RegisterMonotonicCheck): it stays 200
    expect((await healthGet(`${url}/ext/health/readiness`)).status).toBe(200)

    await advance(15) // 45 s have passed
    expect((await postRaw(`${url}/ext/bc/C/rpc`, CHAIN_ID_CALL)).status).toBe(200)
    expect(await result(url, '/ext/info', 'info.isBootstrapped', { chain: 'C' })).toEqual({ isBootstrapped: true })
    await advance(15) // next boundary
    const healed = await healthGet(`${url}/ext/health`)
    expect(healed.status).toBe(200)
    expect(healed.body.checks.bootstrapped.message).toEqual([])
    expect(healed.body.checks.C.message.engine.consensus.processingBlocks).toBe(0)
  })

  it('bootstrapDelay at start: readiness answers 503 (not yet passed) until the nodes are ready', async () => {
    const devnet = await startTestDevnet('boot-delay', { nodes: 2, node: { bootstrapDelay: 40 } })
    try {
      const url = devnet.url
      const early = await healthGet(`${url}/ext/health/readiness`)
      expect(early.status).toBe(503)
      expect(early.body.checks.bootstrapped).toMatchObject({ error: 'subnets not bootstrapped', contiguousFailures: 1 })
      await devnet.network.advanceTime(30)
      expect((await healthGet(`${url}/ext/health/readiness`)).status).toBe(503)
      await devnet.network.advanceTime(30) // 60 s: bootstrapped since 40 s, checked at the 60 s run
      const ready = await healthGet(`${url}/ext/health/readiness`)
      expect(ready.status).toBe(200)
      expect(ready.body.checks.bootstrapped.message).toEqual([])
    } finally {
      await devnet.stop()
    }
  })
})
