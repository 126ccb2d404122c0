import { BaseError, InvalidStateError } from '../core/errors.js'
import { idToString } from '../core/ids.js'
import { encodeAddressedCall, encodeMessage, encodeUnsignedMessage, parseAddressedCall, parseUnsignedMessage } from '../evm/warp/codec.js'
import { signMessage } from '../evm/warp/signature.js'
import { conversionValidationId, parsePChainWarpPayload, parseRegisterL1Validator, registerValidationId, type PChainWarpPayload } from '../platform/pchain/warpMessages.js'
import type { PChainState } from '../platform/pchain/state.js'
import type { Network } from './network.js'
import { hexToBlsKey } from './validators.js'

/**
 * The P-chain's side of ACP-118 (avalanchego `vms/platformvm/network/warp.go`): which of its
 * ACP-77 messages (`SubnetToL1Conversion`, `L1ValidatorRegistration`, `L1ValidatorWeight`) a node
 * agrees to sign for a justification, with the node's AppError codes and texts, and signing them
 * with the simulated validators of the subnet the message concerns.
 */

/** `network/warp.go`'s AppError codes (`common.ErrUndefined` is 0, `p2p.ErrUnexpected` -1). */
export const PCHAIN_WARP_ERROR_CODES = {
  unexpected: -1,
  failedToParseWarpAddressedCall: 1,
  warpAddressedCallHasSourceAddress: 2,
  failedToParseWarpAddressedCallPayload: 3,
  unsupportedWarpAddressedCallPayloadType: 4,
  failedToParseJustification: 5,
  conversionDoesNotExist: 6,
  mismatchedConversionID: 7,
  invalidJustificationType: 8,
  failedToParseSubnetID: 9,
  mismatchedValidationID: 10,
  validationDoesNotExist: 11,
  validationExists: 12,
  failedToParseRegisterL1Validator: 13,
  validationCouldBeRegistered: 14,
  impossibleNonce: 15,
  wrongNonce: 16,
  wrongWeight: 17,
} as const

/** A P-chain node's refusal to sign (`*common.AppError`): `code` and `shortMessage` are the node's. */
export class PChainWarpRefusal extends BaseError {
  override name = 'PChainWarpRefusal'
  constructor(readonly code: number, message: string) {
    super(message)
  }
}

const refuse = (code: keyof typeof PCHAIN_WARP_ERROR_CODES, message: string) => new PChainWarpRefusal(PCHAIN_WARP_ERROR_CODES[code], message)
const q = (id: Uint8Array | string) => `"${typeof id === 'string' ? id : idToString(id)}"`
const errText = (e: unknown) => (e instanceof BaseError ? e.shortMessage : e instanceof Error ? e.message : String(e))

/** `ids.ToID`'s error for a slice that is not 32 bytes long. */
function toId(b: Uint8Array, code: 'failedToParseJustification' | 'failedToParseSubnetID', prefix: string): string {
  if (b.length !== 32) throw refuse(code, `${prefix}: invalid hash length: expected 32 bytes but got ${b.length}`)
  return idToString(b)
}

/** The P-chain's unsigned message carrying `payload`: source chain the P-chain (32 zero bytes), an AddressedCall with an empty source address. */
export function pchainWarpMessage(network: Network, payload: Uint8Array): Uint8Array {
  return encodeUnsignedMessage({ networkId: network.preset.networkId, sourceChainId: new Uint8Array(32), payload: encodeAddressedCall(new Uint8Array(0), payload) })
}

/**
 * `signatureRequestVerifier.Verify` then `warp.Signer.Sign`: throws the node's
 * {@link PChainWarpRefusal} when it would not sign `unsigned` for `justification`; otherwise
 * returns the subnet (cb58) the message concerns, whose validators sign it.
 */
export function verifyPChainWarpRequest(network: Network, unsigned: Uint8Array, justification: Uint8Array): string {
  let message
  try {
    message = parseUnsignedMessage(unsigned)
  } catch (e) {
    throw refuse('unexpected', `failed to parse warp unsigned message: ${errText(e)}`)
  }
  let call
  try {
    call = parseAddressedCall(message.payload)
  } catch (e) {
    throw refuse('failedToParseWarpAddressedCall', `failed to parse warp addressed call: ${errText(e)}`)
  }
  if (call.sourceAddress.length !== 0) throw refuse('warpAddressedCallHasSourceAddress', 'source address should be empty')
  let payload: PChainWarpPayload
  try {
    payload = parsePChainWarpPayload(call.payload)
  } catch (e) {
    throw refuse('failedToParseWarpAddressedCallPayload', `failed to parse warp addressed call payload: ${errText(e)}`)
  }
  const state = network.primary.pchain.state
  let subnetId: string
  switch (payload.type) {
    case 'SubnetToL1Conversion': subnetId = verifyConversion(state, payload.conversionId, justification); break
    case 'L1ValidatorRegistration': subnetId = verifyRegistration(state, payload.validationId, payload.registered, justification); break
    case 'L1ValidatorWeight': subnetId = verifyWeight(state, payload); break
    default: throw refuse('unsupportedWarpAddressedCallPayloadType', 'unsupported warp addressed call payload type: *message.RegisterL1Validator')
  }
  // The signer's own checks come after the verifier's, as the handler runs them.
  if (message.sourceChainId.some((b) => b !== 0)) throw refuse('unexpected', 'failed to sign message: wrong SourceChainID')
  if (message.networkId !== network.preset.networkId) throw refuse('unexpected', 'failed to sign message: wrong networkID')
  return subnetId
}

