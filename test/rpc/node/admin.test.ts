import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { vmIdFromName } from '../../../src/core/ids.js'
import { createNodeAliases } from '../../../src/network/aliases.js'
import { createNodeLoggers } from '../../../src/network/logging.js'
import { NETWORK_PRESETS } from '../../../src/network/presets.js'
import { createProfiler } from '../../../src/network/profiler.js'
import { createVmRegistry } from '../../../src/network/vmRegistry.js'
import { createNodeDispatcher } from '../../../src/rpc/node/dispatcher.js'
import { MAX_ALIAS_LENGTH, adminService, defaultNodeConfig, type AdminContext } from '../../../src/rpc/node/admin/index.js'
import { INVALID_ARGUMENT_MESSAGE } from '../../../src/rpc/node/types.js'
import { makeTmpDir } from '../../network/admin/tmpDir.js'

const { pChainId: P, xChainId: X, cChainId: C } = NETWORK_PRESETS.local
const L1 = '2Z36RnQuk1hvsnFeGWzfZUfXNr7w1SjzmDQ78YxfTVNAkDq3nZ'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function makeNode(): AdminContext {
  const tmp = makeTmpDir('admin')
  const dataDir = join(tmp.dir, 'node0')
  const config = defaultNodeConfig(dataDir, { apiAdminEnabled: true })
  const loggers = createNodeLoggers({ dir: join(dataDir, 'logs'), chains: ['P', 'X', 'C', 'dexalot'] })
  const profiler = createProfiler({ dir: config.profileDir })
  cleanups.push(tmp.remove, () => loggers.close(), () => profiler.close())
  return {
    node: {
      aliases: createNodeAliases({ pChainId: P, xChainId: X, cChainId: C, apiAdminEnabled: true, l1s: [{ name: 'dexalot', blockchainId: L1 }] }),
      loggers,
      profiler,
      vms: createVmRegistry({ pluginDir: config.pluginDir }),
      config,
      dataDir,
    },
  }
}

const dispatcher = createNodeDispatcher<AdminContext>({ services: { admin: adminService } })

/** POSTs one request and returns the raw body. */
async function raw(ctx: AdminContext, method: string, params?: unknown): Promise<string> {
  const request = { jsonrpc: '2.0', id: 1, method: `admin.${method}`, ...(params === undefined ? {} : { params }) }
  return (await dispatcher.handle(JSON.stringify(request), ctx)).body
}

async function call(ctx: AdminContext, method: string, params?: unknown): Promise<any> {
  const body = JSON.parse(await raw(ctx, method, params))
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code, data: body.error.data })
  return body.result
}

async function errorOf(ctx: AdminContext, method: string, params?: unknown): Promise<{ code: number; message: string }> {
  const body = JSON.parse(await raw(ctx, method, params))
  expect(body.error).toBeDefined()
  expect(body.error.data).toBeNull()
  return { code: body.error.code, message: body.error.message }
}

const serverError = (message: string) => ({ code: -32000, message })

describe('admin service registration', () => {
  it('serves every admin method of api/admin/service.go except dbGet', () => {
    expect(Object.keys(adminService).sort()).toEqual([
      'alias', 'aliasChain', 'getChainAliases', 'getConfig', 'getLoggerLevel', 'loadVMs', 'lockProfile',
      'memoryProfile', 'setLoggerLevel', 'stacktrace', 'startCPUProfiler', 'stopCPUProfiler',
    ])
  })
})

