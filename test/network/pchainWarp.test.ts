/**
 * The P-chain's ACP-118 signing rules (avalanchego `vms/platformvm/network/warp.go`): which
 * SubnetToL1Conversion, L1ValidatorRegistration and L1ValidatorWeight messages its validators sign
 * for which justification, each refusal's code and text, and that what they sign verifies against
 * the L1's own validator set (as the L1's warp precompile checks P-chain messages).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { hexToBytes } from '@ethereumjs/util'
import { idFromString, idToString } from '../../src/core/ids.js'
import { encodeAddressedCall, encodeUnsignedMessage, parseAddressedCall, parseMessage } from '../../src/evm/warp/codec.js'
import { canonicalValidatorSet, verifyWarpMessage } from '../../src/evm/warp/signature.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { pchainWarpMessage, PChainWarpRefusal, signPChainWarpMessage } from '../../src/network/pchainWarp.js'
import { conversionValidationId, encodeL1ValidatorRegistration, encodeL1ValidatorWeight, encodeRegisterL1Validator, encodeSubnetToL1Conversion, registerValidationId } from '../../src/platform/pchain/warpMessages.js'
import { testGenesis } from '../l1/helpers.js'

let network: Network
let subnetId: string
let conversionId: string
let validationId: string
const MANAGER = '0x0000000000000000000000000000000000000abc'
const AVAX = 1_000_000_000n

beforeAll(async () => {
  network = await createNetwork({ nodes: 4 })
  const { p } = network.wallets(1)!
  subnetId = p.createSubnet().subnetId
  const { blockchainId } = p.createChain({ subnetId, name: 'warp-l1', vmId: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy', genesis: JSON.stringify(testGenesis()) })
  const validators = [0, 1].map((i) => ({ node: network.nodes[i]!.identity, weight: 100n, balance: AVAX }))
  p.convertSubnetToL1({ subnetId, chainId: blockchainId, address: MANAGER, validators })
  conversionId = network.primary.pchain.state.getSubnet(subnetId)!.conversion!.conversionId
  validationId = p.registerL1Validator({ subnetId, node: network.nodes[2]!.identity, weight: 50n, balance: AVAX }).validationId
})

const sid = () => idFromString(subnetId)
const refusal = (unsigned: Uint8Array, justification: Uint8Array = new Uint8Array(0)) => {
  try {
    signPChainWarpMessage(network, unsigned, justification)
  } catch (e) {
    if (e instanceof PChainWarpRefusal) return { code: e.code, message: e.shortMessage }
    throw e
  }
  throw new Error('signed')
}
/** protobuf: field `num` length-delimited. */
const pbBytes = (num: number, b: Uint8Array) => Uint8Array.from([(num << 3) | 2, ...(b.length < 128 ? [b.length] : [(b.length & 127) | 128, b.length >> 7]), ...b])
const expectSignedByL1 = (signed: Uint8Array) =>
  expect(verifyWarpMessage({ message: signed, networkId: network.preset.networkId, validators: canonicalValidatorSet(network.validators.get(subnetId)) })).toBeUndefined()