function verifyConversion(state: PChainState, conversionId: Uint8Array, justification: Uint8Array): string {
  const subnetId = toId(justification, 'failedToParseJustification', 'failed to parse justification')
  const conversion = state.getSubnet(subnetId)?.conversion
  if (!conversion) throw refuse('conversionDoesNotExist', `subnet ${q(subnetId)} has not been converted`)
  if (idToString(conversionId) !== conversion.conversionId)
    throw refuse('mismatchedConversionID', `provided conversionID ${q(conversionId)} != expected conversionID ${q(conversion.conversionId)}`)
  return subnetId
}

function verifyRegistration(state: PChainState, validationId: Uint8Array, registered: boolean, justification: Uint8Array): string {
  const id = idToString(validationId)
  if (registered) {
    const v = state.getL1Validator(id)
    if (!v) throw refuse('validationDoesNotExist', `validation ${q(id)} does not exist`)
    return v.subnetId
  }
  const preimage = parseRegistrationJustification(justification)
  if (preimage.kind === 'conversion') {
    const subnetId = toId(preimage.subnetId, 'failedToParseSubnetID', 'failed to parse subnetID')
    const justificationId = idToString(conversionValidationId(preimage.subnetId, preimage.index))
    if (id !== justificationId) throw refuse('mismatchedValidationID', `validationID ${q(id)} != justificationID ${q(justificationId)}`)
    if (!state.getSubnet(subnetId)?.conversion) throw refuse('conversionDoesNotExist', `subnet ${q(subnetId)} has not been converted`)
    if (state.getL1Validator(id)) throw refuse('validationExists', `validation ${q(id)} exists`)
    return subnetId
  }
  let register
  try {
    register = parseRegisterL1Validator(preimage.message)
  } catch (e) {
    throw refuse('failedToParseRegisterL1Validator', `failed to parse RegisterL1Validator justification: ${errText(e)}`)
  }
  const justificationId = idToString(registerValidationId(preimage.message))
  if (id !== justificationId) throw refuse('mismatchedValidationID', `validationID ${q(id)} != justificationID ${q(justificationId)}`)
  if (state.getL1Validator(id)) throw refuse('validationExists', `validation ${q(id)} exists`)
  // Expired: it can never be registered. Not expired: only if it was registered and since removed.
  if (register.expiry > BigInt(state.timestamp) && !state.hasExpiry(`${register.expiry}/${id}`))
    throw refuse('validationCouldBeRegistered', `validation ${q(id)} can be registered until ${register.expiry}`)
  return idToString(register.subnetId)
}

function verifyWeight(state: PChainState, msg: { validationId: Uint8Array; nonce: bigint; weight: bigint }): string {
  if (msg.nonce === (1n << 64n) - 1n) throw refuse('impossibleNonce', 'impossible nonce')
  const id = idToString(msg.validationId)
  const v = state.getL1Validator(id)
  if (!v) throw refuse('validationDoesNotExist', `validation ${q(id)} does not exist`)
  if (msg.nonce + 1n !== v.minNonce) throw refuse('wrongNonce', `provided nonce ${msg.nonce} != expected nonce (${v.minNonce} - 1)`)
  if (msg.weight !== v.weight) throw refuse('wrongWeight', `provided weight ${msg.weight} != expected weight ${v.weight}`)
  return v.subnetId
}

export type RegistrationPreimage = { kind: 'conversion'; subnetId: Uint8Array; index: number } | { kind: 'register'; message: Uint8Array }

const BAD_WIRE = 'failed to parse justification: proto: cannot parse invalid wire-format data'

/** `platformvm.L1ValidatorRegistrationJustification` (protobuf): oneof `convert_subnet_to_l1_tx_data` = 1 (SubnetIDIndex), `register_l1_validator_message` = 2. */
function parseRegistrationJustification(b: Uint8Array): RegistrationPreimage {
  let out: RegistrationPreimage | undefined
  for (const f of protoFields(b, BAD_WIRE)) {
    if (f.num === 1 && f.bytes) {
      let subnetId: Uint8Array = new Uint8Array(0)
      let index = 0
      for (const g of protoFields(f.bytes, BAD_WIRE)) {
        if (g.num === 1 && g.bytes) subnetId = g.bytes
        else if (g.num === 2 && g.varint !== undefined) index = Number(g.varint & 0xffffffffn)
      }
      out = { kind: 'conversion', subnetId, index }
    } else if (f.num === 2 && f.bytes) out = { kind: 'register', message: f.bytes }
  }
  if (!out) throw refuse('invalidJustificationType', 'invalid justification type: <nil>')
  return out
}

