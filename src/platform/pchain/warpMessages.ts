import { sha256 } from '../../core/sha256.js'
import { PChainTxError } from './errors.js'

/**
 * The ACP-77 warp payloads the P-chain reads (`vms/platformvm/warp/message`): codec version 0,
 * type ids SubnetToL1Conversion 0, RegisterL1Validator 1, L1ValidatorRegistration 2,
 * L1ValidatorWeight 3. Written here with the linear codec's layout (big-endian, u32 lengths).
 */
export type PChainOwnerBytes = { threshold: number; addrs: Uint8Array[] }

export type RegisterL1ValidatorMessage = {
  subnetId: Uint8Array
  nodeId: Uint8Array
  blsPublicKey: Uint8Array
  expiry: bigint
  remainingBalanceOwner: PChainOwnerBytes
  disableOwner: PChainOwnerBytes
  weight: bigint
}

export type L1ValidatorWeightMessage = { validationId: Uint8Array; nonce: bigint; weight: bigint }

class W {
  parts: number[] = []
  u16(v: number) { this.parts.push((v >> 8) & 255, v & 255) }
  u32(v: number) { this.parts.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255) }
  u64(v: bigint) { for (let i = 7; i >= 0; i--) this.parts.push(Number((v >> BigInt(8 * i)) & 255n)) }
  fixed(b: Uint8Array) { for (const x of b) this.parts.push(x) }
  bytes(b: Uint8Array) { this.u32(b.length); this.fixed(b) }
  owner(o: PChainOwnerBytes) { this.u32(o.threshold); this.u32(o.addrs.length); for (const a of o.addrs) this.fixed(a) }
  out() { return Uint8Array.from(this.parts) }
}

class R {
  o = 0
  constructor(readonly b: Uint8Array) {}
  need(n: number) { if (this.o + n > this.b.length) throw new PChainTxError('invalidMessage', 'packer has insufficient length for input') }
  u16() { this.need(2); const v = (this.b[this.o]! << 8) | this.b[this.o + 1]!; this.o += 2; return v }
  u32() { this.need(4); const v = ((this.b[this.o]! << 24) >>> 0) + (this.b[this.o + 1]! << 16) + (this.b[this.o + 2]! << 8) + this.b[this.o + 3]!; this.o += 4; return v }
  u64() { let v = 0n; for (let i = 0; i < 8; i++) { this.need(1); v = (v << 8n) | BigInt(this.b[this.o++]!) } return v }
  fixed(n: number) { this.need(n); const v = this.b.slice(this.o, this.o + n); this.o += n; return v }
  bytes() { return this.fixed(this.u32()) }
  owner(): PChainOwnerBytes { const threshold = this.u32(); const n = this.u32(); const addrs: Uint8Array[] = []; for (let i = 0; i < n; i++) addrs.push(this.fixed(20)); return { threshold, addrs } }
}

export function encodeRegisterL1Validator(m: RegisterL1ValidatorMessage): Uint8Array {
  const w = new W()
  w.u16(0); w.u32(1)
  w.fixed(m.subnetId); w.bytes(m.nodeId); w.fixed(m.blsPublicKey); w.u64(m.expiry)
  w.owner(m.remainingBalanceOwner); w.owner(m.disableOwner); w.u64(m.weight)
  return w.out()
}

export function encodeL1ValidatorWeight(m: L1ValidatorWeightMessage): Uint8Array {
  const w = new W()
  w.u16(0); w.u32(3); w.fixed(m.validationId); w.u64(m.nonce); w.u64(m.weight)
  return w.out()
}

/** `message.SubnetToL1Conversion` (type 0): the conversion id the P-chain signs for the L1's manager. */
export function encodeSubnetToL1Conversion(conversionId: Uint8Array): Uint8Array {
  const w = new W()
  w.u16(0); w.u32(0); w.fixed(conversionId)
  return w.out()
}

/** `message.L1ValidatorRegistration` (type 2): whether the validation id is (or can never be) a validator. */
export function encodeL1ValidatorRegistration(validationId: Uint8Array, registered: boolean): Uint8Array {
  const w = new W()
  w.u16(0); w.u32(2); w.fixed(validationId); w.parts.push(registered ? 1 : 0)
  return w.out()
}

