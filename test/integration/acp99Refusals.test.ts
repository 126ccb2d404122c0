/**
 * ACP-99's bad messages, each refused with the real error and changing nothing: at the P-chain
 * (RegisterL1ValidatorTx / SetL1ValidatorWeightTx issued by avalanchejs with what the manager
 * contract sent, signed through `/aggregate-signatures`: too little weight, the wrong signing
 * subnet, tampered bytes, a proof of possession of another key, a replayed nonce, an expired
 * registration — avalanchego's words) and at the manager (its completeX with a P-chain message
 * that does not verify or does not fit: ValidatorManager's custom errors, read through viem).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '@noble/hashes/sha2.js'
import { ContractFunctionRevertedError, type BaseError } from 'viem'
import { PoAValidatorManager } from '../fixtures/contracts/index.js'
import { platform, utils, utxoIds } from '../api/node/pchain.js'
import { call, startTestDevnet, type TestDevnet } from '../api/node/helpers.js'
import {
  WARP, acp99L1, aggregate, bytes, conversionId, conversionPayload, hex, idHex, initializeValidatorSet, managerCall, nodeIdHex, nodeInfo, ownerOf, pchainMessage, predicate,
  registerJustification, registerTx, registrationPayload, sentWarp, signedByL1, weightPayload, weightTx, type Acp99L1,
} from './acp99Flow.js'

let devnet: TestDevnet
let l1: Acp99L1
beforeAll(async () => {
  devnet = await startTestDevnet('acp99-refusals', { nodes: 5 })
  l1 = await acp99L1(devnet, 2, { chainId: 7002, initial: [0, 1, 2], name: 'acp99r' })
})
afterAll(async () => {
  await devnet.stop()
})

type Hex = `0x${string}`
const PRIMARY = '11111111111111111111111111111111LpoYY'
const STATUS = ['Unknown', 'PendingAdded', 'Active', 'PendingRemoved', 'Completed', 'Invalidated']
const cb58 = (id: Hex) => utils.base58check.encode(bytes(id))
const sim = async (method: string, params: Record<string, unknown>) => (await call(devnet.url, '/ext/sim', `sim.${method}`, params)).json
const refusal = (text: string) => `couldn't issue tx: failed verification: ${text}`
const executorRefusal = (text: string) => new RegExp(`^couldn't issue tx: failed verification: failed execution: standard tx \\w+ failed execution: ${text}$`)
/** The manager's call by alice, simulated through viem with `signed` as the predicate: the custom error it reverts with, as `Name(args…)`. */
async function reverts(functionName: string, args: readonly unknown[], signed: Hex): Promise<string> {
  try {
    await l1.client.simulateContract({ account: l1.wallet.account, address: l1.manager, abi: PoAValidatorManager.abi, functionName: functionName as never, args: args as never, accessList: [{ address: WARP, storageKeys: predicate(signed) }] })
  } catch (error) {
    const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null
    if (reverted?.data) return `${reverted.data.errorName}(${(reverted.data.args ?? []).map(String).join(', ')})`
    throw error
  }
  throw new Error(`${functionName} did not revert`)
}
const validator = (id: Hex) => l1.client.readContract({ address: l1.manager, abi: PoAValidatorManager.abi, functionName: 'getValidator', args: [id] })
const totalWeight = () => l1.client.readContract({ address: l1.manager, abi: PoAValidatorManager.abi, functionName: 'l1TotalWeight' })
const l1Validator = async (id: Hex) => (await call(devnet.url, '/ext/bc/P', 'platform.getL1Validator', { validationID: cb58(id) })).json
/** Flips the low bit of the unsigned part's byte `fromEndOfUnsigned` from its end (1: the payload's last byte), keeping the signature. */
function tamper(signed: Hex, fromEndOfUnsigned: number): Hex {
  const b = bytes(signed)
  // signature: type id 4, bit set length 4 + n, signature 96; the bit set here is one byte long.
  const unsignedEnd = b.length - (4 + 4 + 1 + 96)
  b[unsignedEnd - fromEndOfUnsigned]! ^= 1
  return hex(b)
}

