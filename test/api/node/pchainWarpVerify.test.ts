/**
 * The P-chain verifies the warp message inside a RegisterL1ValidatorTx as avalanchego's
 * `VerifyWarpMessages` does, before executing it: a BLS aggregate signature of at least 67% of the
 * weight of the source chain's subnet (the L1). A tx built by @avalabs/avalanchejs with a message
 * signed under quorum, by another subnet's validators, or with tampered bytes is refused with the
 * node's text and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { idFromString } from '../../../src/core/ids.js'
import { encodeAddressedCall, encodeMessage, encodeUnsignedMessage, parseMessage } from '../../../src/evm/warp/codec.js'
import { encodeL1ValidatorWeight, encodeRegisterL1Validator, registerValidationId } from '../../../src/platform/pchain/warpMessages.js'
import { showId } from '../../../src/platform/txs.js'
import { testGenesis } from '../../l1/helpers.js'
import { blsFixture, bytes20 } from '../../platform/fixtures/ajs.js'
import { startTestDevnet, type TestDevnet } from './helpers.js'
import { AVAX, common, pClient, platform, pvm, signAndIssue, utxoIds, type PClient } from './pchain.js'

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet('p-warp-verify', { nodes: 4 })
})
afterAll(async () => {
  await devnet.stop()
})

const MANAGER = '0x0000000000000000000000000000000000000abc'
const VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'

/** A subnet-EVM L1 of `account` converted with nodes `nodes` (weight 100 each). */
function convertedL1(account: number, name: string, nodes: number[]) {
  const { p } = devnet.network.wallets(account)!
  const { subnetId } = p.createSubnet()
  const { blockchainId } = p.createChain({ subnetId, name, vmId: VM, genesis: JSON.stringify(testGenesis()) })
  p.convertSubnetToL1({ subnetId, chainId: blockchainId, address: MANAGER, validators: nodes.map((i) => ({ node: devnet.network.nodes[i]!.identity, weight: 100n, balance: AVAX })) })
  return { subnetId, blockchainId }
}

describe('RegisterL1ValidatorTx: the warp message must be signed by 67% of the L1', () => {
  let c: PClient
  let a: { subnetId: string; blockchainId: string }
  let b: { subnetId: string; blockchainId: string }
  beforeAll(async () => {
    c = await pClient(devnet.url, devnet.network.devAccounts[5]!.privateKey)
    a = convertedL1(5, 'warp-a', [0, 1, 2])
    b = convertedL1(5, 'warp-b', [0, 1, 2, 3])
  })

  const register = (weight: bigint) => {
    const bls = blsFixture('warp-verify')
    const expiry = BigInt(devnet.network.primary.pchain.timestamp + 3600)
    const payload = encodeRegisterL1Validator({ subnetId: idFromString(a.subnetId), nodeId: bytes20('warp-verify'), blsPublicKey: bls.publicKey, expiry, remainingBalanceOwner: { threshold: 1, addrs: [c.addr] }, disableOwner: { threshold: 1, addrs: [c.addr] }, weight })
    const unsigned = encodeUnsignedMessage({ networkId: devnet.network.preset.networkId, sourceChainId: idFromString(a.blockchainId), payload: encodeAddressedCall(Buffer.from(MANAGER.slice(2), 'hex'), payload) })
    return { bls, payload, unsigned }
  }

  /** Issues the tx carrying `message` through avalanchejs and expects `error`, the validator absent and no UTXO spent. */
  async function refused(message: Uint8Array, payload: Uint8Array, error: string) {
    const before = await utxoIds(c)
    const tx = pvm.newRegisterL1ValidatorTx({ ...(await common(c)), balance: AVAX, blsSignature: blsFixture('warp-verify').signature, message }, c.context)
    await expect(signAndIssue(c, tx)).rejects.toThrow(`couldn't issue tx: failed verification: failed verifying warp messages: ${error}`)
    await expect(platform(devnet.url, 'getL1Validator', { validationID: showId(registerValidationId(payload)) })).rejects.toThrow()
    expect(await utxoIds(c)).toEqual(before)
  }

  it('signed by one validator of three: under quorum', async () => {
    const { unsigned, payload } = register(50n)
    await refused(devnet.network.signWarpMessage(unsigned, { signers: [0] }), payload, 'signature weight is insufficient: 67*300 > 100*100')
  })

  it('signed by another subnet\'s validators (the four of L1 B for a message from L1 A)', async () => {
    const { unsigned, payload } = register(50n)
    await refused(devnet.network.signWarpMessage(unsigned, { subnetId: b.subnetId }), payload, 'unknown validator: NumIndices (3) >= NumFilteredValidators (3)')
  })

  it('tampered bytes: the weight changed after signing', async () => {
    const signed = parseMessage(devnet.network.signWarpMessage(register(50n).unsigned))
    const { unsigned, payload } = register(5000n)
    await refused(encodeMessage(unsigned, signed.signature), payload, 'signature is invalid')
  })

  it('from another L1\'s chain, signed by that L1: passes the signature check, refused as not from the manager', async () => {
    const { payload } = register(50n)
    const unsigned = encodeUnsignedMessage({ networkId: devnet.network.preset.networkId, sourceChainId: idFromString(b.blockchainId), payload: encodeAddressedCall(Buffer.from(MANAGER.slice(2), 'hex'), payload) })
    const before = await utxoIds(c)
    const tx = pvm.newRegisterL1ValidatorTx({ ...(await common(c)), balance: AVAX, blsSignature: blsFixture('warp-verify').signature, message: devnet.network.signWarpMessage(unsigned) }, c.context)
    await expect(signAndIssue(c, tx)).rejects.toThrow(new RegExp(`^couldn't issue tx: failed verification: failed execution: standard tx \\w+ failed execution: wrong warp message source chain ID expected ${a.blockchainId} but had ${b.blockchainId}$`))
    expect(await utxoIds(c)).toEqual(before)
  })

  it('SetL1ValidatorWeightTx signed by one validator of three: under quorum, the weight unchanged', async () => {
    const validationId = devnet.network.primary.pchain.state.l1ValidatorsOf(a.subnetId)[0]!.validationId
    const payload = encodeL1ValidatorWeight({ validationId: idFromString(validationId), nonce: 0n, weight: 7n })
    const unsigned = encodeUnsignedMessage({ networkId: devnet.network.preset.networkId, sourceChainId: idFromString(a.blockchainId), payload: encodeAddressedCall(Buffer.from(MANAGER.slice(2), 'hex'), payload) })
    const tx = pvm.newSetL1ValidatorWeightTx({ ...(await common(c)), message: devnet.network.signWarpMessage(unsigned, { signers: [2] }) }, c.context)
    await expect(signAndIssue(c, tx)).rejects.toThrow('couldn\'t issue tx: failed verification: failed verifying warp messages: signature weight is insufficient: 67*300 > 100*100')
    expect(await platform(devnet.url, 'getL1Validator', { validationID: validationId })).toMatchObject({ weight: '100', minNonce: '0' })
  })

  it('signed by the L1 (all three): accepted', async () => {
    const { unsigned, payload } = register(50n)
    const tx = pvm.newRegisterL1ValidatorTx({ ...(await common(c)), balance: AVAX, blsSignature: blsFixture('warp-verify').signature, message: devnet.network.signWarpMessage(unsigned) }, c.context)
    await signAndIssue(c, tx)
    expect(await platform(devnet.url, 'getL1Validator', { validationID: showId(registerValidationId(payload)) })).toMatchObject({ subnetID: a.subnetId, weight: '50' })
  })
})

