/**
 * platform.issueTx with subnet and L1 txs built by @avalabs/avalanchejs as its examples build them
 * (examples/p-chain/createSubnet.ts, createChain.ts, convertSubnetToL1.ts, increaseBalanceTx.ts;
 * the other builders the same way), one test per type, each read back through getTx, getTxStatus,
 * getSubnet, getL1Validator, balances and the data API (ops 15, 17). What a test needs before its
 * tx (a subnet, a chain, a conversion) is made with the library's wallet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Glacier } from '@avalabs/glacier-sdk'
import { idFromString } from '../../../src/core/ids.js'
import { encodeAddressedCall, encodeUnsignedMessage } from '../../../src/evm/warp/codec.js'
import { encodeL1ValidatorWeight, encodeRegisterL1Validator } from '../../../src/platform/pchain/warpMessages.js'
import { testGenesis } from '../../l1/helpers.js'
import { blsFixture, bytes20 } from '../../platform/fixtures/ajs.js'
import { result, startTestDevnet, type TestDevnet } from './helpers.js'
import { AVAX, L1Validator, LOCAL, PChainOwner, burned, common, expectAccepted, glacierOf, pClient, platform, pvm, pvmSerial, signAllAndIssue, signAndIssue, unlocked, utils, type PClient } from './pchain.js'

let devnet: TestDevnet
let glacier: Glacier
beforeAll(async () => {
  devnet = await startTestDevnet('p-issue-l1', { nodes: 3 })
  glacier = glacierOf(devnet.url)
})
afterAll(async () => {
  await devnet.stop()
})

const MANAGER = '0x0000000000000000000000000000000000000abc'
const key = (account: number) => devnet.network.devAccounts[account]!.privateKey
/** info.getNodeID of node `i`: its id and BLS key with proof of possession, as the examples take them. */
const nodeInfo = async (i: number) => result(devnet.nodes[i]!.url, '/ext/info', 'info.getNodeID', {})
const l1Validator = (validationID: string) => platform(devnet.url, 'getL1Validator', { validationID })
const dataL1Validators = async (subnetId: string) => (await glacier.primaryNetwork.listL1Validators({ network: LOCAL, subnetId, includeInactiveL1Validators: true })).validators

