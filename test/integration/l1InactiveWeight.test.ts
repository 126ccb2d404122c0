/**
 * An inactive L1 validator keeps its weight in the set the node's validator manager holds, under
 * the empty node id and without a BLS key (avalanchego `vms/platformvm/state`): it counts in the
 * total weight of warp quorums and in `platform.getValidatorsAt`, and never signs. Once one of an
 * ACP-99 L1's three validators is disabled (avalanchejs), the two left (200 of 300) sign the
 * manager's registration under 67%: the aggregator cannot connect to 67% of the stake, and the P-chain
 * refuses a message signed at 66%.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '@noble/hashes/sha2.js'
import { encodePacked } from 'viem'
import { common, platform, pvm, signAllAndIssue, utils } from '../api/node/pchain.js'
import { call, startTestDevnet, type TestDevnet } from '../api/node/helpers.js'
import { acp99L1, aggregate, bytes, idHex, initializeValidatorSet, managerCall, nodeIdHex, nodeInfo, ownerOf, registerTx, sentWarp, type Acp99L1 } from './acp99Flow.js'

let devnet: TestDevnet
let l1: Acp99L1
beforeAll(async () => {
  devnet = await startTestDevnet('l1-inactive', { nodes: 4 })
  l1 = await acp99L1(devnet, 3, { chainId: 7003, initial: [0, 1, 2], name: 'inactive' })
  await initializeValidatorSet(devnet, l1)
  // Disable the conversion's first validator (validation id: sha256(subnetID ‖ uint32 0)).
  const first = utils.base58check.encode(sha256(bytes(encodePacked(['bytes32', 'uint32'], [idHex(l1.subnetId), 0]))))
  await signAllAndIssue(l1.c, pvm.newDisableL1ValidatorTx({ ...(await common(l1.c)), disableAuth: [0], validationId: first }, l1.c.context))
})
afterAll(async () => {
  await devnet.stop()
})

describe('an inactive L1 validator\'s weight', () => {
  it('getValidatorsAt lists it under the empty node id without a key; the L1\'s validators API still lists the validator, inactive', async () => {
    const height = (await platform(devnet.url, 'getHeight', {})).height
    const at = await platform(devnet.url, 'getValidatorsAt', { height, subnetID: l1.subnetId })
    expect(at['NodeID-111111111111111111116DBWJs']).toEqual({ publicKey: null, weight: '100' })
    expect(Object.keys(at)).toHaveLength(3)
    const onL1 = (await call(devnet.url, `/ext/bc/${l1.blockchainId}/validators`, 'validators.getCurrentValidators', {})).json.result.validators
    expect(onL1.map((v: { isActive: boolean }) => v.isActive).sort()).toEqual([false, true, true])
    expect(await platform(devnet.url, 'getTotalStake', { subnetID: l1.subnetId })).toMatchObject({ weight: '300' })
  })

  it('counts as stake no node connects to: the L1 chain\'s health check lists the empty node id as disconnected', async () => {
    await call(devnet.url, '/ext/sim', 'sim.advanceTime', { seconds: 60 })
    const health = (await (await fetch(`${devnet.url}/ext/health`)).json()) as { checks: Record<string, { message?: { networking?: { disconnectedValidators: string[]; percentConnected: number } } }> }
    const networking = Object.values(health.checks).flatMap((c) => (c.message?.networking?.disconnectedValidators.includes('NodeID-111111111111111111116DBWJs') ? [c.message.networking] : []))
    expect(networking).toHaveLength(1)
    expect(networking[0]!.percentConnected).toBeCloseTo(200 / 300)
  })

  it('counts in the quorum: the two active validators (200 of 300) are short of 67%, at the aggregator and at the P-chain', async () => {
    const info = await nodeInfo(devnet.nodes[3]!.url)
    const sent = sentWarp(await managerCall(l1, 'initiateValidatorRegistration', [nodeIdHex(info.nodeID), info.nodePOP.publicKey, ownerOf(l1.c), ownerOf(l1.c), 10n]))
    await expect(aggregate(devnet, { message: sent.data })).rejects.toThrow('failed to aggregate signatures. error: failed to connect to a threshold of stake')
    const signed = await aggregate(devnet, { message: sent.data, 'quorum-percentage': 66 })
    await expect(registerTx(l1.c, signed, info.nodePOP.proofOfPossession)).rejects.toThrow('couldn\'t issue tx: failed verification: failed verifying warp messages: signature weight is insufficient: 67*300 > 100*200')
  })
})
