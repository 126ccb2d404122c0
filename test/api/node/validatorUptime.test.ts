/**
 * Validator uptime as the clients read it: `platform.getCurrentValidators` through avalanchejs'
 * `PVMApi` and `/v1/networks/{network}/validators` through @avalabs/glacier-sdk. The node reports
 * `CalculateUptimePercentFrom(nodeID, staker start) × 100`, a percentage (0–100) with four decimals;
 * the time measured and the time divided by both start at the staker's start.
 */
import { Glacier } from '@avalabs/glacier-sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { ajs } from '../../platform/fixtures/ajs.js'
import { sim, startTestDevnet, type TestDevnet } from './helpers.js'

/** The slice of avalanchejs' `GetCurrentValidatorsResponse` read here (its typings do not resolve under NodeNext). */
type PVMApi = { getCurrentValidators(): Promise<{ validators: { nodeID: string; uptime: string }[] }> }

let devnet: TestDevnet | undefined
afterEach(async () => {
  await devnet?.stop()
  devnet = undefined
})

describe('validator uptime is a percentage', () => {
  it('platform.getCurrentValidators (avalanchejs) and the data API (glacier-sdk): 100 while connected, 50 after half the time offline', async () => {
    devnet = await startTestDevnet('uptime-percent', { nodes: 2, dataApi: { apiKeys: { 'test-key': 'free' } } })
    const { url, network } = devnet
    const [self, peer] = network.nodes.map((n) => n.nodeId) as [string, string]
    const client: PVMApi = new ajs.pvm.PVMApi(url)
    const glacier = new Glacier({ BASE: url, HEADERS: { 'x-data-api-key': 'test-key' } })
    const pUptimes = async () => Object.fromEntries((await client.getCurrentValidators()).validators.map((v) => [v.nodeID, v.uptime]))
    const dataUptimes = async () =>
      Object.fromEntries(
        (await glacier.primaryNetwork.listValidators({ network: 'local' as never, minUptimePerformance: 0 })).validators.map((v) => [
          v.nodeId,
          'uptimePerformance' in v ? v.uptimePerformance : undefined,
        ]),
      )

    await sim(url, 'advanceTime', { seconds: 18 })
    expect(await pUptimes()).toEqual({ [self]: '100.0000', [peer]: '100.0000' })
    expect(await dataUptimes()).toEqual({ [self]: 100, [peer]: 100 })

    // Node 1 is offline for the next 18 s: node 0 saw it up for 18 of 36 s since its start.
    await sim(url, 'disconnectNode', { node: 1 })
    await sim(url, 'advanceTime', { seconds: 18 })
    expect(await pUptimes()).toEqual({ [self]: '100.0000', [peer]: '50.0000' })
    expect(await dataUptimes()).toEqual({ [self]: 100, [peer]: 50 })
  })
})