/** Any of the four payloads, as `message.Parse` reads it (the type id picks the shape). */
export type PChainWarpPayload =
  | { type: 'SubnetToL1Conversion'; conversionId: Uint8Array }
  | ({ type: 'RegisterL1Validator' } & RegisterL1ValidatorMessage)
  | { type: 'L1ValidatorRegistration'; validationId: Uint8Array; registered: boolean }
  | ({ type: 'L1ValidatorWeight' } & L1ValidatorWeightMessage)

/** `message.Parse`: throws with the codec's text (`unknown codec version`, `couldn't unmarshal interface: unknown type ID 9`, `trailing buffer space: …`). */
export function parsePChainWarpPayload(b: Uint8Array): PChainWarpPayload {
  if (b.length < 2) throw new PChainTxError('invalidMessage', 'couldn\'t unpack codec version')
  if (b[0] !== 0 || b[1] !== 0) throw new PChainTxError('invalidMessage', 'unknown codec version')
  if (b.length < 6) throw new PChainTxError('invalidMessage', 'couldn\'t unmarshal interface: packer has insufficient length for input')
  const r = new R(b)
  r.o = 2
  const type = r.u32()
  let out: PChainWarpPayload
  if (type === 0) out = { type: 'SubnetToL1Conversion', conversionId: r.fixed(32) }
  else if (type === 1) out = { type: 'RegisterL1Validator', subnetId: r.fixed(32), nodeId: r.bytes(), blsPublicKey: r.fixed(48), expiry: r.u64(), remainingBalanceOwner: r.owner(), disableOwner: r.owner(), weight: r.u64() }
  else if (type === 2) out = { type: 'L1ValidatorRegistration', validationId: r.fixed(32), registered: readBool(r) }
  else if (type === 3) out = { type: 'L1ValidatorWeight', validationId: r.fixed(32), nonce: r.u64(), weight: r.u64() }
  else throw new PChainTxError('invalidMessage', `couldn't unmarshal interface: unknown type ID ${type}`)
  if (r.o !== b.length) throw new PChainTxError('invalidMessage', `trailing buffer space: read ${r.o} provided ${b.length}`)
  return out
}

function readBool(r: R): boolean {
  const v = r.fixed(1)[0]!
  if (v > 1) throw new PChainTxError('invalidMessage', 'couldn\'t unmarshal bool: unexpected value when unpacking bool')
  return v === 1
}

/** `message.ParseRegisterL1Validator`: another payload type is `wrong payload type: *message.<Type>`. */
export function parseRegisterL1Validator(b: Uint8Array): RegisterL1ValidatorMessage {
  const { type, ...m } = parsePChainWarpPayload(b) as PChainWarpPayload & RegisterL1ValidatorMessage
  if (type !== 'RegisterL1Validator') throw new PChainTxError('invalidMessage', `wrong payload type: *message.${type}`)
  return m
}

/** `message.ParseL1ValidatorWeight`. */
export function parseL1ValidatorWeight(b: Uint8Array): L1ValidatorWeightMessage {
  const { type, ...m } = parsePChainWarpPayload(b) as PChainWarpPayload & L1ValidatorWeightMessage
  if (type !== 'L1ValidatorWeight') throw new PChainTxError('invalidMessage', `wrong payload type: *message.${type}`)
  return { validationId: m.validationId, nonce: m.nonce, weight: m.weight }
}

/** `RegisterL1Validator.ValidationID()`: sha256 of the payload bytes. */
export function registerValidationId(payloadBytes: Uint8Array): Uint8Array {
  return sha256(payloadBytes)
}

/** `ids.ID.Append(index)`: sha256(subnetID ‖ uint32 BE index) — the validation id of a ConvertSubnetToL1Tx validator. */
export function conversionValidationId(subnetId: Uint8Array, index: number): Uint8Array {
  const w = new W()
  w.fixed(subnetId); w.u32(index)
  return sha256(w.out())
}

/** `ids.ID.Prefix(index)`: sha256(uint64 BE index ‖ txID) — a UTXO's input id (the shared-memory key). */
export function utxoInputId(txId: Uint8Array, outputIndex: number): Uint8Array {
  const w = new W()
  w.u64(BigInt(outputIndex)); w.fixed(txId)
  return sha256(w.out())
}
