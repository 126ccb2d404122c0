/**
 * The node APIs end to end over plain HTTP on real sockets (port 0): gorilla's JSON-RPC dialect on
 * every node endpoint, and the info API of a 5-node network. Admin, health, validators and a real
 * client live under test/api/node/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyProofOfPossession } from '../../src/core/keys.js'
import { PRIMARY_NETWORK_ID } from '../../src/core/ids.js'
import { testGenesis } from '../l1/helpers.js'
import { call, JSON_HEADERS, postRaw, request, result, rpcError, sim, startTestDevnet, type RawResponse, type TestDevnet } from './node/helpers.js'

let devnet: TestDevnet
let url: string

beforeAll(async () => {
  devnet = await startTestDevnet('dialect', { l1s: [{ name: 'dex', genesis: testGenesis() }] })
  url = devnet.url
})
afterAll(() => devnet?.stop())

function expectRefusal(res: RawResponse, status: number, body: string): void {
  expect(res.status).toBe(status)
  expect(res.body).toBe(body)
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
}

describe('the gorilla JSON-RPC dialect over HTTP', () => {
  const ENDPOINTS = ['/ext/info', '/ext/sim', '/ext/health'] as const

  it.each(['/ext/info', '/ext/sim'])('GET %s → 405 as plain text without a newline', async (path) => {
    const res = await request(`${url}${path}`)
    expectRefusal(res, 405, 'rpc: POST method required, received GET')
    expect(res.headers.get('x-content-type-options')).toBeNull()
  })

  it('PUT /ext/health → 405 (GET is the report, every other method JSON-RPC)', async () => {
    const res = await request(`${url}/ext/health`, { method: 'PUT', headers: JSON_HEADERS, body: '{}' })
    expectRefusal(res, 405, 'rpc: POST method required, received PUT')
  })

  it.each(ENDPOINTS)('%s: a missing Content-Type → 415 with an empty type', async (path) => {
    // fetch would add text/plain for a string body; a Uint8Array body carries no Content-Type.
    const res = await request(`${url}${path}`, { method: 'POST', body: new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}') })
    expectRefusal(res, 415, 'rpc: unrecognized Content-Type: ')
  })

  it.each([
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['text/plain;charset=UTF-8', 'text/plain'],
    ['application/json-rpc', 'application/json-rpc'],
  ])('Content-Type %s → 415 naming %s', async (sent, named) => {
    const res = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}', { 'content-type': sent })
    expectRefusal(res, 415, `rpc: unrecognized Content-Type: ${named}`)
  })

  it.each(['application/json', 'APPLICATION/JSON', 'application/json; charset=utf-8', 'application/json;charset=UTF-8'])('Content-Type %s is accepted', async (type) => {
    const res = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}', { 'content-type': type })
    expect(res.status).toBe(200)
    expect(res.body).toBe('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n')
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it.each(ENDPOINTS)('%s: malformed JSON → -32700 with the echoed empty request, HTTP 200, no nosniff', async (path) => {
    const res = await postRaw(`${url}${path}`, '{bad')
    expect(res.status).toBe(200)
    expect(res.body).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"invalid character \'b\' looking for beginning of object key string","data":{"jsonrpc":"","method":"","params":null,"id":null}},"id":null}\n',
    )
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-content-type-options')).toBeNull()
  })

  it('an empty body → -32700 EOF', async () => {
    const res = await postRaw(`${url}/ext/info`, '')
    expect(JSON.parse(res.body).error).toEqual({ code: -32700, message: 'EOF', data: { jsonrpc: '', method: '', params: null, id: null } })
  })

  it('a wrong jsonrpc version → -32600 echoing the request', async () => {
    const res = await postRaw(`${url}/ext/info`, '{"jsonrpc":"1.0","id":7,"method":"info.getNetworkID","params":{}}')
    expect(res.status).toBe(200)
    expect(res.body).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"jsonrpc must be 2.0","data":{"jsonrpc":"1.0","method":"info.getNetworkID","params":{},"id":7}},"id":7}\n',
    )
    const missing = await postRaw(`${url}/ext/info`, '{"id":8,"method":"info.getNetworkID"}')
    expect(JSON.parse(missing.body).error.code).toBe(-32600)
  })

  it('a batch is a parse error: batches are not supported', async () => {
    const res = await postRaw(`${url}/ext/info`, '[{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}]')
    expect(res.status).toBe(200)
    expect(res.body).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"json: cannot unmarshal array into Go value of type json2.serverRequest","data":{"jsonrpc":"","method":"","params":null,"id":null}},"id":null}\n',
    )
  })

  it('a notification (no id) gets HTTP 200 and an empty body, yet runs', async () => {
    const res = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","method":"info.getNetworkID"}')
    expect(res.status).toBe(200)
    expect(res.body).toBe('')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const nullId = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":null,"method":"info.getNetworkID"}')
    expect(nullId.body).toBe('')
    // The call does run: a notification to sim.advanceTime moves the clock.
    const before = devnet.network.clock.now()
    const advance = await postRaw(`${url}/ext/sim`, '{"jsonrpc":"2.0","method":"sim.advanceTime","params":{"seconds":"1"}}')
    expect(advance.body).toBe('')
    expect(devnet.network.clock.now()).toBe(before + 1)
  })

  it('the id is echoed byte for byte', async () => {
    const res = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1.0,"method":"info.getNetworkID"}')
    expect(res.body).toBe('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1.0}\n')
    const str = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":"a","method":"info.getNetworkID"}')
    expect(str.body).toBe('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":"a"}\n')
  })

  it('unknown methods and services → -32000 with gorilla texts, no nosniff', async () => {
    const method = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.nope"}')
    expect(method.body).toBe('{"jsonrpc":"2.0","error":{"code":-32000,"message":"rpc: can\'t find method \\"info.Nope\\"","data":null},"id":1}\n')
    expect(method.headers.get('x-content-type-options')).toBeNull()
    const service = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"admin.alias"}')
    expect(JSON.parse(service.body).error.message).toBe('rpc: can\'t find service "admin.Alias"')
    const upper = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.GetNetworkID"}')
    expect(JSON.parse(upper.body).error.message).toBe('method must start with a non-uppercase letter')
  })

  it('a handler error → -32000 with nosniff', async () => {
    const res = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"alias":"nope"}}')
    expect(res.body).toBe('{"jsonrpc":"2.0","error":{"code":-32000,"message":"there is no ID with alias: nope","data":null},"id":1}\n')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('params that do not decode → the generic invalid-argument error', async () => {
    const res = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"alias":5}}')
    expect(JSON.parse(res.body).error).toEqual({
      code: -32000,
      message: "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
      data: null,
    })
    // by position works too
    const positional = await postRaw(`${url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":[{"alias":"C"}]}')
    expect(JSON.parse(positional.body).result).toEqual({ blockchainID: devnet.network.preset.cChainId })
  })

  it('every response carries its own node-id header, each node a different one', async () => {
    const seen = new Set<string>()
    for (const node of devnet.nodes) {
      const responses = [
        await postRaw(`${node.url}/ext/info`, '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}'),
        await request(`${node.url}/ext/info`),
        await postRaw(`${node.url}/ext/info`, '{}', { 'content-type': 'text/plain' }),
        await postRaw(`${node.url}/ext/info`, '{bad'),
        await request(`${node.url}/ext/health`),
        await request(`${node.url}/ext/health/liveness`),
        await request(`${node.url}/ext/admin`),
        await request(`${node.url}/nowhere`),
        await postRaw(`${node.url}/ext/bc/C/rpc`, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'),
        await postRaw(`${node.url}/ext/bc/dex/validators`, '{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators"}'),
      ]
      for (const res of responses) expect(res.headers.get('node-id')).toBe(node.nodeId)
      expect(JSON.parse(responses[0]!.body).result.nodeID).toBe(node.nodeId)
      seen.add(node.nodeId)
    }
    expect(seen.size).toBe(5)
  })

  it('an unknown path → Go 404', async () => {
    const res = await request(`${url}/ext/nope`)
    expect(res.status).toBe(404)
    expect(res.body).toBe('404 page not found\n')
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    // gorilla/mux: exact paths, a trailing slash is another route
    expect((await postRaw(`${url}/ext/info/`, '{"jsonrpc":"2.0","id":1,"method":"info.getNodeID"}')).status).toBe(404)
  })
})

describe('info over HTTP on a 5-node network', () => {
  const info = (method: string, params?: unknown, base = url) => result(base, '/ext/info', `info.${method}`, params)

  it('getNodeID: each node its NodeID and a BLS proof of possession that verifies', async () => {
    for (const node of devnet.nodes) {
      const res = await info('getNodeID', undefined, node.url)
      expect(Object.keys(res)).toEqual(['nodeID', 'nodePOP'])
      expect(res.nodeID).toBe(node.nodeId)
      expect(res.nodeID).toMatch(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/)
      expect(Object.keys(res.nodePOP)).toEqual(['publicKey', 'proofOfPossession'])
      expect(res.nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/)
      expect(res.nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/)
      expect(verifyProofOfPossession(res.nodePOP)).toBe(true)
    }
    // a PoP does not verify under another node's key
    const a = await info('getNodeID', undefined, devnet.nodes[0]!.url)
    const b = await info('getNodeID', undefined, devnet.nodes[1]!.url)
    expect(verifyProofOfPossession({ publicKey: a.nodePOP.publicKey, proofOfPossession: b.nodePOP.proofOfPossession })).toBe(false)
  })

  it('getNetworkID is quoted; getNetworkName is local', async () => {
    const res = await call(url, '/ext/info', 'info.getNetworkID')
    expect(res.body).toBe(`{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${String(res.json.id)}}\n`)
    expect(await info('getNetworkName')).toEqual({ networkName: 'local' })
  })

  it('getBlockchainID for C, X, P and an L1 name', async () => {
    const { preset } = devnet.network
    expect(await info('getBlockchainID', { alias: 'C' })).toEqual({ blockchainID: preset.cChainId })
    expect(await info('getBlockchainID', { alias: 'X' })).toEqual({ blockchainID: preset.xChainId })
    expect(await info('getBlockchainID', { alias: 'P' })).toEqual({ blockchainID: preset.pChainId })
    expect(await info('getBlockchainID', { alias: 'dex' })).toEqual({ blockchainID: devnet.network.l1('dex')!.blockchainId })
    expect(preset.pChainId).toBe('11111111111111111111111111111111LpoYY')
    await rpcError(url, '/ext/info', 'info.getBlockchainID', { alias: 'Q' }, 'there is no ID with alias: Q')
  })

  it('isBootstrapped for every chain; errors for none and an unknown one', async () => {
    for (const chain of ['P', 'X', 'C', 'dex', devnet.network.preset.cChainId]) expect(await info('isBootstrapped', { chain })).toEqual({ isBootstrapped: true })
    await rpcError(url, '/ext/info', 'info.isBootstrapped', {}, "argument 'chain' not given")
    await rpcError(url, '/ext/info', 'info.isBootstrapped', { chain: 'Q' }, "there is no chain with alias/ID 'Q'")
  })

  it('peers: 4 peers with every field; 3 once node 2 is disconnected; node 2 none', async () => {
    const res = await info('peers')
    expect(res.numPeers).toBe('4')
    expect(res.peers).toHaveLength(4)
    const others = devnet.nodes.slice(1)
    expect(res.peers.map((p: { nodeID: string }) => p.nodeID)).toEqual(others.map((n) => n.nodeId))
    const l1Subnet = devnet.network.l1('dex')!.subnetId
    for (const [i, peer] of res.peers.entries()) {
      expect(Object.keys(peer)).toEqual([
        'ip', 'publicIP', 'nodeID', 'version', 'upgradeTime', 'lastSent', 'lastReceived', 'observedUptime',
        'trackedSubnets', 'supportedACPs', 'objectedACPs', 'benched',
      ])
      const port = Number(new URL(others[i]!.url).port) + 1
      expect(peer.ip).toBe(`127.0.0.1:${port}`)
      expect(peer.publicIP).toBe(peer.ip)
      expect(peer.version).toBe('avalanchego/1.14.2')
      expect(typeof peer.upgradeTime).toBe('number')
      expect(peer.observedUptime).toMatch(/^\d+$/)
      expect(Number(peer.observedUptime)).toBe(100)
      expect(new Date(peer.lastSent).getTime()).toBe(devnet.network.clock.nowMs())
      expect([...peer.trackedSubnets].sort()).toEqual([PRIMARY_NETWORK_ID, l1Subnet].sort())
      expect(peer.supportedACPs).toEqual([])
      expect(peer.benched).toEqual([])
    }
    // a nodeIDs filter keeps the order asked
    const two = await info('peers', { nodeIDs: [devnet.nodes[3]!.nodeId, devnet.nodes[1]!.nodeId] })
    expect(two.numPeers).toBe('2')
    expect(two.peers.map((p: { nodeID: string }) => p.nodeID)).toEqual([devnet.nodes[3]!.nodeId, devnet.nodes[1]!.nodeId])

    await sim(url, 'disconnectNode', { node: 2 })
    try {
      const after = await info('peers')
      expect(after.numPeers).toBe('3')
      expect(after.peers.map((p: { nodeID: string }) => p.nodeID)).not.toContain(devnet.nodes[2]!.nodeId)
      expect(await info('peers', undefined, devnet.nodes[2]!.url)).toEqual({ numPeers: '0', peers: [] })
      expect((await info('peers', undefined, devnet.nodes[4]!.url)).numPeers).toBe('3')
    } finally {
      await sim(url, 'connectNode', { node: 2 })
    }
    expect((await info('peers')).numPeers).toBe('4')
  })

  it('upgrades: the upgrade.Config with Go types', async () => {
    const res = await info('upgrades')
    expect(Object.keys(res)[0]).toBe('apricotPhase1Time')
    for (const key of ['apricotPhase1Time', 'durangoTime', 'etnaTime', 'fortunaTime', 'graniteTime', 'heliconTime'])
      expect(res[key], key).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(typeof res.apricotPhase4MinPChainHeight).toBe('number')
    expect(typeof res.graniteEpochDuration).toBe('number')
    expect(res.cortinaXChainStopVertexID).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/)
  })

  it('uptime: every validator connected → 100%, as quoted 4-decimal strings', async () => {
    expect(await info('uptime')).toEqual({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' })
  })

  it('getVMs: the built-in VMs and fxs', async () => {
    const res = await info('getVMs')
    expect(res.vms).toMatchObject({
      jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['avm'],
      mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
      rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT: ['platform'],
      srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy: ['subnetevm'],
    })
    expect(res.fxs).toEqual({
      spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
      qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
      rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
    })
  })

  it('getNodeVersion', async () => {
    const res = await info('getNodeVersion')
    expect(Object.keys(res)).toEqual(['version', 'databaseVersion', 'rpcProtocolVersion', 'gitCommit', 'vmVersions'])
    expect(res).toMatchObject({ version: 'avalanchego/1.14.2', databaseVersion: 'v1.4.5', rpcProtocolVersion: '45' })
    expect(Object.keys(res.vmVersions)).toEqual(expect.arrayContaining(['avm', 'evm', 'platform']))
  })

  it('getNodeIP: the staking port beside the HTTP port', async () => {
    for (const node of devnet.nodes) expect(await info('getNodeIP', undefined, node.url)).toEqual({ ip: `127.0.0.1:${Number(new URL(node.url).port) + 1}` })
  })
})
