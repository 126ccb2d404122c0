import { describe, expect, it } from 'vitest'
import { createClock, DEFAULT_MANUAL_START } from '../../../src/core/clock.js'
import { PRIMARY_NETWORK_ID } from '../../../src/core/ids.js'
import { APPLICATION_TAG, createNodeHealth, healthGet, HEALTH_GET_ROUTES } from '../../../src/network/health.js'
import { createNodeDispatcher } from '../../../src/rpc/node/dispatcher.js'
import { decodeHealthArgs, healthService } from '../../../src/rpc/node/health/index.js'
import { INVALID_ARGUMENT_MESSAGE, NodeArgumentError } from '../../../src/rpc/node/types.js'

const T0 = DEFAULT_MANUAL_START

async function node() {
  const health = createNodeHealth()
  health.registerReadinessCheck({ name: 'bootstrapped', tags: [APPLICATION_TAG], check: () => ({ details: [] }) })
  health.registerHealthCheck({ name: 'database', tags: [APPLICATION_TAG], check: () => ({}) })
  health.registerHealthCheck({ name: 'C', tags: [PRIMARY_NETWORK_ID], check: () => ({ details: { vm: null } }) })
  health.registerHealthCheck({ name: 'dex', tags: ['dexSubnet'], check: () => ({ error: 'block processing too long: 31s > 30s' }) })
  await health.start({ clock: createClock({ mode: 'manual', start: T0 }) })
  return { health }
}

const call = async (method: keyof typeof healthService, raw: unknown, ctx: Awaited<ReturnType<typeof node>>) => {
  const m = healthService[method]
  return m.handler(m.params(raw), ctx)
}

describe('health service', () => {
  it('serves health, readiness and liveness', () => {
    expect(Object.keys(healthService).sort()).toEqual(['health', 'liveness', 'readiness'])
  })

  it('health.health: every check, unhealthy when one fails; filtered by tags', async () => {
    const ctx = await node()
    const all = await call('health', undefined, ctx)
    expect(Object.keys(all.checks)).toEqual(['C', 'database', 'dex'])
    expect(all.healthy).toBe(false)
    const primary = await call('health', { tags: [PRIMARY_NETWORK_ID] }, ctx)
    expect(JSON.stringify(primary)).toMatch(
      /^\{"checks":\{"C":\{"message":\{"vm":null\},"timestamp":"2026-01-01T00:00:00Z","duration":\d+\},"database":\{"timestamp":"2026-01-01T00:00:00Z","duration":\d+\}\},"healthy":true\}$/,
    )
    const dex = await call('health', [{ tags: ['dexSubnet'] }], ctx)
    expect(dex.checks.dex).toMatchObject({ error: 'block processing too long: 31s > 30s', contiguousFailures: 1, timeOfFirstFailure: '2026-01-01T00:00:00Z' })
  })

  it('health.readiness: the bootstrapped check', async () => {
    const ctx = await node()
    const reply = await call('readiness', {}, ctx)
    expect(JSON.stringify(reply)).toMatch(/^\{"checks":\{"bootstrapped":\{"message":\[\],"timestamp":"2026-01-01T00:00:00Z","duration":\d+\}\},"healthy":true\}$/)
  })

  it('health.liveness: no checks, always healthy', async () => {
    const ctx = await node()
    expect(JSON.stringify(await call('liveness', { tags: ['x'] }, ctx))).toBe('{"checks":{},"healthy":true}')
    expect(JSON.stringify(await call('liveness', null, ctx))).toBe('{"checks":{},"healthy":true}')
  })

  it('GET routes map to the workers and answer 200/503', async () => {
    const ctx = await node()
    const get = (path: keyof typeof HEALTH_GET_ROUTES, tags: string[] = []) => healthGet(ctx.health.worker(HEALTH_GET_ROUTES[path]), tags)
    expect(get('/ext/health').status).toBe(503)
    expect(get('/ext/health/health', [PRIMARY_NETWORK_ID]).status).toBe(200)
    expect(get('/ext/health/readiness').status).toBe(200)
    expect(get('/ext/health/liveness')).toEqual({ status: 200, body: '{"checks":{},"healthy":true}\n' })
  })
})

describe('over the node JSON-RPC dispatcher', () => {
  it('answers health.liveness and health.health on the wire, 200 even when unhealthy', async () => {
    const ctx = await node()
    const dispatcher = createNodeDispatcher({ services: { health: healthService } })
    const live = await dispatcher.handle('{"jsonrpc":"2.0","id":1,"method":"health.liveness","params":{}}', ctx)
    expect(live.body).toBe('{"jsonrpc":"2.0","result":{"checks":{},"healthy":true},"id":1}\n')
    const dex = await dispatcher.handle('{"jsonrpc":"2.0","id":2,"method":"health.health","params":{"tags":["dexSubnet"]}}', ctx)
    expect(dex.body).toMatch(
      /^\{"jsonrpc":"2.0","result":\{"checks":\{"database":\{"timestamp":"2026-01-01T00:00:00Z","duration":\d+\},"dex":\{"error":"block processing too long: 31s \\u003e 30s","timestamp":"2026-01-01T00:00:00Z","duration":\d+,"contiguousFailures":1,"timeOfFirstFailure":"2026-01-01T00:00:00Z"\}\},"healthy":false\},"id":2\}\n$/,
    )
    const bad = await dispatcher.handle('{"jsonrpc":"2.0","id":3,"method":"health.readiness","params":{"tags":"x"}}', ctx)
    expect(bad.body).toBe(`{"jsonrpc":"2.0","error":{"code":-32000,"message":"${INVALID_ARGUMENT_MESSAGE}","data":null},"id":3}\n`)
  })
})

describe('decodeHealthArgs (APIArgs as gorilla json2 decodes it)', () => {
  it.each([
    [undefined, []],
    [null, []],
    [{}, []],
    [{ tags: null }, []],
    [{ tags: [] }, []],
    [{ tags: ['a', 'b'] }, ['a', 'b']],
    [{ tags: ['a', null] }, ['a', '']],
    [{ TAGS: ['x'], other: 1 }, ['x']],
    [{ tags: ['x'], Tags: ['y'] }, ['y']],
    [[], []],
    [[null], []],
    [[{ tags: ['p'] }], ['p']],
    [[{ tags: ['p'] }, 'extra'], ['p']],
  ])('%j → %j', (raw, tags) => {
    expect(decodeHealthArgs(raw)).toEqual({ tags })
  })

  it.each([[{ tags: 'a' }], [{ tags: [1] }], [{ tags: {} }], ['a'], [5], [true], [['a']], [[5]], [[{ tags: 'a' }]]])('%j is refused', (raw) => {
    let thrown: unknown
    try {
      decodeHealthArgs(raw)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(NodeArgumentError)
    expect((thrown as NodeArgumentError).shortMessage).toBe(INVALID_ARGUMENT_MESSAGE)
  })
})