describe('admin.alias', () => {
  it('routes /ext/<alias> on this node only', async () => {
    const ctx = makeNode()
    const other = makeNode()
    expect(await raw(ctx, 'alias', { endpoint: 'bc/X', alias: 'myAlias' })).toBe('{"jsonrpc":"2.0","result":{},"id":1}\n')
    expect(ctx.node.aliases.resolveRoute('myAlias/wallet')).toBe(`bc/${X}/wallet`)
    expect(other.node.aliases.lookupRoute('myAlias')).toBeUndefined()
    // by position, and with Go's case-insensitive field names
    await call(ctx, 'alias', [{ ENDPOINT: 'bc/C', Alias: 'cc' }])
    expect(ctx.node.aliases.resolveRoute('cc/rpc')).toBe(`bc/${C}/rpc`)
  })

  it('accepts any endpoint', async () => {
    const ctx = makeNode()
    expect(await call(ctx, 'alias', { endpoint: 'not/yet', alias: 'later' })).toEqual({})
    expect(await call(ctx, 'alias', {})).toEqual({})
  })

  it('gives the router errors', async () => {
    const ctx = makeNode()
    await call(ctx, 'alias', { endpoint: 'bc/X', alias: 'myAlias' })
    expect(await errorOf(ctx, 'alias', { endpoint: 'bc/C', alias: 'myAlias' })).toEqual(
      serverError('route is either already aliased or already maps to a handle: /ext/myAlias'),
    )
    expect(await errorOf(ctx, 'alias', { endpoint: 'bc/P', alias: 'admin' })).toEqual(
      serverError('failed to create endpoint as /ext/admin already exists'),
    )
    expect(await errorOf(ctx, 'alias', { endpoint: 'bc/C', alias: 'admin' })).toEqual(
      serverError('route is either already aliased or already maps to a handle: /ext/admin'),
    )
  })

  it('refuses an alias over 512 bytes, counting bytes', async () => {
    const ctx = makeNode()
    expect(await call(ctx, 'alias', { endpoint: 'bc/X', alias: 'a'.repeat(MAX_ALIAS_LENGTH) })).toEqual({})
    expect(await errorOf(ctx, 'alias', { endpoint: 'bc/X', alias: 'b'.repeat(513) })).toEqual(serverError('alias length is too long'))
    expect(await errorOf(ctx, 'alias', { endpoint: 'bc/X', alias: 'é'.repeat(257) })).toEqual(serverError('alias length is too long'))
  })

  it('reports params Go cannot decode with the generic message', async () => {
    const ctx = makeNode()
    for (const params of [{ endpoint: 5, alias: 'x' }, 'bc/X', [5], true])
      expect(await errorOf(ctx, 'alias', params)).toEqual(serverError(INVALID_ARGUMENT_MESSAGE))
  })
})

describe('admin.aliasChain', () => {
  it('aliases a chain by alias or id, and routes /ext/bc/<alias>', async () => {
    const ctx = makeNode()
    expect(await call(ctx, 'aliasChain', { chain: 'C', alias: 'cchain' })).toEqual({})
    expect(await call(ctx, 'aliasChain', { chain: L1, alias: 'dex' })).toEqual({})
    expect(ctx.node.aliases.resolveRoute('bc/cchain/rpc')).toBe(`bc/${C}/rpc`)
    expect(ctx.node.aliases.resolveRoute('bc/dex/validators')).toBe(`bc/${L1}/validators`)
    expect(await call(ctx, 'getChainAliases', { chain: C })).toEqual({ aliases: ['C', 'evm', C, 'cchain'] })
  })

  it('gives the aliaser and router errors, in avalanchego order', async () => {
    const ctx = makeNode()
    expect(await errorOf(ctx, 'aliasChain', { chain: 'nope', alias: 'x' })).toEqual(serverError('there is no ID with alias: nope'))
    expect(await errorOf(ctx, 'aliasChain', {})).toEqual(serverError('there is no ID with alias: '))
    expect(await errorOf(ctx, 'aliasChain', { chain: 'C', alias: 'avm' })).toEqual(serverError('alias already mapped to an ID: avm'))
    expect(await errorOf(ctx, 'aliasChain', { chain: 'nope', alias: 'z'.repeat(513) })).toEqual(serverError('alias length is too long'))
    await call(ctx, 'alias', { endpoint: 'bc/P', alias: 'bc/taken' })
    expect(await errorOf(ctx, 'aliasChain', { chain: 'X', alias: 'taken' })).toEqual(
      serverError('route is either already aliased or already maps to a handle: /ext/bc/taken'),
    )
    // the chain alias stayed
    expect((await call(ctx, 'getChainAliases', { chain: X })).aliases).toEqual(['X', 'avm', X, 'taken'])
  })
})

describe('admin.getChainAliases', () => {
  it('lists aliases in insertion order; null for an unknown valid id', async () => {
    const ctx = makeNode()
    expect(await call(ctx, 'getChainAliases', { chain: P })).toEqual({ aliases: ['P', 'platform', P] })
    expect(await call(ctx, 'getChainAliases', [{ chain: X }])).toEqual({ aliases: ['X', 'avm', X] })
    expect(await call(ctx, 'getChainAliases', { chain: L1 })).toEqual({ aliases: ['dexalot', L1] })
    expect(await raw(ctx, 'getChainAliases', { chain: vmIdFromName('evm') })).toBe('{"jsonrpc":"2.0","result":{"aliases":null},"id":1}\n')
  })

  it('takes only a cb58 id, with the cb58 errors', async () => {
    const ctx = makeNode()
    const cases: [string, string][] = [
      ['', 'base58 decoding error: zero length string'],
      ['X', 'input string is smaller than the checksum size'],
      ['C0', "base58 decoding error: Invalid base58 digit ('0')"],
      ['Cé', 'base58 decoding error: High-bit set on invalid digit'],
      [P.slice(0, -1) + 'Z', 'invalid input checksum'],
      ['6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV', 'invalid hash length: expected 32 bytes but got 20'],
    ]
    for (const [chain, message] of cases) expect(await errorOf(ctx, 'getChainAliases', { chain })).toEqual(serverError(message))
    expect(await errorOf(ctx, 'getChainAliases')).toEqual(serverError('base58 decoding error: zero length string'))
  })
})

