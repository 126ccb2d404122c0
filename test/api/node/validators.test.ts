/**
 * `validators.getCurrentValidators` on `/ext/bc/<L1>/validators` end to end: every validator with
 * subnet-evm's fields, the nodeIDs filter, no route on the C-chain, and this node's view of a
 * disconnected validator's uptime as the virtual clock moves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testGenesis } from '../../l1/helpers.js'
import { call, postRaw, request, result, rpcError, sim, startTestDevnet, type TestDevnet } from './helpers.js'

const INVALID_ARGUMENT = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"
const FIELDS = ['validationID', 'nodeID', 'weight', 'startTimestamp', 'isActive', 'isL1Validator', 'isConnected', 'uptimePercentage', 'uptimeSeconds']

let devnet: TestDevnet
let url: string

beforeAll(async () => {
  devnet = await startTestDevnet('validators', {
    l1s: [
      { name: 'dex', genesis: testGenesis() },
      { name: 'few', genesis: testGenesis(), validators: [{ node: 1, weight: 7n }, { node: 3 }] },
    ],
  })
  url = devnet.url
})
afterAll(() => devnet?.stop())

const current = (chain: string, params: unknown = {}, base = url) => result(base, `/ext/bc/${chain}/validators`, 'validators.getCurrentValidators', params)

describe('validators.getCurrentValidators over HTTP', () => {
  it('every validator of the L1 with every field, in Go order and types', async () => {
    const res = await call(url, '/ext/bc/dex/validators', 'validators.getCurrentValidators', {})
    const { validators } = res.json.result
    expect(validators).toHaveLength(5)
    expect(validators.map((v: { nodeID: string }) => v.nodeID).sort()).toEqual(devnet.nodes.map((n) => n.nodeId).sort())
    for (const v of validators) {
      expect(Object.keys(v)).toEqual(FIELDS)
      expect(v.validationID).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40,60}$/)
      expect(v.weight).toBe(100)
      expect(typeof v.startTimestamp).toBe('number')
      expect(v.startTimestamp).toBeLessThanOrEqual(devnet.network.clock.now())
      expect(v.isActive).toBe(true)
      expect(typeof v.isL1Validator).toBe('boolean')
      expect(v.isConnected).toBe(true)
      expect(v.uptimePercentage).toBe(100)
      expect(Number.isInteger(v.uptimeSeconds)).toBe(true)
    }
    // uint64 weight and startTimestamp are bare numbers on the wire
    expect(res.body).toContain('"weight":100,')
    expect(new Set(validators.map((v: { validationID: string }) => v.validationID)).size).toBe(5)
    // the blockchain id names the same chain
    const byId = await current(devnet.network.l1('dex')!.blockchainId)
    expect(byId.validators.map((v: { validationID: string }) => v.validationID)).toEqual(validators.map((v: { validationID: string }) => v.validationID))
  })

  it('an L1 with its own validator set and weights', async () => {
    const { validators } = await current('few')
    expect(validators.map((v: { nodeID: string; weight: number }) => [v.nodeID, v.weight])).toEqual([
      [devnet.nodes[1]!.nodeId, 7],
      [devnet.nodes[3]!.nodeId, 100],
    ])
  })

  it('the nodeIDs filter; a bad NodeID is the generic invalid-argument error', async () => {
    const wanted = [devnet.nodes[2]!.nodeId, devnet.nodes[4]!.nodeId]
    const { validators } = await current('dex', { nodeIDs: wanted })
    expect(validators.map((v: { nodeID: string }) => v.nodeID).sort()).toEqual([...wanted].sort())
    expect((await current('dex', { nodeIDs: [] })).validators).toHaveLength(5)
    expect((await current('dex')).validators).toHaveLength(5)
    expect((await current('few', { nodeIDs: [devnet.nodes[0]!.nodeId] })).validators).toEqual([])
    await rpcError(url, '/ext/bc/dex/validators', 'validators.getCurrentValidators', { nodeIDs: ['NodeID-nope'] }, INVALID_ARGUMENT)
  })

  it('the C-chain (coreth), P and X have no validators route; unknown chains neither', async () => {
    for (const chain of ['C', devnet.network.preset.cChainId, 'P', 'X', 'nochain']) {
      const res = await postRaw(`${url}/ext/bc/${chain}/validators`, '{"jsonrpc":"2.0","id":1,"method":"validators.getCurrentValidators","params":{}}')
      expect(res.status, chain).toBe(404)
      expect(res.body).toBe('404 page not found\n')
    }
    // the dialect on the route: GET → 405
    const get = await request(`${url}/ext/bc/dex/validators`)
    expect(get.status).toBe(405)
    expect(get.body).toBe('rpc: POST method required, received GET')
  })

  it('a disconnected validator shows isConnected false and stops gaining uptime while the others gain', async () => {
    const seconds = (list: { nodeID: string; uptimeSeconds: number }[]) => Object.fromEntries(list.map((v) => [v.nodeID, v.uptimeSeconds]))
    await sim(url, 'advanceTime', { seconds: 100 })
    const before = await current('dex')
    for (const v of before.validators) expect(v.isConnected).toBe(true)
    const start = seconds(before.validators)

    const gone = devnet.nodes[3]!.nodeId
    await sim(url, 'disconnectNode', { node: 3 })
    try {
      const right = await current('dex')
      expect(right.validators.find((v: { nodeID: string }) => v.nodeID === gone).isConnected).toBe(false)
      for (const v of right.validators) if (v.nodeID !== gone) expect(v.isConnected).toBe(true)

      await sim(url, 'advanceTime', { seconds: 60 })
      const after = await current('dex')
      const now = seconds(after.validators)
      for (const node of devnet.nodes) {
        if (node.nodeId === gone) expect(now[node.nodeId]).toBe(start[node.nodeId])
        else expect(now[node.nodeId]).toBe(start[node.nodeId]! + 60)
      }
      const goneEntry = after.validators.find((v: { nodeID: string }) => v.nodeID === gone)
      expect(goneEntry.uptimePercentage).toBeLessThan(100)
      expect(goneEntry.uptimePercentage).toBeGreaterThan(0)
      for (const v of after.validators) if (v.nodeID !== gone) expect(v.uptimePercentage).toBe(100)
      // the disconnected node sees itself connected and everyone else gone
      const own = await current('dex', {}, devnet.nodes[3]!.url)
      for (const v of own.validators) expect(v.isConnected).toBe(v.nodeID === gone)
      expect((await result(devnet.nodes[3]!.url, '/ext/info', 'info.peers')).numPeers).toBe('0')
      // node 0's info.uptime counts only the stake of the peers it still reaches
      expect(await result(url, '/ext/info', 'info.uptime')).toEqual({ rewardingStakePercentage: '80.0000', weightedAveragePercentage: '80.0000' })
    } finally {
      await sim(url, 'connectNode', { node: 3 })
    }
    await sim(url, 'advanceTime', { seconds: 30 })
    const back = await current('dex')
    const again = seconds(back.validators)
    expect(back.validators.find((v: { nodeID: string }) => v.nodeID === gone).isConnected).toBe(true)
    expect(again[gone]).toBe(start[gone]! + 30)
  })
})
