/**
 * A real client: avalanche.js 3.16 (`avalanche` on npm) pointed at node 0 reads the info, health
 * and admin APIs over HTTP.
 */
import { Avalanche } from 'avalanche'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testGenesis } from '../../l1/helpers.js'
import { startTestDevnet, type TestDevnet } from './helpers.js'

let devnet: TestDevnet
let avalanche: Avalanche

beforeAll(async () => {
  devnet = await startTestDevnet('client', { l1s: [{ name: 'dex', genesis: testGenesis() }], node: { apiAdminEnabled: true } })
  const { hostname, port } = new URL(devnet.url)
  avalanche = new Avalanche(hostname, Number(port), 'http', 12345)
})
afterAll(() => devnet?.stop())

describe('avalanche.js against node 0', () => {
  it('Info()', async () => {
    const info = avalanche.Info()
    expect(await info.getNodeID()).toBe(devnet.nodes[0]!.nodeId)
    // the quoted json.Uint32 comes through as the string the node sends
    expect(Number(await info.getNetworkID())).toBe(12345)
    expect(await info.getNetworkName()).toBe('local')
    expect(await info.getBlockchainID('C')).toBe(devnet.network.preset.cChainId)
    expect(await info.getBlockchainID('X')).toBe(devnet.network.preset.xChainId)
    expect(await info.getBlockchainID('dex')).toBe(devnet.network.l1('dex')!.blockchainId)
    expect(await info.isBootstrapped('C')).toBe(true)
    expect(await info.getNodeVersion()).toBe('avalanchego/1.14.2')
    const peers = await info.peers()
    expect(peers).toHaveLength(4)
    expect(peers.map((p) => p.nodeID)).toEqual(devnet.nodes.slice(1).map((n) => n.nodeId))
    for (const peer of peers) {
      expect(peer.ip).toMatch(/^127\.0\.0\.1:\d+$/)
      expect(peer.version).toBe('avalanchego/1.14.2')
    }
    expect((await info.peers([devnet.nodes[2]!.nodeId])).map((p) => p.nodeID)).toEqual([devnet.nodes[2]!.nodeId])
    const uptime = await info.uptime()
    expect(uptime).toEqual({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' })
  })

  it('Health()', async () => {
    const health = await avalanche.Health().health()
    expect(health.healthy).toBe(true)
    expect(Object.keys(health.checks)).toEqual(['C', 'P', 'X', 'bootstrapped', 'database', 'dex', 'diskspace', 'network', 'router'])
    expect((health.checks as any).C.message.networking.percentConnected).toBe(1)
  })

  it('Admin()', async () => {
    const admin = avalanche.Admin()
    expect(await admin.alias('info', 'clientinfo')).toEqual({})
    // the alias serves the info API: point a second InfoAPI there
    const aliased = avalanche.Info()
    const viaAlias = new (aliased.constructor as new (core: Avalanche, baseURL: string) => typeof aliased)(avalanche, '/ext/clientinfo')
    expect(await viaAlias.getNodeID()).toBe(devnet.nodes[0]!.nodeId)

    const { preset } = devnet.network
    expect(await admin.getChainAliases(preset.xChainId)).toEqual(['X', 'avm', preset.xChainId])
    expect(await admin.getChainAliases(preset.cChainId)).toEqual(['C', 'evm', preset.cChainId])
    const levels = await admin.getLoggerLevel()
    expect(Object.keys(levels.loggerLevels).sort()).toEqual(['C', 'P', 'X', 'dex', 'main', 'vm-factory'])
    expect(levels.loggerLevels.C).toEqual({ logLevel: 'INFO', displayLevel: 'INFO' })
    expect(await admin.getLoggerLevel('C')).toEqual({ loggerLevels: { C: { logLevel: 'INFO', displayLevel: 'INFO' } } })
  })

  it('an admin error surfaces as the node wrote it', async () => {
    await expect(avalanche.Admin().getLoggerLevel('nope')).rejects.toThrow('logger with name "nope" not found')
  })
})