describe('admin.getLoggerLevel / admin.setLoggerLevel', () => {
  const info = { logLevel: 'INFO', displayLevel: 'INFO' }

  it('gets one logger or all of them', async () => {
    const ctx = makeNode()
    expect(await call(ctx, 'getLoggerLevel', { loggerName: 'C' })).toEqual({ loggerLevels: { C: info } })
    const all = await raw(ctx, 'getLoggerLevel')
    expect(Object.keys(JSON.parse(all).result.loggerLevels)).toEqual(['C', 'P', 'X', 'dexalot', 'main', 'vm-factory'])
    expect(await call(ctx, 'getLoggerLevel', { loggerName: '' })).toEqual(await call(ctx, 'getLoggerLevel', [{}]))
    expect(await errorOf(ctx, 'getLoggerLevel', { loggerName: 'foo' })).toEqual(serverError('logger with name "foo" not found'))
    expect(await raw(ctx, 'getLoggerLevel', { loggerName: 'foo' })).toContain('"message":"logger with name \\"foo\\" not found"')
  })

  it('sets levels and replies with the affected loggers', async () => {
    const ctx = makeNode()
    expect(await call(ctx, 'setLoggerLevel', { loggerName: 'C', logLevel: 'debug' })).toEqual({
      loggerLevels: { C: { logLevel: 'DEBUG', displayLevel: 'INFO' } },
    })
    expect(await call(ctx, 'setLoggerLevel', { loggerName: 'P', displayLevel: 'Off', logLevel: null })).toEqual({
      loggerLevels: { P: { logLevel: 'INFO', displayLevel: 'OFF' } },
    })
    const all = await call(ctx, 'setLoggerLevel', { logLevel: 'WARN' })
    expect(Object.keys(all.loggerLevels)).toHaveLength(6)
    expect(all.loggerLevels.C).toEqual({ logLevel: 'WARN', displayLevel: 'INFO' })
    expect(all.loggerLevels.P).toEqual({ logLevel: 'WARN', displayLevel: 'OFF' })
    expect(await call(ctx, 'getLoggerLevel', { loggerName: 'main' })).toEqual({ loggerLevels: { main: { logLevel: 'WARN', displayLevel: 'INFO' } } })
  })

  it('changes what the node writes to its log file', async () => {
    const ctx = makeNode()
    const logger = ctx.node.loggers.get('C')
    const file = join(ctx.node.dataDir, 'logs', 'C.log')
    const written = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).msg) : [])
    logger.debug('before: hidden')
    await call(ctx, 'setLoggerLevel', { loggerName: 'C', logLevel: 'DEBUG' })
    logger.debug('after: written')
    await call(ctx, 'setLoggerLevel', { logLevel: 'ERROR' })
    logger.warn('below error: hidden')
    logger.error('error: written')
    expect(written()).toEqual(['after: written', 'error: written'])
  })

  it('checks levels while decoding params, then the missing levels, then the name', async () => {
    const ctx = makeNode()
    for (const params of [{ logLevel: 'LOUD' }, { logLevel: '' }, { displayLevel: 3 }, { loggerName: 'nope', logLevel: 'loud' }])
      expect(await errorOf(ctx, 'setLoggerLevel', params)).toEqual(serverError(INVALID_ARGUMENT_MESSAGE))
    expect(await errorOf(ctx, 'setLoggerLevel', { loggerName: 'C' })).toEqual(serverError('need to specify either displayLevel or logLevel'))
    expect(await errorOf(ctx, 'setLoggerLevel', { logLevel: null, displayLevel: null })).toEqual(
      serverError('need to specify either displayLevel or logLevel'),
    )
    expect(await errorOf(ctx, 'setLoggerLevel', { loggerName: 'nope', logLevel: 'INFO' })).toEqual(serverError('logger with name "nope" not found'))
  })
})

