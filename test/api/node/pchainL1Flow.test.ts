/**
 * An L1 launched and run from @avalabs/avalanchejs alone, over HTTP, as a launch script does it:
 * create a subnet, create a subnet-EVM chain on it, convert it to an L1 with two of the network's
 * nodes (their BLS keys from info.getNodeID), top up a validator's balance, watch the balance run
 * out over network time (the validator stays, inactive) and reactivate it with another top-up. The
 * L1's validators API follows each step, and its EVM chain serves transactions once converted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { alice, bob, L1_CHAIN_ID, testGenesis } from '../../l1/helpers.js'
import { result, sim, startTestDevnet, type TestDevnet } from './helpers.js'
import { AVAX, L1Validator, PChainOwner, common, pClient, platform, pvm, pvmSerial, signAllAndIssue, signAndIssue, utils, type PClient } from './pchain.js'

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet('p-l1-flow', { nodes: 3 })
})
afterAll(async () => {
  await devnet.stop()
})

const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'
const MANAGER = '0x0000000000000000000000000000000000000fee'
/** A small fee balance: at the local minimum price of 1 nAVAX per second it lasts hours, not days. */
const SMALL = 20_000n

describe('an L1 from avalanchejs: subnet, chain, conversion, balances over network time', () => {
  it('runs the whole launch, and a validator that ran dry is reactivated', async () => {
    const c: PClient = await pClient(devnet.url, devnet.network.devAccounts[1]!.privateKey)
    const subnetId = await signAndIssue(c, pvm.newCreateSubnetTx({ ...(await common(c)), subnetOwners: [c.addr] }, c.context))
    const chainTx = pvm.newCreateChainTx({ ...(await common(c)), chainName: 'launch', subnetAuth: [0], subnetId, vmId: SUBNET_EVM, fxIds: [], genesisData: testGenesis() }, c.context)
    const chainId = await signAllAndIssue(c, chainTx)

    const nodes = await Promise.all([0, 1].map((i) => result(devnet.nodes[i]!.url, '/ext/info', 'info.getNodeID', {})))
    const owner = PChainOwner.fromNative([c.addr], 1)
    const pop = (n: { nodePOP: { publicKey: string; proofOfPossession: string } }) => new pvmSerial.ProofOfPossession(utils.hexToBuffer(n.nodePOP.publicKey), utils.hexToBuffer(n.nodePOP.proofOfPossession))
    const validators = [L1Validator.fromNative(nodes[0].nodeID, 100n, AVAX, pop(nodes[0]), owner, owner), L1Validator.fromNative(nodes[1].nodeID, 100n, SMALL, pop(nodes[1]), owner, owner)]
    const convert = pvm.newConvertSubnetToL1Tx({ ...(await common(c)), subnetId, chainId, validators, subnetAuth: [0], address: utils.hexToBuffer(MANAGER) }, c.context)
    await signAllAndIssue(c, convert)
    expect(await platform(devnet.url, 'getSubnet', { subnetID: subnetId })).toMatchObject({ isPermissioned: false, managerChainID: chainId, managerAddress: MANAGER })

    const l1Validators = async () => (await result(devnet.url, `/ext/bc/${chainId}/validators`, 'validators.getCurrentValidators', {})).validators as { nodeID: string; validationID: string; isActive: boolean; weight: number }[]
    const set = await l1Validators()
    expect(set.map((v) => [v.nodeID, v.isActive, v.weight]).sort()).toEqual([[nodes[0].nodeID, true, 100], [nodes[1].nodeID, true, 100]].sort())
    const small = set.find((v) => v.nodeID === nodes[1].nodeID)!.validationID
    const balance = async () => BigInt((await platform(devnet.url, 'getL1Validator', { validationID: small })).balance)
    expect(await balance()).toBe(SMALL)

    // The converted L1's EVM chain serves: a transfer from a genesis account, over HTTP.
    const chain = defineChain({ id: L1_CHAIN_ID, name: 'launch', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [`${devnet.url}/ext/bc/${chainId}/rpc`] } } })
    const publicClient = createPublicClient({ chain, transport: http() })
    const hash = await createWalletClient({ chain, account: alice, transport: http() }).sendTransaction({ to: bob.address, value: parseEther('1') })
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')

    // Top up the small balance, then let network time use it all up.
    const top = async (amount: bigint) => signAndIssue(c, pvm.newIncreaseL1ValidatorBalanceTx({ ...(await common(c)), balance: amount, validationId: small }, c.context))
    await top(SMALL)
    expect(await balance()).toBe(2n * SMALL)
    await sim(devnet.url, 'advanceTime', { seconds: 3600 })
    const left = await balance()
    expect(left).toBeGreaterThan(0n)
    expect(left).toBeLessThan(2n * SMALL)
    await sim(devnet.url, 'advanceTime', { seconds: Number(left) + 3600 })
    expect(await balance()).toBe(0n)
    expect((await l1Validators()).map((v) => [v.nodeID, v.isActive]).sort()).toEqual([[nodes[0].nodeID, true], [nodes[1].nodeID, false]].sort())
    expect((await platform(devnet.url, 'getValidatorsAt', { height: 'proposed', subnetID: subnetId }))[nodes[1].nodeID]).toBeUndefined()

    // Reactivated by a top-up: active again, with the new balance.
    await top(AVAX)
    expect(await balance()).toBe(AVAX)
    expect((await l1Validators()).every((v) => v.isActive)).toBe(true)
    expect((await platform(devnet.url, 'getValidatorsAt', { height: 'proposed', subnetID: subnetId }))[nodes[1].nodeID]).toMatchObject({ weight: '100' })
  })
})
