import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createClock } from '../../../src/core/clock.js'
import { EMPTY_ID, PRIMARY_NETWORK_ID, idToString, nodeIdToString } from '../../../src/core/ids.js'
import { createNodeIdentity } from '../../../src/core/keys.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../../../src/network/presets.js'
import { NetworkUptime } from '../../../src/network/uptime.js'
import { ValidatorRegistry, type ValidatorEntry } from '../../../src/network/validators.js'
import { L1SIM_VERSION, simulatedVms } from '../../../src/network/version.js'
import { infoService, type InfoContext, type InfoNode } from '../../../src/rpc/node/info/index.js'
import { float32Json, float64String } from '../../../src/rpc/node/info/format.js'
import { encodeGoJson } from '../../../src/rpc/node/goJson.js'
import { networkName } from '../../../src/rpc/node/info/getNetworkName.js'
import { INVALID_ARGUMENT_MESSAGE, NodeArgumentError, NodeRpcError, type NodeMethod } from '../../../src/rpc/node/types.js'

const START = 1_767_225_600 // 2026-01-01T00:00:00Z
const WEIGHT = 2_000_000_000_000n
const L1_SUBNET = idToString(new Uint8Array(32).fill(3))
const L1_CHAIN = idToString(new Uint8Array(32).fill(4))

/**
 * A small network for the info service: `count` nodes (all primary validators unless
 * `validators` says otherwise, starting at START), an L1 validated by nodes 0 and 1, every node
 * linked to every other, and uptime tracking started at START.
 */
function setup(options: { preset?: NetworkPresetName; count?: number; validators?: number[]; startTime?: number } = {}) {
  const preset = NETWORK_PRESETS[options.preset ?? 'local']
  const count = options.count ?? 3
  const clock = createClock({ start: START })
  const nodes = Array.from({ length: count }, (_, index) => {
    const identity = createNodeIdentity(new Uint8Array(32).fill(index + 1))
    return { index, identity, nodeId: identity.nodeId }
  })
  const registry = new ValidatorRegistry()
  const startTime = BigInt(options.startTime ?? START)
  const entry = (i: number): ValidatorEntry => ({ nodeId: nodes[i]!.nodeId, weight: WEIGHT, blsPublicKey: undefined, startTime })
  registry.set(PRIMARY_NETWORK_ID, (options.validators ?? nodes.map((n) => n.index)).map(entry))
  registry.set(L1_SUBNET, [0, 1].filter((i) => i < count).map((i) => ({ ...entry(i), weight: 100n })))
  const uptimes = new NetworkUptime(nodes.map((n) => n.nodeId))
  for (let a = 0; a < count; a++) for (let b = a; b < count; b++) uptimes.setLinked(a, b, true, START)
  uptimes.syncSubnet(PRIMARY_NETWORK_ID, registry.get(PRIMARY_NETWORK_ID), START)
  const chains = new Map([
    ['P', preset.pChainId],
    ['X', preset.xChainId],
    ['C', preset.cChainId],
    ['dex', L1_CHAIN],
  ])
  for (const id of [...chains.values()]) chains.set(id, id)
  const bootstrapping = new Set<string>()
  const network = { preset, nodes, validators: registry, clock }
  const view = (index: number) => ({
    index,
    nodeId: nodes[index]!.nodeId,
    identity: nodes[index]!.identity,
    stakingPort: 9651 + 2 * index,
    uptime: uptimes.tracker(index, PRIMARY_NETWORK_ID),
  })
  const ctx = (index: number): InfoContext => {
    const node: InfoNode = {
      ...view(index),
      isConnected: (peer) => uptimes.isLinked(index, peer),
      lookupChain: (alias) => chains.get(alias),
      isBootstrapped: (chainId) => !bootstrapping.has(chainId),
      vms: () => simulatedVms(),
    }
    return { network, node, peer: view }
  }
  return { preset, clock, nodes, registry, uptimes, ctx, bootstrapping }
}