describe('admin.loadVMs', () => {
  it('loads new plugins, reports failures only when there are some, and nothing twice', async () => {
    const ctx = makeNode()
    const dir = ctx.node.config.pluginDir
    expect(await errorOf(ctx, 'loadVMs')).toEqual(serverError(`open ${dir}: no such file or directory`))
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'myvm.mjs'), `export default { id: 'myvm', aliases: ['my-vm'] }`)
    expect(await raw(ctx, 'loadVMs', {})).toBe(`{"jsonrpc":"2.0","result":{"newVMs":{"${vmIdFromName('myvm')}":["myvm","my-vm"]}},"id":1}\n`)
    expect(await raw(ctx, 'loadVMs')).toBe('{"jsonrpc":"2.0","result":{"newVMs":{}},"id":1}\n')
    writeFileSync(join(dir, 'bad.mjs'), `export default {}`)
    writeFileSync(join(dir, 'clash.mjs'), `export default { id: 'vm9', aliases: ['my-vm'] }`)
    expect(await call(ctx, 'loadVMs')).toEqual({
      newVMs: {},
      failedVMs: {
        'bad.mjs': 'a VM plugin must export { id: string, aliases?: string[] }',
        [vmIdFromName('vm9')]: 'alias already mapped to an ID: my-vm',
      },
    })
  })
})

describe('admin profiles', () => {
  it('starts and stops the CPU profiler with the profiler errors', async () => {
    const ctx = makeNode()
    const dir = ctx.node.config.profileDir
    expect(await errorOf(ctx, 'stopCPUProfiler')).toEqual(serverError("cpu profiler doesn't exist"))
    expect(await call(ctx, 'startCPUProfiler', {})).toEqual({})
    expect(await errorOf(ctx, 'startCPUProfiler')).toEqual(serverError('cpu profiler already running'))
    expect(await call(ctx, 'stopCPUProfiler', [])).toEqual({})
    expect(JSON.parse(readFileSync(join(dir, 'cpu.profile'), 'utf8')).nodes.length).toBeGreaterThan(0)
    expect(await errorOf(ctx, 'stopCPUProfiler')).toEqual(serverError("cpu profiler doesn't exist"))
  })

  it('writes mem.profile and lock.profile, atomically', async () => {
    const ctx = makeNode()
    const dir = ctx.node.config.profileDir
    ctx.node.profiler.waits.record('C', 250)
    expect(await call(ctx, 'memoryProfile')).toEqual({})
    expect(await call(ctx, 'lockProfile')).toEqual({})
    expect(await call(ctx, 'lockProfile')).toEqual({})
    expect(readdirSync(dir).sort()).toEqual(['lock.profile', 'mem.profile'])
    expect(JSON.parse(readFileSync(join(dir, 'mem.profile'), 'utf8')).head).toBeDefined()
    expect(JSON.parse(readFileSync(join(dir, 'lock.profile'), 'utf8')).sites).toEqual({ C: { count: 1, totalWaitNs: 250, maxWaitNs: 250 } })
  })

  it('reports params Go cannot decode into struct{}', async () => {
    const ctx = makeNode()
    expect(await errorOf(ctx, 'lockProfile', 'x')).toEqual(serverError(INVALID_ARGUMENT_MESSAGE))
    expect(await errorOf(ctx, 'memoryProfile', [1])).toEqual(serverError(INVALID_ARGUMENT_MESSAGE))
  })

  it('reports a profile directory that cannot be created as Go would', async () => {
    const ctx = makeNode()
    mkdirSync(ctx.node.dataDir, { recursive: true })
    writeFileSync(ctx.node.config.profileDir, 'a file where the directory should be')
    expect(await errorOf(ctx, 'lockProfile')).toEqual(serverError(`mkdir ${ctx.node.config.profileDir}: not a directory`))
  })
})

describe('admin.stacktrace', () => {
  it('writes stacktrace.txt into the node data dir', async () => {
    const ctx = makeNode()
    expect(await call(ctx, 'stacktrace')).toEqual({})
    expect(readFileSync(join(ctx.node.dataDir, 'stacktrace.txt'), 'utf8')).toContain('JavaScript stack:')
    expect(readdirSync(ctx.node.dataDir)).toEqual(['stacktrace.txt'])
  })
})

describe('admin.getConfig', () => {
  it('returns the node config under avalanchego node.Config keys', async () => {
    const ctx = makeNode()
    const dataDir = ctx.node.dataDir
    expect(await raw(ctx, 'getConfig')).toBe(
      '{"jsonrpc":"2.0","result":{' +
        '"httpConfig":{"apiConfig":{"adminAPIEnabled":true},"httpHost":"127.0.0.1","httpPort":9650},' +
        '"networkID":12345,"healthCheckFreq":30000000000,' +
        `"profilerConfig":{"dir":"${join(dataDir, 'profiles')}"},` +
        `"loggingConfig":{"directory":"${join(dataDir, 'logs')}","logLevel":"INFO","displayLevel":"INFO"},` +
        `"pluginDir":"${join(dataDir, 'plugins')}","chainDataDir":"${join(dataDir, 'chainData')}"` +
        '},"id":1}\n',
    )
  })
})