describe('well-signed messages the executor refuses: expiry, replay, stale nonce', () => {
  let c: PClient
  let a: { subnetId: string; blockchainId: string }
  beforeAll(async () => {
    c = await pClient(devnet.url, devnet.network.devAccounts[6]!.privateKey)
    a = convertedL1(6, 'warp-c', [0, 1, 2])
  })
  const signed = (payload: Uint8Array) => devnet.network.signWarpMessage(encodeUnsignedMessage({ networkId: devnet.network.preset.networkId, sourceChainId: idFromString(a.blockchainId), payload: encodeAddressedCall(Buffer.from(MANAGER.slice(2), 'hex'), payload) }))
  const registration = (seed: string, expiry: bigint) => encodeRegisterL1Validator({ subnetId: idFromString(a.subnetId), nodeId: bytes20(seed), blsPublicKey: blsFixture(seed).publicKey, expiry, remainingBalanceOwner: { threshold: 1, addrs: [c.addr] }, disableOwner: { threshold: 1, addrs: [c.addr] }, weight: 10n })
  const issueRegister = async (seed: string, payload: Uint8Array) =>
    signAndIssue(c, pvm.newRegisterL1ValidatorTx({ ...(await common(c)), balance: AVAX, blsSignature: blsFixture(seed).signature, message: signed(payload) }, c.context))
  const executorError = (text: string) => new RegExp(`^couldn't issue tx: failed verification: failed execution: standard tx \\w+ failed execution: ${text}$`)

  it('an expired registration, and one more than 24 h ahead', async () => {
    const now = BigInt(devnet.network.primary.pchain.timestamp)
    await expect(issueRegister('warp-expired', registration('warp-expired', now))).rejects.toThrow(executorError('warp message expired at \\d+ and it is currently \\d+'))
    await expect(issueRegister('warp-ahead', registration('warp-ahead', now + 90_000n))).rejects.toThrow(executorError('warp message not yet allowed because time is \\d+ seconds in the future but the limit is 86400'))
  })

  it('a RegisterL1ValidatorTx carrying a weight payload', async () => {
    const payload = encodeL1ValidatorWeight({ validationId: new Uint8Array(32).fill(3), nonce: 0n, weight: 1n })
    await expect(issueRegister('warp-type', payload)).rejects.toThrow(executorError('wrong payload type: \\*message\\.L1ValidatorWeight'))
  })

  it('a registration replayed once accepted', async () => {
    const payload = registration('warp-replay', BigInt(devnet.network.primary.pchain.timestamp + 3600))
    await issueRegister('warp-replay', payload)
    const id = showId(registerValidationId(payload))
    await expect(issueRegister('warp-replay', payload)).rejects.toThrow(executorError(`warp message already issued for validationID ${id}`))
    expect(devnet.network.primary.pchain.state.l1ValidatorsOf(a.subnetId)).toHaveLength(4)
  })

  it('a weight message replayed with its used nonce', async () => {
    const validationId = devnet.network.primary.pchain.state.l1ValidatorsOf(a.subnetId)[0]!.validationId
    const payload = encodeL1ValidatorWeight({ validationId: idFromString(validationId), nonce: 0n, weight: 120n })
    const issueWeight = async () => signAndIssue(c, pvm.newSetL1ValidatorWeightTx({ ...(await common(c)), message: signed(payload) }, c.context))
    await issueWeight()
    await expect(issueWeight()).rejects.toThrow(executorError('warp message contains stale nonce 0 must be at least 1'))
    expect(await platform(devnet.url, 'getL1Validator', { validationID: validationId })).toMatchObject({ weight: '120', minNonce: '1' })
  })
})