/**
 * An `L1ValidatorRegistrationJustification` as a relayer writes it for a not-registered message:
 * the RegisterL1Validator payload (field 2), or the conversion's subnet id and validator index
 * (field 1, `SubnetIDIndex`).
 */
export function encodeRegistrationJustification(preimage: RegistrationPreimage): Uint8Array {
  const field = (num: number, body: Uint8Array) => [...protoVarint(BigInt((num << 3) | 2)), ...protoVarint(BigInt(body.length)), ...body]
  if (preimage.kind === 'register') return Uint8Array.from(field(2, preimage.message))
  const inner = [...field(1, preimage.subnetId), ...(preimage.index === 0 ? [] : [0x10, ...protoVarint(BigInt(preimage.index))])]
  return Uint8Array.from(field(1, Uint8Array.from(inner)))
}

function protoVarint(v: bigint): number[] {
  const out: number[] = []
  do {
    const low = Number(v & 0x7fn)
    v >>= 7n
    out.push(v === 0n ? low : low | 0x80)
  } while (v !== 0n)
  return out
}

type ProtoField = { num: number; varint?: bigint; bytes?: Uint8Array }

/** The fields of a protobuf message (varint, 64-bit, length-delimited, 32-bit wire types). */
function protoFields(b: Uint8Array, bad: string): ProtoField[] {
  const fields: ProtoField[] = []
  let o = 0
  const varint = () => {
    let v = 0n
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (o >= b.length) throw refuse('failedToParseJustification', bad)
      const x = b[o++]!
      v |= BigInt(x & 0x7f) << shift
      if (x < 0x80) return v
    }
    throw refuse('failedToParseJustification', bad)
  }
  while (o < b.length) {
    const key = varint()
    const num = Number(key >> 3n)
    const wire = Number(key & 7n)
    if (num === 0) throw refuse('failedToParseJustification', bad)
    if (wire === 0) fields.push({ num, varint: varint() })
    else if (wire === 2) {
      const n = Number(varint())
      if (o + n > b.length) throw refuse('failedToParseJustification', bad)
      fields.push({ num, bytes: b.slice(o, o + n) })
      o += n
    } else if (wire === 1 || wire === 5) {
      o += wire === 1 ? 8 : 4
      if (o > b.length) throw refuse('failedToParseJustification', bad)
    } else throw refuse('failedToParseJustification', bad)
  }
  return fields
}

/**
 * Signs a P-chain warp message as a signature aggregator gets it signed: checks it as each P-chain
 * node's ACP-118 handler does ({@link verifyPChainWarpRequest}; its refusal is thrown), then the
 * simulated, connected validators of `signingSubnetId` (default: the subnet the message concerns,
 * as the L1 verifying it checks) sign and the signatures are aggregated. With `quorum` (percent),
 * throws when the signers' weight falls short of it. Returns the signed message bytes.
 */
export function signPChainWarpMessage(network: Network, unsigned: Uint8Array, justification: Uint8Array, signingSubnetId?: string, quorum?: number): Uint8Array {
  const concerned = verifyPChainWarpRequest(network, unsigned, justification)
  const subnetId = signingSubnetId ?? concerned
  const validators = network.validators.get(subnetId)
  const set = network.validators.canonical(subnetId)
  const validating = new Set(validators.map((v) => v.nodeId))
  const signers = network.nodes.filter((n, i) => validating.has(n.nodeId) && !network.faults.isDisconnected(i))
  const byNode = new Map(validators.map((v) => [v.nodeId, v.weight]))
  const signed = signers.reduce((sum, n) => sum + (byNode.get(n.nodeId) ?? 0n), 0n)
  // Percent with two decimals, compared in integers (quorum 66.67 → signed * 10000 ≥ 6667 * total).
  const needed = quorum === undefined ? 0n : BigInt(Math.round(quorum * 100))
  if (signers.length === 0 || signed * 10_000n < needed * set.totalWeight)
    throw new InvalidStateError(`failed to collect a threshold of signatures: ${signed} of ${set.totalWeight} weight of subnet ${subnetId} signed${quorum === undefined ? '' : `, ${quorum}% needed`}`)
  return encodeMessage(unsigned, signMessage(unsigned, signers.map((n) => ({ blsSecretKey: n.identity.blsSecretKey, blsPublicKeyBytes: hexToBlsKey(n.identity.blsPublicKey) })), set))
}