describe('the manager refuses a conversion that is not the one the P-chain signed', () => {
  it('initializeValidatorSet with another weight than converted: InvalidConversionID(packed, signed), not initialized', async () => {
    const signed = await signedByL1(devnet, l1, conversionPayload(conversionId(l1.conversion)), idHex(l1.subnetId))
    const altered = { ...l1.conversion, initialValidators: l1.conversion.initialValidators.map((v, i) => (i === 0 ? { ...v, weight: 99n } : v)) }
    expect(await reverts('initializeValidatorSet', [altered, 0], signed)).toBe(`InvalidConversionID(${conversionId(altered)}, ${conversionId(l1.conversion)})`)
    expect(await l1.client.readContract({ address: l1.manager, abi: PoAValidatorManager.abi, functionName: 'isValidatorSetInitialized' })).toBe(false)
    expect((await initializeValidatorSet(devnet, l1)).status).toBe('success')
  })
})

describe('a registration: bad messages at the P-chain, then at the manager', () => {
  let sent: ReturnType<typeof sentWarp>
  let validationId: Hex
  let info: Awaited<ReturnType<typeof nodeInfo>>
  let utxos: string[]
  beforeAll(async () => {
    info = await nodeInfo(devnet.nodes[3]!.url)
    sent = sentWarp(await managerCall(l1, 'initiateValidatorRegistration', [nodeIdHex(info.nodeID), info.nodePOP.publicKey, ownerOf(l1.c), ownerOf(l1.c), 50n]))
    validationId = hex(sha256(bytes(sent.payload)))
    utxos = await utxoIds(l1.c)
  })
  /** The P-chain refused the tx: no such validator, no UTXO spent. */
  const unchanged = async (id = validationId) => {
    expect((await l1Validator(id)).error?.message).toMatch(/not found/)
    expect(await utxoIds(l1.c)).toEqual(utxos)
  }

  it('signed by one validator of three (two withhold, quorum 33% asked): signature weight is insufficient', async () => {
    await sim('withholdWarpSignatures', { node: 1 })
    await sim('withholdWarpSignatures', { node: 2 })
    const signed = await aggregate(devnet, { message: sent.data, 'quorum-percentage': 33 }).finally(async () => {
      await sim('resumeWarpSignatures', { node: 1 })
      await sim('resumeWarpSignatures', { node: 2 })
    })
    await expect(registerTx(l1.c, signed, info.nodePOP.proofOfPossession)).rejects.toThrow(refusal('failed verifying warp messages: signature weight is insufficient: 67*300 > 100*100'))
    await unchanged()
  })

  it('signed by the primary network instead of the L1: unknown validator', async () => {
    const signed = await aggregate(devnet, { message: sent.data, 'signing-subnet-id': PRIMARY })
    await expect(registerTx(l1.c, signed, info.nodePOP.proofOfPossession)).rejects.toThrow(refusal('failed verifying warp messages: unknown validator: NumIndices (4) >= NumFilteredValidators (3)'))
    await unchanged()
  })

  it('tampered bytes (the weight changed after signing): signature is invalid', async () => {
    const signed = tamper(await aggregate(devnet, { message: sent.data }), 1)
    await expect(registerTx(l1.c, signed, info.nodePOP.proofOfPossession)).rejects.toThrow(refusal('failed verifying warp messages: signature is invalid'))
    await unchanged()
  })

  it('a proof of possession of another node\'s key: invalid proof of possession', async () => {
    const other = await nodeInfo(devnet.nodes[4]!.url)
    await expect(registerTx(l1.c, await aggregate(devnet, { message: sent.data }), other.nodePOP.proofOfPossession)).rejects.toThrow(executorRefusal('invalid proof of possession'))
    await unchanged()
  })

  it('the well-signed message with the node\'s proof is registered; the manager refuses acks that do not verify or do not fit', async () => {
    await registerTx(l1.c, await aggregate(devnet, { message: sent.data }), info.nodePOP.proofOfPossession)
    expect(await platform(devnet.url, 'getL1Validator', { validationID: cb58(validationId) })).toMatchObject({ nodeID: info.nodeID, weight: '50' })
    const ack = await signedByL1(devnet, l1, registrationPayload(validationId, true), '0x')
    // Signed by the primary network: the L1 checks P-chain messages against its own validators.
    const byPrimary = await aggregate(devnet, { message: pchainMessage(l1.networkId, registrationPayload(validationId, true)), 'signing-subnet-id': PRIMARY })
    expect(await reverts('completeValidatorRegistration', [0], byPrimary)).toBe('InvalidWarpMessage()')
    expect(await reverts('completeValidatorRegistration', [0], tamper(ack, 1))).toBe('InvalidWarpMessage()')
    expect(await reverts('completeValidatorRemoval', [0], ack)).toBe('UnexpectedRegistrationStatus(true)')
    // The L1's own warp message (a relayer mixing up directions): not from the P-chain.
    expect(await reverts('completeValidatorRegistration', [0], await aggregate(devnet, { message: sent.data }))).toBe(`InvalidWarpSourceChainID(${idHex(l1.blockchainId)})`)
    expect(STATUS[(await validator(validationId)).status]).toBe('PendingAdded')
    expect((await managerCall(l1, 'completeValidatorRegistration', [0], ack)).status).toBe('success')
    expect(STATUS[(await validator(validationId)).status]).toBe('Active')
  })

  it('a weight message replayed with its used nonce: stale nonce, the weight stays', async () => {
    const weight = sentWarp(await managerCall(l1, 'initiateValidatorWeightUpdate', [validationId, 70n]))
    const signed = await aggregate(devnet, { message: weight.data })
    await weightTx(l1.c, signed)
    const before = await utxoIds(l1.c)
    await expect(weightTx(l1.c, signed)).rejects.toThrow(executorRefusal('warp message contains stale nonce 1 must be at least 2'))
    expect(await platform(devnet.url, 'getL1Validator', { validationID: cb58(validationId) })).toMatchObject({ weight: '70', minNonce: '2' })
    expect(await utxoIds(l1.c)).toEqual(before)
    // The P-chain acknowledges nonce 1 only: an ack of a nonce the manager never sent does not exist, and one it sent completes.
    await expect(signedByL1(devnet, l1, weightPayload(validationId, 2n, 70n), '0x')).rejects.toThrow('failed to aggregate signatures. error: failed to collect a threshold of signatures')
    expect((await managerCall(l1, 'completeValidatorWeightUpdate', [0], await signedByL1(devnet, l1, weightPayload(validationId, 1n, 70n), '0x'))).status).toBe('success')
    expect((await validator(validationId)).receivedNonce).toBe(1n)
  })
})