/** A subnet owned by `account` with a subnet-EVM chain, converted with nodes 0 and 1, through the library's wallet. */
function convertedL1(account: number) {
  const { p } = devnet.network.wallets(account)!
  const { subnetId } = p.createSubnet()
  const { blockchainId } = p.createChain({ subnetId, name: `l1-${account}`, vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', genesis: JSON.stringify(testGenesis()) })
  const validators = [0, 1].map((i) => ({ node: devnet.network.nodes[i]!.identity, weight: 100n, balance: AVAX }))
  const converted = p.convertSubnetToL1({ subnetId, chainId: blockchainId, address: MANAGER, validators })
  return { subnetId, blockchainId, validationIds: converted.validators.map((v) => v.validationId) }
}

/** A warp message from the L1's validator manager carrying `payload`, signed by the L1's validators (what a relayer hands the P-chain). */
function managerMessage(blockchainId: string, payload: Uint8Array): Uint8Array {
  const unsigned = encodeUnsignedMessage({ networkId: devnet.network.preset.networkId, sourceChainId: idFromString(blockchainId), payload: encodeAddressedCall(utils.hexToBuffer(MANAGER), payload) })
  return devnet.network.signWarpMessage(unsigned)
}

const ownerOf = (c: PClient) => ({ threshold: '1', locktime: '0', addresses: [c.pAddr] })

describe('platform.issueTx: subnets and L1s from avalanchejs', () => {
  it('CreateSubnetTx: getSubnet shows the owner, permissioned', async () => {
    const c = await pClient(devnet.url, key(1))
    const tx = pvm.newCreateSubnetTx({ ...(await common(c)), subnetOwners: [c.addr] }, c.context)
    const txId = await signAndIssue(c, tx)
    await expectAccepted(c, txId, tx, 'CreateSubnetTx', glacier)
    expect(await platform(devnet.url, 'getSubnet', { subnetID: txId })).toMatchObject({ isPermissioned: true, controlKeys: [c.pAddr], threshold: '1', locktime: '0' })
  })

  it('CreateChainTx of subnet-EVM: listed by getBlockchains, and its EVM chain serves at /ext/bc/<id>/rpc when issueTx returns', async () => {
    const c = await pClient(devnet.url, key(2))
    const { subnetId } = devnet.network.wallets(2)!.p.createSubnet()
    const vmId = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'
    const tx = pvm.newCreateChainTx({ ...(await common(c)), chainName: 'ajschain', subnetAuth: [0], subnetId, vmId, fxIds: [], genesisData: testGenesis() }, c.context)
    const txId = await signAllAndIssue(c, tx)
    await expectAccepted(c, txId, tx, 'CreateChainTx', glacier)
    const { blockchains } = await platform(devnet.url, 'getBlockchains', {})
    expect(blockchains).toContainEqual({ id: txId, name: 'ajschain', subnetID: subnetId, vmID: vmId })
    const res = await fetch(`${devnet.url}/ext/bc/${txId}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    expect(((await res.json()) as { result: string }).result).toBe('0x1869f')
  })

  it('TransferSubnetOwnershipTx: getSubnet shows the new owner, whose key alone can now authorize', async () => {
    const c = await pClient(devnet.url, key(3))
    const next = await pClient(devnet.url, key(4))
    const { subnetId } = devnet.network.wallets(3)!.p.createSubnet()
    const tx = pvm.newTransferSubnetOwnershipTx({ ...(await common(c)), subnetAuth: [0], subnetId, subnetOwners: [next.addr] }, c.context)
    const txId = await signAllAndIssue(c, tx)
    await expectAccepted(c, txId, tx, 'TransferSubnetOwnershipTx', glacier)
    expect(await platform(devnet.url, 'getSubnet', { subnetID: subnetId })).toMatchObject({ isPermissioned: true, controlKeys: [next.pAddr], threshold: '1' })
    expect(() => devnet.network.wallets(3)!.p.buildCreateChain({ subnetId, name: 'x', vmId: new Uint8Array(32), genesis: '{}' })).toThrow(`the keychain cannot sign for the owner of subnet ${subnetId}`)
  })

  it('ConvertSubnetToL1Tx with two nodes from info.getNodeID: getSubnet shows the manager, getL1Validator and the data API the validators', async () => {
    const c = await pClient(devnet.url, key(5))
    const { p } = devnet.network.wallets(5)!
    const { subnetId } = p.createSubnet()
    const { blockchainId } = p.createChain({ subnetId, name: 'convertme', vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', genesis: JSON.stringify(testGenesis()) })
    const owner = PChainOwner.fromNative([c.addr], 1)
    const nodes = await Promise.all([0, 1].map(nodeInfo))
    const validators = nodes.map((n) => L1Validator.fromNative(n.nodeID, 100n, 2n * AVAX, new pvmSerial.ProofOfPossession(utils.hexToBuffer(n.nodePOP.publicKey), utils.hexToBuffer(n.nodePOP.proofOfPossession)), owner, owner))
    const before = await unlocked(c)
    const tx = pvm.newConvertSubnetToL1Tx({ ...(await common(c)), subnetId, chainId: blockchainId, validators, subnetAuth: [0], address: utils.hexToBuffer(MANAGER) }, c.context)
    const txId = await signAllAndIssue(c, tx)
    await expectAccepted(c, txId, tx, 'ConvertSubnetToL1Tx', glacier)
    expect(await unlocked(c)).toBe(before - 4n * AVAX - burned(tx, c.context))
    expect(await platform(devnet.url, 'getSubnet', { subnetID: subnetId })).toMatchObject({ isPermissioned: false, managerChainID: blockchainId, managerAddress: MANAGER })
    const listed = await dataL1Validators(subnetId)
    expect(listed.map((v) => v.nodeId).sort()).toEqual(nodes.map((n) => n.nodeID).sort())
    for (const v of listed) {
      expect(await l1Validator(v.validationId)).toMatchObject({ subnetID: subnetId, nodeID: v.nodeId, weight: '100', balance: String(2n * AVAX), remainingBalanceOwner: ownerOf(c), deactivationOwner: ownerOf(c) })
    }
    // The L1's validators API (on the chain) follows the conversion.
    const vs = await result(devnet.url, `/ext/bc/${blockchainId}/validators`, 'validators.getCurrentValidators', {})
    expect(vs.validators.map((v: { nodeID: string }) => v.nodeID).sort()).toEqual(nodes.map((n) => n.nodeID).sort())
  })

  it('RegisterL1ValidatorTx with a RegisterL1Validator message from the manager: a third validator with its balance', async () => {
    const c = await pClient(devnet.url, key(6))
    const { subnetId, blockchainId } = convertedL1(6)
    const bls = blsFixture('issue-register')
    const nodeId = bytes20('issue-register')
    const expiry = BigInt(devnet.network.primary.pchain.timestamp + 3600)
    const payload = encodeRegisterL1Validator({ subnetId: idFromString(subnetId), nodeId, blsPublicKey: bls.publicKey, expiry, remainingBalanceOwner: { threshold: 1, addrs: [c.addr] }, disableOwner: { threshold: 1, addrs: [c.addr] }, weight: 50n })
    const tx = pvm.newRegisterL1ValidatorTx({ ...(await common(c)), balance: AVAX, blsSignature: bls.signature, message: managerMessage(blockchainId, payload) }, c.context)
    const txId = await signAndIssue(c, tx)
    await expectAccepted(c, txId, tx, 'RegisterL1ValidatorTx', glacier)
    const registered = (await dataL1Validators(subnetId)).find((v) => v.nodeId === `NodeID-${utils.base58check.encode(nodeId)}`)!
    expect(registered).toMatchObject({ weight: 50, remainingBalance: Number(AVAX) })
    expect(await l1Validator(registered.validationId)).toMatchObject({ weight: '50', balance: String(AVAX), publicKey: utils.bufferToHex(bls.publicKey) })
  })

  it('SetL1ValidatorWeightTx with an L1ValidatorWeight message: the weight and the minimum nonce move', async () => {
    const c = await pClient(devnet.url, key(7))
    const { blockchainId, validationIds } = convertedL1(7)
    const id = validationIds[0]!
    const payload = encodeL1ValidatorWeight({ validationId: idFromString(id), nonce: 0n, weight: 250n })
    const tx = pvm.newSetL1ValidatorWeightTx({ ...(await common(c)), message: managerMessage(blockchainId, payload) }, c.context)
    const txId = await signAndIssue(c, tx)
    await expectAccepted(c, txId, tx, 'SetL1ValidatorWeightTx', glacier)
    expect(await l1Validator(id)).toMatchObject({ weight: '250', minNonce: '1' })
  })

  it('IncreaseL1ValidatorBalanceTx: the balance grows by the amount, paid from the P balance with the fee', async () => {
    const c = await pClient(devnet.url, key(8))
    const { validationIds } = convertedL1(8)
    const id = validationIds[1]!
    const [before, balance] = [await unlocked(c), BigInt((await l1Validator(id)).balance)]
    const tx = pvm.newIncreaseL1ValidatorBalanceTx({ ...(await common(c)), balance: 3n * AVAX, validationId: id }, c.context)
    const txId = await signAndIssue(c, tx)
    const { listed } = await expectAccepted(c, txId, tx, 'IncreaseL1ValidatorBalanceTx', glacier)
    expect(listed.amountL1ValidatorBalanceBurned).toEqual([expect.objectContaining({ amount: String(3n * AVAX) })])
    expect(BigInt((await l1Validator(id)).balance)).toBe(balance + 3n * AVAX)
    expect(await unlocked(c)).toBe(before - 3n * AVAX - burned(tx, c.context))
  })

  it('DisableL1ValidatorTx signed by the deactivation owner: inactive, its remaining balance refunded', async () => {
    const c = await pClient(devnet.url, key(9))
    const { validationIds } = convertedL1(9)
    const id = validationIds[0]!
    const [before, balance] = [await unlocked(c), BigInt((await l1Validator(id)).balance)]
    const tx = pvm.newDisableL1ValidatorTx({ ...(await common(c)), disableAuth: [0], validationId: id }, c.context)
    const txId = await signAllAndIssue(c, tx)
    await expectAccepted(c, txId, tx, 'DisableL1ValidatorTx', glacier)
    expect(await l1Validator(id)).toMatchObject({ balance: '0' })
    expect(await unlocked(c)).toBe(before + balance - burned(tx, c.context))
  })
})