describe('P-chain warp messages (ACP-118 signing rules)', () => {
  it('SubnetToL1Conversion: signed for the subnet id when the conversion id matches, by the L1 validators', () => {
    const unsigned = pchainWarpMessage(network, encodeSubnetToL1Conversion(idFromString(conversionId)))
    const signed = signPChainWarpMessage(network, unsigned, sid())
    expectSignedByL1(signed)
    // Every L1 validator signed (all of the weight), none of the primary network's others.
    expect(verifyWarpMessage({ message: signed, networkId: network.preset.networkId, validators: canonicalValidatorSet(network.validators.get(subnetId)), quorumNumerator: 100 })).toBeUndefined()
    const wrong = pchainWarpMessage(network, encodeSubnetToL1Conversion(sid()))
    expect(refusal(wrong, sid())).toEqual({ code: 7, message: `provided conversionID "${subnetId}" != expected conversionID "${conversionId}"` })
    expect(refusal(unsigned, new Uint8Array(31))).toEqual({ code: 5, message: 'failed to parse justification: invalid hash length: expected 32 bytes but got 31' })
    const other = network.wallets(1)!.p.createSubnet().subnetId
    expect(refusal(unsigned, idFromString(other))).toEqual({ code: 6, message: `subnet "${other}" has not been converted` })
  })

  it('refuses a source address, a foreign source chain, a payload that is not a P-chain message, a RegisterL1Validator', () => {
    const payload = encodeSubnetToL1Conversion(idFromString(conversionId))
    const withAddress = encodeUnsignedMessage({ networkId: network.preset.networkId, sourceChainId: new Uint8Array(32), payload: encodeAddressedCall(new Uint8Array(20), payload) })
    expect(refusal(withAddress, sid())).toEqual({ code: 2, message: 'source address should be empty' })
    const fromC = encodeUnsignedMessage({ networkId: network.preset.networkId, sourceChainId: idFromString(network.preset.cChainId), payload: encodeAddressedCall(new Uint8Array(0), payload) })
    expect(refusal(fromC, sid())).toEqual({ code: -1, message: 'failed to sign message: wrong SourceChainID' })
    expect(refusal(pchainWarpMessage(network, Uint8Array.from([0, 0, 0, 0, 0, 9])))).toEqual({ code: 3, message: 'failed to parse warp addressed call payload: couldn\'t unmarshal interface: unknown type ID 9' })
    const register = encodeRegisterL1Validator({ subnetId: sid(), nodeId: new Uint8Array(20).fill(1), blsPublicKey: hexToBytes(network.nodes[3]!.identity.blsPublicKey), expiry: 1n, remainingBalanceOwner: { threshold: 0, addrs: [] }, disableOwner: { threshold: 0, addrs: [] }, weight: 1n })
    expect(refusal(pchainWarpMessage(network, register))).toEqual({ code: 4, message: 'unsupported warp addressed call payload type: *message.RegisterL1Validator' })
  })

  it('L1ValidatorRegistration registered: only for a current validator', () => {
    expectSignedByL1(signPChainWarpMessage(network, pchainWarpMessage(network, encodeL1ValidatorRegistration(idFromString(validationId), true)), new Uint8Array(0)))
    const absent = idToString(new Uint8Array(32).fill(7))
    expect(refusal(pchainWarpMessage(network, encodeL1ValidatorRegistration(idFromString(absent), true)))).toEqual({ code: 11, message: `validation "${absent}" does not exist` })
  })

  it('L1ValidatorRegistration not registered: justified by the RegisterL1Validator message once it expired or was removed, or by the conversion index', () => {
    const { p } = network.wallets(1)!
    const now = network.primary.pchain.state.timestamp
    const message = (expiry: number) => encodeRegisterL1Validator({ subnetId: sid(), nodeId: new Uint8Array(20).fill(9), blsPublicKey: hexToBytes(network.nodes[3]!.identity.blsPublicKey), expiry: BigInt(expiry), remainingBalanceOwner: { threshold: 0, addrs: [] }, disableOwner: { threshold: 0, addrs: [] }, weight: 10n })
    const notRegistered = (id: Uint8Array) => pchainWarpMessage(network, encodeL1ValidatorRegistration(id, false))
    const idOf = (payload: Uint8Array) => idToString(registerValidationId(payload))
    // Never issued and still issuable: refused; expired: signed.
    const pending = message(now + 600)
    expect(refusal(notRegistered(registerValidationId(pending)), pbBytes(2, pending))).toEqual({ code: 14, message: `validation "${idOf(pending)}" can be registered until ${now + 600}` })
    const expired = message(now)
    expectSignedByL1(signPChainWarpMessage(network, notRegistered(registerValidationId(expired)), pbBytes(2, expired)))
    // The justification must be the message of that validation id, and be there.
    expect(refusal(notRegistered(registerValidationId(pending)), pbBytes(2, expired))).toEqual({ code: 10, message: `validationID "${idOf(pending)}" != justificationID "${idOf(expired)}"` })
    expect(refusal(notRegistered(registerValidationId(pending)), new Uint8Array(0))).toEqual({ code: 8, message: 'invalid justification type: <nil>' })
    expect(refusal(notRegistered(registerValidationId(pending)), Uint8Array.from([0x12, 5, 1]))).toEqual({ code: 5, message: 'failed to parse justification: proto: cannot parse invalid wire-format data' })
    // Registered (refused: it exists), then removed by weight 0: signed although its expiry is still ahead.
    const built = p.buildRegisterL1Validator({ subnetId, node: network.nodes[3]!.identity, weight: 20n, balance: AVAX, expiry: now + 900 })
    const registered = parseAddressedCall(parseMessage((built.tx.unsigned as { message: Uint8Array }).message).unsigned.payload).payload
    network.primary.pchain.issueTx(built.tx)
    const removedId = idFromString(built.validationId)
    expect(refusal(notRegistered(removedId), pbBytes(2, registered))).toEqual({ code: 12, message: `validation "${built.validationId}" exists` })
    p.setL1ValidatorWeight({ validationId: built.validationId, weight: 0n })
    expectSignedByL1(signPChainWarpMessage(network, notRegistered(removedId), pbBytes(2, registered)))
    // A conversion validator: `exists` while it validates; the index must give its validation id.
    const index = (i: number) => pbBytes(1, Uint8Array.from([10, 32, ...sid(), 16, i]))
    const first = conversionValidationId(sid(), 0)
    expect(refusal(notRegistered(first), index(0))).toEqual({ code: 12, message: `validation "${idToString(first)}" exists` })
    expect(refusal(notRegistered(first), index(1))).toEqual({ code: 10, message: `validationID "${idToString(first)}" != justificationID "${idToString(conversionValidationId(sid(), 1))}"` })
  })

  it('signs with the connected validators of the signing subnet; below the quorum asked, refuses', () => {
    const unsigned = pchainWarpMessage(network, encodeSubnetToL1Conversion(idFromString(conversionId)))
    network.faults.disconnectNode(1)
    try {
      // Nodes 0 (100) and 2 (50) of 250 validate: 60%.
      const signed = signPChainWarpMessage(network, unsigned, sid(), undefined, 60)
      expect(verifyWarpMessage({ message: signed, networkId: network.preset.networkId, validators: canonicalValidatorSet(network.validators.get(subnetId)) })).toBe('cannot verify warp signature: signature weight is insufficient: 67*250 > 100*150')
      expect(() => signPChainWarpMessage(network, unsigned, sid(), undefined, 67)).toThrow(`failed to collect a threshold of signatures: 150 of 250 weight of subnet ${subnetId} signed, 67% needed`)
    } finally {
      network.faults.connectNode(1)
    }
  })

  it('L1ValidatorWeight: signed when nonce + 1 == MinNonce and the weight is current', () => {
    const { p } = network.wallets(1)!
    p.setL1ValidatorWeight({ validationId, weight: 60n })
    const weight = (nonce: bigint, w: bigint) => pchainWarpMessage(network, encodeL1ValidatorWeight({ validationId: idFromString(validationId), nonce, weight: w }))
    expectSignedByL1(signPChainWarpMessage(network, weight(0n, 60n), new Uint8Array(0)))
    expect(refusal(weight(1n, 60n))).toEqual({ code: 16, message: 'provided nonce 1 != expected nonce (1 - 1)' })
    expect(refusal(weight(0n, 50n))).toEqual({ code: 17, message: 'provided weight 50 != expected weight 60' })
    expect(refusal(weight((1n << 64n) - 1n, 60n))).toEqual({ code: 15, message: 'impossible nonce' })
  })
})
