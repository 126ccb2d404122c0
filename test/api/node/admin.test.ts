/**
 * `/ext/admin` end to end over HTTP: routed only with `apiAdminEnabled`; aliases per node; the
 * error texts of avalanchego; profiles, plugins and loggers writing where the node's directories
 * say (`<profileDir>/node-<i>`, `<dataDir>/node-<i>/logs/<logger>.log`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vmIdFromName } from '../../../src/core/ids.js'
import { createNetwork, createServer } from '../../../src/index.js'
import { listenServer } from '../../../src/api/server.js'
import { testGenesis } from '../../l1/helpers.js'
import { call, makeTmpDir, postRaw, request, result, rpcError, startTestDevnet, type TestDevnet } from './helpers.js'

const NOT_FOUND = '404 page not found\n'
const INVALID_ARGUMENT = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"
const CHAIN_ID_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

describe('admin disabled (the default)', () => {
  let devnet: TestDevnet
  beforeAll(async () => {
    devnet = await startTestDevnet('admin-off', { nodes: 2 })
  })
  afterAll(() => devnet?.stop())

  it.each(['GET', 'POST'])('%s /ext/admin → Go 404 on every node', async (method) => {
    for (const node of devnet.nodes) {
      const res = await request(`${node.url}/ext/admin`, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"admin.getLoggerLevel"}' } : {}),
      })
      expect(res.status).toBe(404)
      expect(res.body).toBe(NOT_FOUND)
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('node-id')).toBe(node.nodeId)
    }
  })
})

describe('admin enabled', () => {
  let devnet: TestDevnet
  let profileDir: string
  let pluginDir: string
  let url: string
  const admin = (method: string, params?: unknown, base = url) => result(base, '/ext/admin', `admin.${method}`, params)
  const adminError = (method: string, params: unknown, message: string, base = url) => rpcError(base, '/ext/admin', `admin.${method}`, params, message)

  beforeAll(async () => {
    const tmp = makeTmpDir('admin-dirs')
    profileDir = join(tmp.dir, 'profiles')
    pluginDir = join(tmp.dir, 'plugins')
    mkdirSync(pluginDir, { recursive: true })
    devnet = await startTestDevnet('admin-on', {
      nodes: 3,
      l1s: [{ name: 'dex', genesis: testGenesis() }],
      node: { apiAdminEnabled: true, dataDir: join(tmp.dir, 'data'), profileDir, pluginDir },
    })
    const stop = devnet.stop
    devnet.stop = async () => {
      await stop()
      tmp.remove()
    }
    url = devnet.url
  })
  afterAll(() => devnet?.stop())

  it('GET /ext/admin → 405 once routed', async () => {
    const res = await request(`${url}/ext/admin`)
    expect(res.status).toBe(405)
    expect(res.body).toBe('rpc: POST method required, received GET')
  })

  it('admin.alias: the info API answers at /ext/<alias>, on that node only; the original path still works', async () => {
    expect((await postRaw(`${url}/ext/myinfo`, '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}')).status).toBe(404)
    const reply = await call(url, '/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'myinfo' })
    expect(reply.body).toBe(`{"jsonrpc":"2.0","result":{},"id":${String(reply.json.id)}}\n`)
    expect((await result(url, '/ext/myinfo', 'info.getNodeID')).nodeID).toBe(devnet.nodes[0]!.nodeId)
    expect((await result(url, '/ext/info', 'info.getNodeID')).nodeID).toBe(devnet.nodes[0]!.nodeId)
    // the dialect comes along: GET on the alias is gorilla's 405
    expect((await request(`${url}/ext/myinfo`)).body).toBe('rpc: POST method required, received GET')
    const other = await postRaw(`${devnet.nodes[1]!.url}/ext/myinfo`, '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}')
    expect(other.status).toBe(404)
    expect(other.body).toBe(NOT_FOUND)
  })

  it('admin.alias errors: too long, already reserved, route exists (the reservation stays)', async () => {
    await adminError('alias', { endpoint: 'info', alias: 'a'.repeat(513) }, 'alias length is too long')
    await admin('alias', { endpoint: 'info', alias: 'b'.repeat(512) })
    expect((await result(url, `/ext/${'b'.repeat(512)}`, 'info.getNetworkID')).networkID).toBe('12345')
    await admin('alias', { endpoint: 'info', alias: 'twice' })
    await adminError('alias', { endpoint: 'health', alias: 'twice' }, 'route is either already aliased or already maps to a handle: /ext/twice')
    await adminError('alias', { endpoint: 'health', alias: 'info' }, 'failed to create endpoint as /ext/info already exists')
    await adminError('alias', { endpoint: 'health', alias: 'info' }, 'route is either already aliased or already maps to a handle: /ext/info')
    // /ext/info is untouched
    expect((await result(url, '/ext/info', 'info.getNetworkID')).networkID).toBe('12345')
  })

  it('admin.aliasChain of the C-chain: /ext/bc/<alias>/rpc answers eth_chainId on that node only', async () => {
    await admin('aliasChain', { chain: devnet.network.preset.cChainId, alias: 'cee' })
    const res = await postRaw(`${url}/ext/bc/cee/rpc`, CHAIN_ID_CALL)
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' })
    // the chain alias works wherever the id does
    expect(await result(url, '/ext/info', 'info.getBlockchainID', { alias: 'cee' })).toEqual({ blockchainID: devnet.network.preset.cChainId })
    expect(await admin('getChainAliases', { chain: devnet.network.preset.cChainId })).toEqual({ aliases: ['C', 'evm', devnet.network.preset.cChainId, 'cee'] })
    for (const node of devnet.nodes.slice(1)) {
      const elsewhere = await postRaw(`${node.url}/ext/bc/cee/rpc`, CHAIN_ID_CALL)
      expect(elsewhere.status).toBe(404)
      expect(elsewhere.body).toBe(NOT_FOUND)
      await rpcError(node.url, '/ext/info', 'info.getBlockchainID', { alias: 'cee' }, 'there is no ID with alias: cee')
    }
    // /ext/<alias> is not created by aliasChain
    expect((await postRaw(`${url}/ext/cee/rpc`, CHAIN_ID_CALL)).status).toBe(404)
  })

  it('admin.aliasChain by alias of an L1, and its errors', async () => {
    await admin('aliasChain', { chain: 'dex', alias: 'dex2' })
    const res = await postRaw(`${url}/ext/bc/dex2/rpc`, CHAIN_ID_CALL)
    expect(JSON.parse(res.body).result).toBe(await (async () => JSON.parse((await postRaw(`${url}/ext/bc/dex/rpc`, CHAIN_ID_CALL)).body).result)())
    await adminError('aliasChain', { chain: 'C', alias: 'c'.repeat(513) }, 'alias length is too long')
    await adminError('aliasChain', { chain: 'nochain', alias: 'x1' }, 'there is no ID with alias: nochain')
    await adminError('aliasChain', { chain: '', alias: 'x1' }, 'there is no ID with alias: ')
    await adminError('aliasChain', { chain: 'C', alias: 'dex2' }, 'alias already mapped to an ID: dex2')
    await adminError('aliasChain', { chain: 'C', alias: 'X' }, 'alias already mapped to an ID: X')
  })

  it('admin.getChainAliases: ids only, aliases are cb58 errors', async () => {
    const { preset } = devnet.network
    expect(await admin('getChainAliases', { chain: preset.xChainId })).toEqual({ aliases: ['X', 'avm', preset.xChainId] })
    expect(await admin('getChainAliases', { chain: preset.pChainId })).toEqual({ aliases: ['P', 'platform', '11111111111111111111111111111111LpoYY'] })
    await adminError('getChainAliases', { chain: 'X' }, 'input string is smaller than the checksum size')
    await adminError('getChainAliases', { chain: 'dex' }, 'input string is smaller than the checksum size')
    await adminError('getChainAliases', { chain: '' }, 'base58 decoding error: zero length string')
    await adminError('getChainAliases', { chain: 'C0C0' }, "base58 decoding error: Invalid base58 digit ('0')")
    // a valid id of no chain → null aliases
    const noChain = await call(url, '/ext/admin', 'admin.getChainAliases', { chain: devnet.network.l1('dex')!.subnetId })
    expect(noChain.body).toBe(`{"jsonrpc":"2.0","result":{"aliases":null},"id":${String(noChain.json.id)}}\n`)
  })

  it('admin.getLoggerLevel / setLoggerLevel and their errors', async () => {
    const all = await admin('getLoggerLevel', {})
    expect(Object.keys(all.loggerLevels).sort()).toEqual(['C', 'P', 'X', 'dex', 'main', 'vm-factory'].sort())
    for (const levels of Object.values(all.loggerLevels)) expect(levels).toEqual({ logLevel: 'INFO', displayLevel: 'INFO' })
    await adminError('setLoggerLevel', { loggerName: 'C' }, 'need to specify either displayLevel or logLevel')
    await adminError('setLoggerLevel', { loggerName: 'C', logLevel: null, displayLevel: null }, 'need to specify either displayLevel or logLevel')
    await adminError('setLoggerLevel', { loggerName: 'foo', logLevel: 'DEBUG' }, 'logger with name "foo" not found')
    await adminError('getLoggerLevel', { loggerName: 'foo' }, 'logger with name "foo" not found')
    await adminError('setLoggerLevel', { loggerName: 'C', logLevel: 'LOUD' }, INVALID_ARGUMENT)
    await adminError('setLoggerLevel', { loggerName: 'C', logLevel: '' }, INVALID_ARGUMENT)
    await adminError('setLoggerLevel', { loggerName: 'C', displayLevel: 3 }, INVALID_ARGUMENT)
    const set = await admin('setLoggerLevel', { loggerName: 'P', displayLevel: 'warn' })
    expect(set).toEqual({ loggerLevels: { P: { logLevel: 'INFO', displayLevel: 'WARN' } } })
    expect(await admin('getLoggerLevel', { loggerName: 'P' })).toEqual({ loggerLevels: { P: { logLevel: 'INFO', displayLevel: 'WARN' } } })
    // per node: node 1 is untouched
    expect(await admin('getLoggerLevel', { loggerName: 'P' }, devnet.nodes[1]!.url)).toEqual({ loggerLevels: { P: { logLevel: 'INFO', displayLevel: 'INFO' } } })
    await admin('setLoggerLevel', { loggerName: 'P', displayLevel: 'INFO' })
  })

  it('setLoggerLevel DEBUG on C: a mined block writes "accepted block" to <dataDir>/node-0/logs/C.log; back at INFO it does not', async () => {
    const logOf = (i: number) => join(devnet.dataDir, `node-${i}`, 'logs', 'C.log')
    const read = (i: number) => (existsSync(logOf(i)) ? readFileSync(logOf(i), 'utf8') : '')
    const accepted = (text: string) => text.split('\n').filter((line) => line.includes('accepted block'))
    const mine = async () => {
      const res = await postRaw(`${url}/ext/bc/C/rpc`, '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}')
      expect(JSON.parse(res.body).error).toBeUndefined()
    }

    await mine()
    expect(accepted(read(0))).toHaveLength(0)

    expect(await admin('setLoggerLevel', { loggerName: 'C', logLevel: 'DEBUG' })).toEqual({ loggerLevels: { C: { logLevel: 'DEBUG', displayLevel: 'INFO' } } })
    await mine()
    const lines = accepted(read(0))
    expect(lines).toHaveLength(1)
    const height = Number(BigInt(JSON.parse((await postRaw(`${url}/ext/bc/C/rpc`, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}')).body).result))
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'accepted block', height })
    // only node 0's logger changed
    expect(accepted(read(1))).toHaveLength(0)
    // another logger (the L1's) stays at INFO
    await postRaw(`${url}/ext/bc/dex/rpc`, '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}')
    const dexLog = join(devnet.dataDir, 'node-0', 'logs', 'dex.log')
    expect(existsSync(dexLog) ? readFileSync(dexLog, 'utf8') : '').not.toContain('accepted block')

    await admin('setLoggerLevel', { loggerName: 'C', logLevel: 'INFO' })
    await mine()
    expect(accepted(read(0))).toHaveLength(1)
  })

  it('profiles under <profileDir>/node-<i>: cpu.profile, mem.profile, lock.profile', async () => {
    const dir0 = join(profileDir, 'node-0')
    const dir1 = join(profileDir, 'node-1')
    await adminError('stopCPUProfiler', {}, "cpu profiler doesn't exist")
    expect(await admin('startCPUProfiler', {})).toEqual({})
    await adminError('startCPUProfiler', {}, 'cpu profiler already running')
    // node 1 has its own profiler
    await adminError('stopCPUProfiler', {}, "cpu profiler doesn't exist", devnet.nodes[1]!.url)
    await postRaw(`${url}/ext/bc/C/rpc`, '{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}')
    expect(await admin('stopCPUProfiler')).toEqual({})
    await adminError('stopCPUProfiler', {}, "cpu profiler doesn't exist")
    const cpu = JSON.parse(readFileSync(join(dir0, 'cpu.profile'), 'utf8'))
    expect(Array.isArray(cpu.nodes)).toBe(true)
    expect(cpu.nodes.length).toBeGreaterThan(0)
    expect(typeof cpu.startTime).toBe('number')
    expect(typeof cpu.endTime).toBe('number')

    expect(await admin('memoryProfile', {})).toEqual({})
    const mem = JSON.parse(readFileSync(join(dir0, 'mem.profile'), 'utf8'))
    expect(mem.head).toBeDefined()
    expect(Array.isArray(mem.samples)).toBe(true)

    expect(await admin('lockProfile')).toEqual({})
    const lock = JSON.parse(readFileSync(join(dir0, 'lock.profile'), 'utf8'))
    expect(lock).toBeTypeOf('object')
    expect(JSON.stringify(lock)).toContain('l1sim-lock-profile/1')

    // nothing was written for node 1 until it is asked
    expect(existsSync(join(dir1, 'mem.profile'))).toBe(false)
    await admin('memoryProfile', {}, devnet.nodes[1]!.url)
    expect(existsSync(join(dir1, 'mem.profile'))).toBe(true)
    expect(existsSync(join(dir1, 'cpu.profile'))).toBe(false)
  })

  it('loadVMs: a valid plugin → newVMs, a broken one → failedVMs; per node', async () => {
    writeFileSync(join(pluginDir, 'good.mjs'), "export default { id: 'testvm', aliases: ['test-vm'] }\n")
    writeFileSync(join(pluginDir, 'broken.mjs'), "throw new Error('plugin exploded')\n")
    writeFileSync(join(pluginDir, 'notes.txt'), 'not a plugin\n')
    const id = vmIdFromName('testvm')
    const first = await call(url, '/ext/admin', 'admin.loadVMs', {})
    expect(first.json.result).toEqual({ newVMs: { [id]: ['testvm', 'test-vm'] }, failedVMs: { 'broken.mjs': 'plugin exploded' } })
    expect(Object.keys(first.json.result)).toEqual(['newVMs', 'failedVMs'])
    // the VM is now known to this node
    expect((await result(url, '/ext/info', 'info.getVMs')).vms[id]).toEqual(['testvm', 'test-vm'])
    expect((await result(devnet.nodes[1]!.url, '/ext/info', 'info.getVMs')).vms[id]).toBeUndefined()
    // again: nothing new, the broken one still fails
    expect(await admin('loadVMs')).toEqual({ newVMs: {}, failedVMs: { 'broken.mjs': 'plugin exploded' } })
    writeFileSync(join(pluginDir, 'broken.mjs'), 'export default { nope: 1 }\n')
    expect(await admin('loadVMs')).toEqual({ newVMs: {}, failedVMs: { 'broken.mjs': 'a VM plugin must export { id: string, aliases?: string[] }' } })
    // node 1 loads on its own
    const other = await admin('loadVMs', undefined, devnet.nodes[1]!.url)
    expect(other.newVMs).toEqual({ [id]: ['testvm', 'test-vm'] })
  })

  it('getConfig reflects the directories', async () => {
    const config = await admin('getConfig')
    expect(JSON.stringify(config)).toContain(join(profileDir, 'node-0'))
  })

  it('getConfig reports the host and the port each node listens on (started on port 0)', async () => {
    for (const node of devnet.nodes) {
      const port = Number(new URL(node.url).port)
      expect(port).not.toBe(9650 + 2 * node.index)
      const config = await admin('getConfig', undefined, node.url)
      expect(config.httpConfig).toEqual({ apiConfig: { adminAPIEnabled: true }, httpHost: '127.0.0.1', httpPort: port })
    }
  })
})

describe('a node served by createServer alone', () => {
  it('getConfig and info.getNodeIP report the port it is bound to', async () => {
    const tmp = makeTmpDir('admin-create-server')
    const network = await createNetwork({ nodes: 2, node: { apiAdminEnabled: true, dataDir: tmp.dir } })
    const server = createServer({ network, node: network.nodes[1]!, port: 0 })
    try {
      const base = await listenServer(server)
      const port = Number(new URL(base).port)
      expect((await result(base, '/ext/admin', 'admin.getConfig')).httpConfig).toMatchObject({ httpHost: '127.0.0.1', httpPort: port })
      expect(await result(base, '/ext/info', 'info.getNodeIP')).toEqual({ ip: `127.0.0.1:${port + 1}` })
    } finally {
      await server.close()
      await network.close()
      tmp.remove()
    }
  })
})