/** Runs a method the way the dispatcher will: decode params, then the handler. */
async function call<C>(method: NodeMethod<any, unknown, C>, params: unknown, ctx: C): Promise<unknown> {
  return method.handler(method.params(params), ctx)
}
const json = async <C>(method: NodeMethod<any, unknown, C>, params: unknown, ctx: C) => encodeGoJson(await call(method, params, ctx))

async function expectRpcError<C>(method: NodeMethod<any, unknown, C>, params: unknown, ctx: C, message: string, type: typeof NodeRpcError = NodeRpcError) {
  let thrown: unknown
  try {
    await call(method, params, ctx)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(type)
  expect((thrown as NodeRpcError).code).toBe(-32000)
  // The dispatcher writes shortMessage (message without details).
  expect((thrown as NodeRpcError).shortMessage).toBe(message)
}

describe('info service', () => {
  it('lists the methods of api/info/service.go by wire name', () => {
    expect(Object.keys(infoService).sort()).toEqual([
      'acps', 'getBlockchainID', 'getNetworkID', 'getNetworkName', 'getNodeID', 'getNodeIP', 'getNodeVersion',
      'getTxFee', 'getVMs', 'isBootstrapped', 'peers', 'upgrades', 'uptime',
    ])
  })

  it('getNodeID: node id and proof of possession, in Go field order', async () => {
    const { ctx, nodes } = setup()
    const { identity } = nodes[1]!
    expect(await json(infoService.getNodeID, {}, ctx(1))).toBe(
      `{"nodeID":"${identity.nodeId}","nodePOP":{"publicKey":"${identity.blsPublicKey}","proofOfPossession":"${identity.proofOfPossession}"}}`,
    )
    expect(identity.blsPublicKey).toMatch(/^0x[0-9a-f]{96}$/)
    expect(identity.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/)
  })

  it('getNodeIP: the staking address', async () => {
    const { ctx } = setup()
    expect(await json(infoService.getNodeIP, {}, ctx(0))).toBe('{"ip":"127.0.0.1:9651"}')
    expect(await json(infoService.getNodeIP, null, ctx(2))).toBe('{"ip":"127.0.0.1:9655"}')
  })

  it('getNetworkID (quoted) and getNetworkName per preset', async () => {
    for (const [preset, id, name] of [['local', '12345', 'local'], ['fuji', '5', 'fuji'], ['mainnet', '1', 'mainnet']] as const) {
      const { ctx } = setup({ preset })
      expect(await json(infoService.getNetworkID, {}, ctx(0))).toBe(`{"networkID":"${id}"}`)
      expect(await json(infoService.getNetworkName, {}, ctx(0))).toBe(`{"networkName":"${name}"}`)
    }
    expect([2, 3, 4, 10, 99, 0].map(networkName)).toEqual(['cascade', 'denali', 'everest', 'testing', 'network-99', 'network-0'])
  })

  it('getBlockchainID: alias or id → id; unknown alias error; Go-style params', async () => {
    const { ctx, preset } = setup()
    expect(await json(infoService.getBlockchainID, { alias: 'C' }, ctx(0))).toBe(`{"blockchainID":"${preset.cChainId}"}`)
    expect(await json(infoService.getBlockchainID, [{ alias: 'dex' }], ctx(0))).toBe(`{"blockchainID":"${L1_CHAIN}"}`)
    expect(await json(infoService.getBlockchainID, { ALIAS: 'X', other: 1 }, ctx(0))).toBe(`{"blockchainID":"${preset.xChainId}"}`)
    expect(await json(infoService.getBlockchainID, { alias: preset.pChainId }, ctx(0))).toBe(`{"blockchainID":"${EMPTY_ID}"}`)
    await expectRpcError(infoService.getBlockchainID, { alias: 'Z' }, ctx(0), 'there is no ID with alias: Z')
    await expectRpcError(infoService.getBlockchainID, {}, ctx(0), 'there is no ID with alias: ')
    await expectRpcError(infoService.getBlockchainID, { alias: 5 }, ctx(0), INVALID_ARGUMENT_MESSAGE, NodeArgumentError)
    await expectRpcError(infoService.getBlockchainID, 'C', ctx(0), INVALID_ARGUMENT_MESSAGE, NodeArgumentError)
  })

  it('isBootstrapped: chain required, unknown chain, bootstrapped flag', async () => {
    const { ctx, bootstrapping, preset } = setup()
    expect(await json(infoService.isBootstrapped, { chain: 'C' }, ctx(0))).toBe('{"isBootstrapped":true}')
    bootstrapping.add(L1_CHAIN)
    expect(await json(infoService.isBootstrapped, { chain: 'dex' }, ctx(0))).toBe('{"isBootstrapped":false}')
    expect(await json(infoService.isBootstrapped, { chain: preset.cChainId }, ctx(0))).toBe('{"isBootstrapped":true}')
    await expectRpcError(infoService.isBootstrapped, {}, ctx(0), "argument 'chain' not given")
    await expectRpcError(infoService.isBootstrapped, { chain: null }, ctx(0), "argument 'chain' not given")
    await expectRpcError(infoService.isBootstrapped, [], ctx(0), "argument 'chain' not given")
    await expectRpcError(infoService.isBootstrapped, { chain: 'nope' }, ctx(0), "there is no chain with alias/ID 'nope'")
    await expectRpcError(infoService.isBootstrapped, { chain: true }, ctx(0), INVALID_ARGUMENT_MESSAGE, NodeArgumentError)
  })

  it('getNodeVersion: avalanchego 1.14.2, database v1.4.5, protocol "45", VM versions by primary alias', async () => {
    const { ctx } = setup()
    expect(await json(infoService.getNodeVersion, {}, ctx(0))).toBe(
      '{"version":"avalanchego/1.14.2","databaseVersion":"v1.4.5","rpcProtocolVersion":"45","gitCommit":"l1sim/0.1.0",' +
        '"vmVersions":{"avm":"avalanchego/1.14.2","evm":"v1.14.2","platform":"avalanchego/1.14.2","subnetevm":"v1.14.2"}}',
    )
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(L1SIM_VERSION).toBe(pkg.version)
  })

  it('getVMs: aliases without the id itself, fxs, keys sorted', async () => {
    const { ctx } = setup()
    expect(await json(infoService.getVMs, {}, ctx(0))).toBe(
      '{"vms":{"jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq":["avm"],"mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6":["evm"],' +
        '"rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT":["platform"],"srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy":["subnetevm"]},' +
        '"fxs":{"qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT":"nftfx","rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy":"propertyfx",' +
        '"spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ":"secp256k1fx"}}',
    )
  })

  it('acps: no ACPs under vote', async () => {
    const { ctx } = setup()
    expect(await json(infoService.acps, {}, ctx(0))).toBe('{"acps":{}}')
  })

  it('getTxFee: static fees by network, quoted', async () => {
    expect(await json(infoService.getTxFee, {}, setup().ctx(0))).toBe(
      '{"txFee":"1000000","createAssetTxFee":"1000000","createSubnetTxFee":"100000000","transformSubnetTxFee":"100000000",' +
        '"createBlockchainTxFee":"100000000","addPrimaryNetworkValidatorFee":"0","addPrimaryNetworkDelegatorFee":"0",' +
        '"addSubnetValidatorFee":"1000000","addSubnetDelegatorFee":"1000000"}',
    )
    expect(await call(infoService.getTxFee, {}, setup({ preset: 'mainnet' }).ctx(0))).toMatchObject({
      createAssetTxFee: '10000000', createSubnetTxFee: '1000000000', transformSubnetTxFee: '10000000000', createBlockchainTxFee: '1000000000',
    })
    expect(await call(infoService.getTxFee, {}, setup({ preset: 'fuji' }).ctx(0))).toMatchObject({
      createAssetTxFee: '10000000', createSubnetTxFee: '100000000', transformSubnetTxFee: '1000000000',
    })
  })

  it('upgrades: upgrade.Config JSON for local and fuji', async () => {
    const local = '2020-12-05T05:00:00Z'
    expect(await json(infoService.upgrades, {}, setup().ctx(0))).toBe(
      `{"apricotPhase1Time":"${local}","apricotPhase2Time":"${local}","apricotPhase3Time":"${local}","apricotPhase4Time":"${local}",` +
        `"apricotPhase4MinPChainHeight":0,"apricotPhase5Time":"${local}","apricotPhasePre6Time":"${local}","apricotPhase6Time":"${local}",` +
        `"apricotPhasePost6Time":"${local}","banffTime":"${local}","cortinaTime":"${local}",` +
        `"cortinaXChainStopVertexID":"11111111111111111111111111111111LpoYY","durangoTime":"${local}","etnaTime":"${local}",` +
        `"fortunaTime":"${local}","graniteTime":"${local}","graniteEpochDuration":30000000000,"heliconTime":"9999-12-01T00:00:00Z"}`,
    )
    expect(await json(infoService.upgrades, {}, setup({ preset: 'fuji' }).ctx(0))).toBe(
      '{"apricotPhase1Time":"2021-03-26T14:00:00Z","apricotPhase2Time":"2021-05-05T14:00:00Z","apricotPhase3Time":"2021-08-16T19:00:00Z",' +
        '"apricotPhase4Time":"2021-09-16T21:00:00Z","apricotPhase4MinPChainHeight":47437,"apricotPhase5Time":"2021-11-24T15:00:00Z",' +
        '"apricotPhasePre6Time":"2022-09-06T20:00:00Z","apricotPhase6Time":"2022-09-06T20:00:00Z","apricotPhasePost6Time":"2022-09-07T06:00:00Z",' +
        '"banffTime":"2022-10-03T14:00:00Z","cortinaTime":"2023-04-06T15:00:00Z",' +
        '"cortinaXChainStopVertexID":"2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ","durangoTime":"2024-02-13T16:00:00Z",' +
        '"etnaTime":"2024-11-25T16:00:00Z","fortunaTime":"2025-03-13T15:00:00Z","graniteTime":"2025-10-29T15:00:00Z",' +
        '"graniteEpochDuration":300000000000,"heliconTime":"9999-12-01T00:00:00Z"}',
    )
  })

  it('rejects params Go cannot decode into *struct{}', async () => {
    const { ctx } = setup()
    for (const bad of ['x', 5, true, [1]]) await expectRpcError(infoService.getNetworkID, bad, ctx(0), INVALID_ARGUMENT_MESSAGE, NodeArgumentError)
    for (const ok of [undefined, null, {}, { any: 1 }, [], [{}], [null], [{}, 5]])
      expect(await json(infoService.getNetworkID, ok, ctx(0))).toBe('{"networkID":"12345"}')
  })
})

describe('info.peers', () => {
  it('lists the connected nodes with peer.Info fields in Go order', async () => {
    const { ctx, nodes, clock } = setup()
    clock.advance(90.5)
    const n1 = nodes[1]!.nodeId
    const primaryAndL1 = [EMPTY_ID, L1_SUBNET].sort()
    expect(primaryAndL1[0]).toBe(EMPTY_ID) // '1…' sorts before the L1's id
    expect(await json(infoService.peers, {}, ctx(0))).toBe(
      '{"numPeers":"2","peers":[' +
        `{"ip":"127.0.0.1:9653","publicIP":"127.0.0.1:9653","nodeID":"${n1}","version":"avalanchego/1.14.2",` +
        `"upgradeTime":1607144400,"lastSent":"2026-01-01T00:01:30.5Z","lastReceived":"2026-01-01T00:01:30.5Z",` +
        `"observedUptime":"100","trackedSubnets":${JSON.stringify(primaryAndL1)},"supportedACPs":[],"objectedACPs":[],"benched":[]},` +
        `{"ip":"127.0.0.1:9655","publicIP":"127.0.0.1:9655","nodeID":"${nodes[2]!.nodeId}","version":"avalanchego/1.14.2",` +
        `"upgradeTime":1607144400,"lastSent":"2026-01-01T00:01:30.5Z","lastReceived":"2026-01-01T00:01:30.5Z",` +
        `"observedUptime":"100","trackedSubnets":["${EMPTY_ID}"],"supportedACPs":[],"objectedACPs":[],"benched":[]}]}`,
    )
  })

  it('trackedSubnets: primary network plus validated subnets, sorted as set.Set sorts', async () => {
    const { ctx, nodes, registry } = setup()
    const ids = [9, 200, 1].map((b) => idToString(new Uint8Array(32).fill(b)))
    for (const id of ids) registry.set(id, [{ nodeId: nodes[2]!.nodeId, weight: 1n, blsPublicKey: undefined, startTime: BigInt(START) }])
    const expected = [EMPTY_ID, ...ids].sort()
    expect(expected).not.toEqual([EMPTY_ID, ...ids]) // the order really changes
    const result = (await call(infoService.peers, { nodeIDs: [nodes[2]!.nodeId] }, ctx(0))) as { peers: { trackedSubnets: string[] }[] }
    expect(result.peers[0]!.trackedSubnets).toEqual(expected)
  })

  it('upgradeTime is the preset Granite time', async () => {
    const { ctx, preset } = setup({ preset: 'mainnet' })
    const result = (await call(infoService.peers, {}, ctx(0))) as { peers: { upgradeTime: number }[] }
    expect(result.peers[0]!.upgradeTime).toBe(preset.upgrades.graniteTime)
    expect(preset.upgrades.graniteTime).toBe(1763568000)
  })

  it('leaves out disconnected nodes; nodeIDs filters in the order asked', async () => {
    const { ctx, nodes, uptimes } = setup({ count: 4 })
    uptimes.setLinked(0, 2, false, START)
    const ids = (r: unknown) => (r as { peers: { nodeID: string }[] }).peers.map((p) => p.nodeID)
    const id = (i: number) => nodes[i]!.nodeId
    expect(ids(await call(infoService.peers, {}, ctx(0)))).toEqual([id(1), id(3)])
    expect(ids(await call(infoService.peers, { nodeIDs: [id(3), id(2), id(0), id(1), id(3)] }, ctx(0)))).toEqual([id(3), id(1), id(3)])
    expect(await call(infoService.peers, { nodeIDs: [id(2)] }, ctx(0))).toEqual({ numPeers: '0', peers: [] })
    expect(ids(await call(infoService.peers, { nodeIDs: [] }, ctx(0)))).toEqual([id(1), id(3)])
    expect(ids(await call(infoService.peers, { nodeIDs: null }, ctx(0)))).toEqual([id(1), id(3)])
    // Node 2 sees no one but 1 and 3.
    expect(ids(await call(infoService.peers, {}, ctx(2)))).toEqual([id(1), id(3)])
  })

  it('rejects malformed NodeIDs', async () => {
    const { ctx } = setup()
    const bad = [{ nodeIDs: ['NodeID-abc'] }, { nodeIDs: ['abc'] }, { nodeIDs: 'NodeID-x' }, { nodeIDs: [5] }, { nodeIDs: ['NodeID-'] }]
    for (const params of bad) await expectRpcError(infoService.peers, params, ctx(0), INVALID_ARGUMENT_MESSAGE, NodeArgumentError)
  })

  it('observedUptime is the peer’s view of this node, truncated', async () => {
    const { ctx, nodes, uptimes, clock } = setup()
    uptimes.setLinked(0, 2, false, START + 100) // node 2 sees node 0 down from +100
    clock.setTime(START + 300)
    uptimes.setLinked(0, 2, true, START + 300)
    const result = (await call(infoService.peers, {}, ctx(0))) as { peers: { nodeID: string; observedUptime: string }[] }
    expect(result.peers.map((p) => [p.nodeID, p.observedUptime])).toEqual([
      [nodes[1]!.nodeId, '100'],
      [nodes[2]!.nodeId, '33'], // 100 of 300 s
    ])
    // A peer that does not track this node (not a primary validator) reports 0.
    const { ctx: ctx2 } = setup({ validators: [1, 2] })
    const r2 = (await call(infoService.peers, {}, ctx2(0))) as { peers: { observedUptime: string }[] }
    expect(r2.peers.map((p) => p.observedUptime)).toEqual(['0', '0'])
  })
})

describe('info.uptime', () => {
  it('weights the peers’ observed uptime by stake; rewarding counts those at 80% or more', async () => {
    const { ctx, uptimes, clock } = setup()
    expect(await json(infoService.uptime, {}, ctx(0))).toBe('{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"100.0000"}')
    // Node 0 drops off the network at +100.
    uptimes.setLinked(0, 1, false, START + 100)
    uptimes.setLinked(0, 2, false, START + 100)
    clock.setTime(START + 400)
    // No connected peers: only its own stake counts.
    expect(await json(infoService.uptime, {}, ctx(0))).toBe('{"rewardingStakePercentage":"33.3333","weightedAveragePercentage":"33.3333"}')
    uptimes.setLinked(0, 1, true, START + 400)
    uptimes.setLinked(0, 2, true, START + 400)
    // Both peers see 100 of 400 s: 25%.
    expect(await json(infoService.uptime, {}, ctx(0))).toBe('{"rewardingStakePercentage":"33.3333","weightedAveragePercentage":"50.0000"}')
    clock.setTime(START + 1600)
    // 1300 of 1600 s: 81.25% → 81, above 80%.
    expect(await json(infoService.uptime, {}, ctx(0))).toBe('{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"87.3333"}')
    // Node 0 saw node 1 go as well (81%); node 2 did not (100%).
    expect(await json(infoService.uptime, {}, ctx(1))).toBe('{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"93.6667"}')
  })

  it('counts only connected peers that are validators', async () => {
    const { ctx } = setup({ count: 4, validators: [0, 1, 2] })
    expect(await json(infoService.uptime, {}, ctx(0))).toBe('{"rewardingStakePercentage":"100.0000","weightedAveragePercentage":"100.0000"}')
  })

  it('a node that is not a primary validator has no uptime', async () => {
    const { ctx } = setup({ count: 4, validators: [0, 1, 2] })
    await expectRpcError(infoService.uptime, {}, ctx(3), "couldn't get node uptime: node is not a validator")
  })
})

describe('Go renderings', () => {
  it('float64String: 4 decimals, exact ties to even as strconv does', () => {
    expect([99, 100 / 3, 1.03125, 1.09375, -1.03125, 0.00005, 0].map(float64String)).toEqual([
      '99.0000', '33.3333', '1.0312', '1.0938', '-1.0312', '0.0001', '0.0000',
    ])
  })

  it('float32Json: the shortest decimal of the float32', () => {
    expect(JSON.stringify([99.99, 200 / 3, 100 / 3, 100, 81.25].map(float32Json))).toBe('[99.99,66.666664,33.333332,100,81.25]')
    expect(Math.fround(float32Json(200 / 3))).toBe(Math.fround(200 / 3))
  })

  it('the empty NodeID in the nodeIDs filter matches nothing', async () => {
    const { ctx } = setup()
    expect(await call(infoService.peers, { nodeIDs: [null, nodeIdToString(new Uint8Array(20))] }, ctx(0))).toEqual({ numPeers: '0', peers: [] })
  })
})
