/**
 * platform.issueTx with staking txs built by @avalabs/avalanchejs as its examples build them
 * (examples/p-chain/validate.ts, delegate.ts; the subnet validator builders the same way), issued
 * over HTTP, read back through getTx, getTxStatus, getCurrentValidators, balances and the data API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Glacier } from '@avalabs/glacier-sdk'
import { blsFixture, bytes20 } from '../../platform/fixtures/ajs.js'
import { startTestDevnet, result, type TestDevnet } from './helpers.js'
import { burned, common, dataUtxos, expectAccepted, expectDataUtxosMatch, glacierOf, networkIDs, pClient, platform, pvm, signAllAndIssue, signAndIssue, unlocked, utils, type PClient } from './pchain.js'

let devnet: TestDevnet
let glacier: Glacier
beforeAll(async () => {
  devnet = await startTestDevnet('p-issue-staking', { nodes: 2 })
  glacier = glacierOf(devnet.url)
})
afterAll(async () => {
  await devnet.stop()
})

const DAY = 86_400n
const key = (account: number) => devnet.network.devAccounts[account]!.privateKey
/** The chain time as the examples read it (`getTimestamp`), in unix seconds. */
const chainTime = async (c: PClient): Promise<bigint> => BigInt(new Date((await c.pvmApi.getTimestamp()).timestamp).getTime() / 1000)
const nodeIdOf = (label: string) => `NodeID-${utils.base58check.encode(bytes20(label))}`
const validatorOf = async (nodeID: string, subnetID?: string) => (await platform(devnet.url, 'getCurrentValidators', { nodeIDs: [nodeID], ...(subnetID ? { subnetID } : {}) })).validators[0]

describe('platform.issueTx: staking from avalanchejs', () => {
  it('AddPermissionlessValidatorTx then AddPermissionlessDelegatorTx: current validator with its BLS signer, the delegation counted, stake locked', async () => {
    const c = await pClient(devnet.url, key(1))
    const { minValidatorStake, minDelegatorStake } = await platform(devnet.url, 'getMinStake', {})
    const weight = BigInt(minValidatorStake)
    const nodeId = nodeIdOf('issue-staking-validator')
    const bls = blsFixture('issue-staking-validator')
    const start = await chainTime(c)
    const before = await unlocked(c)
    const tx = pvm.newAddPermissionlessValidatorTx({
      ...(await common(c)), end: start + 21n * DAY, delegatorRewardsOwner: [c.addr], nodeId, publicKey: bls.publicKey, rewardAddresses: [c.addr],
      shares: 20 * 1e4, signature: bls.signature, start, subnetId: networkIDs.PrimaryNetworkID.toString(), weight,
    }, c.context)
    const txId = await signAndIssue(c, tx)
    const { listed } = await expectAccepted(c, txId, tx, 'AddPermissionlessValidatorTx', glacier)
    expect(listed.nodeId).toBe(nodeId)
    const v = await validatorOf(nodeId)
    expect(v).toMatchObject({ txID: txId, nodeID: nodeId, weight: String(weight), endTime: String(start + 21n * DAY), delegationFee: '20.0000', signer: { publicKey: utils.bufferToHex(bls.publicKey) } })
    expect(await unlocked(c)).toBe(before - weight - burned(tx, c.context))
    expect((await dataUtxos(glacier, c.pAddr)).filter((u) => u.staked && u.txHash === txId).map((u) => u.amount)).toEqual([String(weight)])
    await expectDataUtxosMatch(c, glacier)

    const d = await pClient(devnet.url, key(2))
    const dBefore = await unlocked(d)
    const stake = BigInt(minDelegatorStake)
    const dtx = pvm.newAddPermissionlessDelegatorTx({
      ...(await common(d)), end: start + 14n * DAY, nodeId, rewardAddresses: [d.addr], start, subnetId: networkIDs.PrimaryNetworkID.toString(), weight: stake,
    }, d.context)
    const dId = await signAndIssue(d, dtx)
    await expectAccepted(d, dId, dtx, 'AddPermissionlessDelegatorTx', glacier)
    expect(await validatorOf(nodeId)).toMatchObject({ delegatorCount: '1', delegatorWeight: String(stake) })
    expect(await unlocked(d)).toBe(dBefore - stake - burned(dtx, d.context))
  })

  it('AddSubnetValidatorTx then RemoveSubnetValidatorTx on a subnet the key owns: the node validates it, then no longer', async () => {
    const c = await pClient(devnet.url, key(3))
    const subnetTx = pvm.newCreateSubnetTx({ ...(await common(c)), subnetOwners: [c.addr] }, c.context)
    const subnetId = await signAndIssue(c, subnetTx)
    const { nodeID } = await result(devnet.url, '/ext/info', 'info.getNodeID', {})
    const start = await chainTime(c)
    const add = pvm.newAddSubnetValidatorTx({ ...(await common(c)), end: start + 7n * DAY, nodeId: nodeID, start, subnetAuth: [0], subnetId, weight: 100n }, c.context)
    const addId = await signAllAndIssue(c, add)
    const { listed } = await expectAccepted(c, addId, add, 'AddSubnetValidatorTx', glacier)
    expect(listed).toMatchObject({ nodeId: nodeID, subnetId })
    expect(await validatorOf(nodeID, subnetId)).toMatchObject({ txID: addId, nodeID, weight: '100', endTime: String(start + 7n * DAY) })
    expect((await platform(devnet.url, 'getValidatorsAt', { height: 'proposed', subnetID: subnetId }))[nodeID]).toMatchObject({ weight: '100' })

    const before = await unlocked(c)
    const remove = pvm.newRemoveSubnetValidatorTx({ ...(await common(c)), nodeId: nodeID, subnetAuth: [0], subnetId }, c.context)
    const removeId = await signAllAndIssue(c, remove)
    await expectAccepted(c, removeId, remove, 'RemoveSubnetValidatorTx', glacier)
    expect(await validatorOf(nodeID, subnetId)).toBeUndefined()
    expect(await unlocked(c)).toBe(before - burned(remove, c.context))
  })
})