describe('an expired registration', () => {
  it('refused by the P-chain once a day passed; the P-chain then signs it as never registered, and the manager invalidates it', async () => {
    const info = await nodeInfo(devnet.nodes[4]!.url)
    const total = await totalWeight()
    const initiated = sentWarp(await managerCall(l1, 'initiateValidatorRegistration', [nodeIdHex(info.nodeID), info.nodePOP.publicKey, ownerOf(l1.c), ownerOf(l1.c), 40n]))
    const validationId = hex(sha256(bytes(initiated.payload)))
    const expiry = BigInt(`0x${initiated.payload.slice(2 + 2 * (2 + 4 + 32 + 4 + 20 + 48), 2 + 2 * (2 + 4 + 32 + 4 + 20 + 48 + 8))}`)
    const signed = await aggregate(devnet, { message: initiated.data })
    expect(await totalWeight()).toBe(total + 40n)
    await sim('advanceTime', { seconds: 86_401 })
    const utxos = await utxoIds(l1.c)
    await expect(registerTx(l1.c, signed, info.nodePOP.proofOfPossession)).rejects.toThrow(executorRefusal(`warp message expired at ${expiry} and it is currently \\d+`))
    expect(await utxoIds(l1.c)).toEqual(utxos)
    expect((await l1Validator(validationId)).error?.message).toMatch(/not found/)
    const ack = await signedByL1(devnet, l1, registrationPayload(validationId, false), registerJustification(initiated.payload))
    expect((await managerCall(l1, 'completeValidatorRemoval', [0], ack)).status).toBe('success')
    expect(STATUS[(await validator(validationId)).status]).toBe('Invalidated')
    expect(await totalWeight()).toBe(total)
  })
})
