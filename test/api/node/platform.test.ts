/**
 * The primary network driven through the network-control service (`/ext/sim`) over HTTP, as a
 * test suite drives it: validator lifecycle with rewards, an L1 created and converted on the
 * P-chain whose EVM chain starts and whose validators API follows each step, transfers between
 * P, X and C.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { testGenesis } from '../../l1/helpers.js'
import { formatPAddress, formatXAddress } from '../../../src/platform/secp256k1fx.js'
import { ajs } from '../../platform/fixtures/ajs.js'
import { call, result, sim, startTestDevnet, type TestDevnet } from './helpers.js'

/** The slice of avalanchejs' `PVMApi` read here (its typings do not resolve under NodeNext). */
type PVMApi = {
  getCurrentValidators(params: { subnetID: string }): Promise<{ validators: Record<string, unknown>[] }>
  getL1Validator(validationID: string): Promise<Record<string, unknown>>
}

let devnet: TestDevnet | undefined
afterEach(async () => {
  await devnet?.stop()
  devnet = undefined
})

const AVAX = 1_000_000_000n

describe('the primary network through sim.*', () => {
  it('a primary validator with a delegator: active, then completed at its end time with the reward paid', async () => {
    devnet = await startTestDevnet('p-lifecycle', { nodes: 2 })
    const { url, network } = devnet
    const wallet = network.wallets(0)!
    const before = wallet.p.balance()
    const added = await sim(url, 'addValidator', { stake: Number(2_000n * AVAX), duration: 14 * 24 * 3600, delegationFee: 20_000 })
    expect(added).toMatchObject({ txID: expect.any(String), height: expect.any(Number), nodeID: expect.stringMatching(/^NodeID-/) })
    const delegated = await sim(url, 'addDelegator', { nodeID: added.nodeID, stake: Number(25n * AVAX), duration: 7 * 24 * 3600, account: 1 })
    expect(delegated.height).toBe(added.height + 1)
    expect(network.primary.pchain.validationStatus(added.txID)).toBe('active')
    // The new validator joins the primary set next to the simulated nodes.
    expect(network.validators.get('11111111111111111111111111111111LpoYY').map((v) => v.nodeId)).toContain(added.nodeID)
    const staked = wallet.p.balance()
    expect(staked).toBeLessThan(before - 2_000n * AVAX)

    await sim(url, 'advanceTime', { seconds: 15 * 24 * 3600 })
    expect(network.primary.pchain.validationStatus(delegated.txID)).toBe('completed')
    expect(network.primary.pchain.validationStatus(added.txID)).toBe('completed')
    // Stake back plus a reward (a non-simulated node counts as always up).
    expect(wallet.p.balance()).toBeGreaterThan(staked + 2_000n * AVAX)
    expect(network.validators.get('11111111111111111111111111111111LpoYY').map((v) => v.nodeId)).not.toContain(added.nodeID)
  })

  it('invalid operations are refused with the P-chain message and change nothing', async () => {
    devnet = await startTestDevnet('p-invalid', { nodes: 1 })
    const { url, network } = devnet
    const hash = network.primary.pchain.hash()
    const tooLow = await call(url, '/ext/sim', 'sim.addValidator', { stake: 1, duration: 14 * 24 * 3600 })
    expect(tooLow.json.error?.code).toBe(-32000)
    // The operation's tx goes through the P-chain's mempool as platform.issueTx sends it there.
    expect(tooLow.json.error?.message).toMatch(/^couldn't issue tx: failed verification: failed execution: standard tx \w+ failed execution: weight of this validator is too low$/)
    const poor = await call(url, '/ext/sim', 'sim.addValidator', { stake: Number(1_000_000n * AVAX), duration: 14 * 24 * 3600 })
    expect(poor.json.error?.message).toMatch(/insufficient funds|no spendable funds/)
    expect(network.primary.pchain.hash()).toBe(hash)
  })

  it('an L1 from the P-chain: create subnet and chain (its EVM chain starts), convert with three validators, balances run out, top up, re-weight, disable', async () => {
    devnet = await startTestDevnet('p-l1', { nodes: 3 })
    const { url, network } = devnet
    const { subnetID } = await sim(url, 'createSubnet')
    const genesis = JSON.stringify(testGenesis())
    const { blockchainID } = await sim(url, 'createChain', { subnetID, name: 'pl1', genesisData: genesis })
    // The chain runs: its RPC answers on every node, by id and by name.
    for (const node of devnet.nodes) {
      const res = await fetch(`${node.url}/ext/bc/${blockchainID}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
      expect(((await res.json()) as { result: string }).result).toBe('0x1869f')
    }
    const converted = await sim(url, 'convertSubnetToL1', {
      subnetID,
      chainID: blockchainID,
      address: '0x0000000000000000000000000000000000000abc',
      validators: [
        { node: 0, weight: 100, balance: Number(1n * AVAX) },
        { node: 1, weight: 100, balance: Number(1n * AVAX) },
        { node: 2, weight: 100, balance: 2_000 },
      ],
    })
    expect(converted.validators).toHaveLength(3)
    const validatorsApi = async () => (await result(url, `/ext/bc/${blockchainID}/validators`, 'validators.getCurrentValidators', {})).validators as any[]
    let listed = await validatorsApi()
    expect(listed).toHaveLength(3)
    expect(listed.every((v) => v.isL1Validator && v.isActive && v.weight === 100)).toBe(true)
    expect(listed.map((v) => v.validationID).sort()).toEqual(converted.validators.map((v: any) => v.validationID).sort())

    // The poorest validator runs out of balance after 2,000 s (1 nAVAX/s): inactive but still a
    // current validator with its weight, as the P-chain's GetCurrentValidatorSet gives it to
    // subnet-EVM; its uptime stops growing from then (2,000 of 3,600 s).
    const start = network.clock.now()
    await sim(url, 'advanceTime', { seconds: 3600 })
    const poor = converted.validators.find((v: any) => v.nodeID === network.nodes[2]!.nodeId)!
    listed = await validatorsApi()
    expect(listed.find((v) => v.nodeID === poor.nodeID)).toEqual({
      validationID: poor.validationID, nodeID: poor.nodeID, weight: 100, startTimestamp: start,
      isActive: false, isL1Validator: true, isConnected: true, uptimePercentage: 55.555557, uptimeSeconds: 2000,
    })
    expect(listed.filter((v) => v.isActive)).toHaveLength(2)
    // The P-chain's own APIs, through avalanchejs: listed with its weight and a zero balance.
    const pvmApi: PVMApi = new ajs.pvm.PVMApi(url)
    const pListed = (await pvmApi.getCurrentValidators({ subnetID })).validators.find((v) => v.nodeID === poor.nodeID)
    expect(pListed).toMatchObject({ validationID: poor.validationID, weight: '100', balance: '0' })
    expect(await pvmApi.getL1Validator(poor.validationID)).toMatchObject({ nodeID: poor.nodeID, subnetID, weight: 100n, balance: 0n })

    // Topped up: active again, online from then.
    await sim(url, 'increaseL1ValidatorBalance', { validationID: poor.validationID, amount: Number(1n * AVAX) })
    await sim(url, 'advanceTime', { seconds: 400 })
    listed = await validatorsApi()
    expect(listed.find((v) => v.nodeID === poor.nodeID)).toMatchObject({ isActive: true, uptimeSeconds: 2400, uptimePercentage: 60 })

    // Re-weighted.
    const first = converted.validators.find((v: any) => v.nodeID === network.nodes[0]!.nodeId)!
    await sim(url, 'setL1ValidatorWeight', { validationID: first.validationID, weight: 250 })
    listed = await validatorsApi()
    expect(listed.find((v) => v.nodeID === first.nodeID)!.weight).toBe(250)

    // Disabled: inactive with its weight until the L1 sets it to 0.
    const second = converted.validators.find((v: any) => v.nodeID === network.nodes[1]!.nodeId)!
    await sim(url, 'disableL1Validator', { validationID: second.validationID })
    listed = await validatorsApi()
    expect(listed.find((v) => v.nodeID === second.nodeID)).toMatchObject({ isActive: false, weight: 100 })
  })

  it('transfers X → P → C and back, balances consistent on every chain', async () => {
    devnet = await startTestDevnet('p-transfer', { nodes: 1 })
    const { url, network } = devnet
    const w = network.wallets(2)!
    const dev = network.devAccounts[2]!
    const x0 = network.primary.xchain.balanceOf(w.address)
    const p0 = w.p.balance()
    await sim(url, 'transfer', { from: 'X', to: 'P', amount: Number(100n * AVAX), account: 2 })
    expect(network.primary.xchain.balanceOf(w.address)).toBe(x0 - 100n * AVAX - network.primary.xchain.txFee)
    const p1 = w.p.balance()
    expect(p1).toBeGreaterThan(p0 + 99n * AVAX)
    const c0 = (await network.cChain.getAccountFields(dev.address, 'latest')).balance
    await sim(url, 'transfer', { from: 'P', to: 'C', amount: Number(50n * AVAX), account: 2 })
    const c1 = (await network.cChain.getAccountFields(dev.address, 'latest')).balance
    expect(c1 - c0).toBeGreaterThan(49n * 10n ** 18n)
    expect(c1 - c0).toBeLessThanOrEqual(50n * 10n ** 18n)
    expect(w.p.balance()).toBeLessThan(p1 - 50n * AVAX)
    await sim(url, 'transfer', { from: 'C', to: 'X', amount: Number(10n * AVAX), account: 2 })
    expect(network.primary.xchain.balanceOf(w.address)).toBeGreaterThan(x0 - 100n * AVAX - 2n * network.primary.xchain.txFee + 9n * AVAX)
    const wrong = await call(url, '/ext/sim', 'sim.transfer', { from: 'X', to: 'X', amount: 1 })
    expect(wrong.json.error?.message).toBe('transfer goes between two of P, X and C, got X → X')
  })
})

describe('P- and X-chain read APIs over HTTP', () => {
  it('platform.* at /ext/bc/P (and /ext/P), avm.* at /ext/bc/X', async () => {
    devnet = await startTestDevnet('p-api', { nodes: 2 })
    const { url, network } = devnet
    const added = await sim(url, 'addValidator', { stake: Number(2_000n * AVAX), duration: 14 * 24 * 3600 })
    for (const path of ['/ext/bc/P', '/ext/P', `/ext/bc/${network.preset.pChainId}`]) {
      const height = await result(url, path, 'platform.getHeight', {})
      expect(height).toEqual({ height: String(network.primary.pchain.height) })
    }
    const validators = await result(url, '/ext/bc/P', 'platform.getCurrentValidators', {})
    // The simulated nodes are the genesis validators; the added one joins them.
    expect(validators.validators.map((v: any) => v.nodeID).sort()).toEqual([...network.nodes.map((n) => n.nodeId), added.nodeID].sort())
    expect(validators.validators.find((v: any) => v.nodeID === added.nodeID)).toMatchObject({ weight: String(2_000n * AVAX) })
    const w = network.wallets(0)!
    const balance = await result(url, '/ext/bc/P', 'platform.getBalance', { addresses: [formatPAddress(network.preset.networkId, w.address)] })
    expect(BigInt(balance.balance)).toBe(w.p.balance())
    const xBalance = await result(url, '/ext/bc/X', 'avm.getBalance', { address: formatXAddress(network.preset.networkId, w.address), assetID: 'AVAX' })
    expect(BigInt(xBalance.balance)).toBe(network.primary.xchain.balanceOf(w.address))
    const unknown = await call(url, '/ext/bc/P', 'platform.getTxStatus', { txID: '11111111111111111111111111111111LpoYY' })
    expect(unknown.json.result).toEqual({ status: 'Unknown' })
  })
})
