/**
 * ACP-99 end to end: an L1 whose validators are managed by a contract (the PoAValidatorManager
 * fixture, ValidatorManager's ABI). ConvertSubnetToL1Tx names it (avalanchejs), it initializes its
 * set with the P-chain's conversion message signed by the L1 through `/aggregate-signatures`, then
 * registers a validator (its warp message → RegisterL1ValidatorTx → the P-chain's signed
 * registration → completion), changes its weight and removes it. After each step the P-chain's
 * reads, the L1's `validators.getCurrentValidators` and the contract agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PoAValidatorManager } from '../fixtures/contracts/index.js'
import { platform, utils } from '../api/node/pchain.js'
import { call, startTestDevnet, type TestDevnet } from '../api/node/helpers.js'
import { acp99L1, bytes, changeWeight, initializeValidatorSet, registerValidator, removeValidator, type Acp99L1 } from './acp99Flow.js'

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet('acp99', { nodes: 5 })
})
afterAll(async () => {
  await devnet.stop()
})

const cb58 = (id: `0x${string}`): string => utils.base58check.encode(bytes(id))
const STATUS = ['Unknown', 'PendingAdded', 'Active', 'PendingRemoved', 'Completed', 'Invalidated']

/** What the P-chain, the L1 and the contract say of the L1's validators: node id → weight, each. */
async function views(l1: Acp99L1) {
  const current = await platform(devnet.url, 'getCurrentValidators', { subnetID: l1.subnetId })
  const height = (await platform(devnet.url, 'getHeight', {})).height
  const at = await platform(devnet.url, 'getValidatorsAt', { height, subnetID: l1.subnetId })
  const onL1 = (await call(devnet.url, `/ext/bc/${l1.blockchainId}/validators`, 'validators.getCurrentValidators', {})).json.result
  const weights = (list: { nodeID: string; weight: string | number }[]) => Object.fromEntries(list.map((v) => [v.nodeID, String(v.weight)]).sort())
  return {
    current: weights(current.validators),
    at: Object.fromEntries(Object.entries(at as Record<string, { weight: string }>).map(([n, v]) => [n, v.weight]).sort()),
    l1: weights(onL1.validators),
    contractTotal: await l1.client.readContract({ address: l1.manager, abi: PoAValidatorManager.abi, functionName: 'l1TotalWeight' }),
  }
}
const validator = (l1: Acp99L1, id: `0x${string}`) => l1.client.readContract({ address: l1.manager, abi: PoAValidatorManager.abi, functionName: 'getValidator', args: [id] })

describe('ACP-99: a validator manager contract drives the L1\'s validator set', () => {
  let l1: Acp99L1
  beforeAll(async () => {
    l1 = await acp99L1(devnet, 1, { chainId: 7001, initial: [0, 1, 2], name: 'acp99' })
  })

  it('initializeValidatorSet with the conversion message the L1 signed: the three initial validators Active', async () => {
    const receipt = await initializeValidatorSet(devnet, l1)
    expect(receipt.status).toBe('success')
    expect(await l1.client.readContract({ address: l1.manager, abi: PoAValidatorManager.abi, functionName: 'isValidatorSetInitialized' })).toBe(true)
    const v = await views(l1)
    expect(Object.values(v.current)).toEqual(['100', '100', '100'])
    expect(v.at).toEqual(v.current)
    expect(v.l1).toEqual(v.current)
    expect(v.contractTotal).toBe(300n)
  })

  let registered: Awaited<ReturnType<typeof registerValidator>>
  it('registers node 3 with weight 50: the P-chain, the L1 and the contract agree', async () => {
    registered = await registerValidator(devnet, l1, 3, 50n)
    expect(registered.completed.status).toBe('success')
    expect(await platform(devnet.url, 'getL1Validator', { validationID: cb58(registered.validationId) })).toMatchObject({ subnetID: l1.subnetId, nodeID: registered.nodeID, weight: '50', minNonce: '0' })
    const v = await views(l1)
    expect(v.current[registered.nodeID]).toBe('50')
    expect(v.at).toEqual(v.current)
    expect(v.l1).toEqual(v.current)
    expect(v.contractTotal).toBe(350n)
    const s = await validator(l1, registered.validationId)
    expect({ status: STATUS[s.status], weight: s.weight }).toEqual({ status: 'Active', weight: 50n })
  })

  it('changes its weight to 80 (nonce 1): acknowledged, the three views agree', async () => {
    const { nonce, completed } = await changeWeight(devnet, l1, registered.validationId, 80n)
    expect(nonce).toBe(1n)
    expect(completed.status).toBe('success')
    const v = await views(l1)
    expect(v.current[registered.nodeID]).toBe('80')
    expect(v.l1).toEqual(v.current)
    expect(v.contractTotal).toBe(380n)
    expect((await validator(l1, registered.validationId)).receivedNonce).toBe(1n)
  })

  it('removes it: gone from the P-chain and the L1, Completed in the contract', async () => {
    const receipt = await removeValidator(devnet, l1, registered.validationId, registered.registerMessage)
    expect(receipt.status).toBe('success')
    const v = await views(l1)
    expect(v.current[registered.nodeID]).toBeUndefined()
    expect(v.l1).toEqual(v.current)
    expect(Object.keys(v.current)).toHaveLength(3)
    expect(v.contractTotal).toBe(300n)
    expect(STATUS[(await validator(l1, registered.validationId)).status]).toBe('Completed')
  })
})
