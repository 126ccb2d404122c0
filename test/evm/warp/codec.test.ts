// Byte layouts of warp payloads and messages, checked against avalanchego's own test vectors.
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import {
  bitSetContains,
  bitSetCount,
  bitSetFromIndexes,
  bitSetLength,
  encodeAddressedCall,
  encodeHashPayload,
  encodeMessage,
  encodeUnsignedMessage,
  isMinimalBitSet,
  MAX_PAYLOAD_SIZE,
  messageId,
  parseAddressedCall,
  parseHashPayload,
  parseMessage,
  parsePayload,
  parseUnsignedMessage,
} from '../../../src/evm/warp/codec.js'
import { bytes32 } from './helpers.js'

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const fromHex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'))

describe('payloads', () => {
  it('AddressedCall matches avalanchego TestAddressedCallBytes', () => {
    const source = new Uint8Array(16)
    source.set([1, 2, 3])
    const bytes = encodeAddressedCall(source, new Uint8Array([10, 11, 12]))
    expect(b64(bytes)).toBe('AAAAAAABAAAAEAECAwAAAAAAAAAAAAAAAAAAAAADCgsM')
    expect(parseAddressedCall(bytes)).toEqual({ type: 'addressedCall', sourceAddress: source, payload: new Uint8Array([10, 11, 12]) })
  })

  it('Hash matches avalanchego TestHashBytes', () => {
    const hash = new Uint8Array(32)
    hash.set([4, 5, 6])
    const bytes = encodeHashPayload(hash)
    expect(b64(bytes)).toBe('AAAAAAAABAUGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=')
    expect(parseHashPayload(bytes)).toEqual({ type: 'hash', hash })
  })

  it('rejects junk, wrong types and trailing bytes with the Go texts', () => {
    const junk = new Uint8Array([0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88])
    expect(() => parsePayload(junk)).toThrow(/^unknown codec version$/)
    expect(() => parsePayload(new Uint8Array([0]))).toThrow("couldn't unpack codec version")
    expect(() => parsePayload(new Uint8Array([0, 0, 0, 0]))).toThrow(
      "couldn't unmarshal interface: packer has insufficient length for input",
    )
    expect(() => parsePayload(fromHex('000000000007'))).toThrow("couldn't unmarshal interface: unknown type ID 7")
    const hash = encodeHashPayload(bytes32('h'))
    const call = encodeAddressedCall(new Uint8Array(20), new Uint8Array([1]))
    expect(() => parseAddressedCall(hash)).toThrow('wrong payload type: *payload.Hash')
    expect(() => parseHashPayload(call)).toThrow('wrong payload type: *payload.AddressedCall')
    expect(() => parsePayload(new Uint8Array([...call, 0, 0]))).toThrow(
      `trailing buffer space: read ${call.length} provided ${call.length + 2}`,
    )
    expect(() => parsePayload(call.subarray(0, call.length - 1))).toThrow(/^packer has insufficient length for input$/)
    expect(() => parsePayload(hash.subarray(0, 10))).toThrow(/^packer has insufficient length for input$/)
  })

  it('enforces the 24 KiB payload codec limit on both sides', () => {
    // 2 version + 4 type + 4 + 20 + 4 = 34 bytes of overhead.
    expect(encodeAddressedCall(new Uint8Array(20), new Uint8Array(MAX_PAYLOAD_SIZE - 34)).length).toBe(MAX_PAYLOAD_SIZE)
    expect(() => encodeAddressedCall(new Uint8Array(20), new Uint8Array(MAX_PAYLOAD_SIZE - 33))).toThrow(
      "couldn't marshal *payload.AddressedCall payload: packer has insufficient length for input",
    )
    expect(() => parsePayload(new Uint8Array(MAX_PAYLOAD_SIZE + 1))).toThrow(
      `byte array exceeds maximum length: ${MAX_PAYLOAD_SIZE + 1} > ${MAX_PAYLOAD_SIZE}`,
    )
  })
})

describe('unsigned and signed messages', () => {
  const sourceChainId = bytes32('chain')
  const unsigned = { networkId: 369, sourceChainId, payload: new TextEncoder().encode('payload') }

  it('lays out the unsigned message as codec ‖ networkID ‖ chain ‖ len ‖ payload (42 + n bytes)', () => {
    const bytes = encodeUnsignedMessage(unsigned)
    expect(bytes.length).toBe(42 + 7)
    expect(hex(bytes)).toBe(`0000` + `00000171` + hex(sourceChainId) + `00000007` + hex(unsigned.payload))
    expect(parseUnsignedMessage(bytes)).toEqual(unsigned)
    expect(messageId(bytes)).toEqual(sha256(bytes))
  })

  it('a signed message is the unsigned bytes, type id 0, signers, 96-byte signature', () => {
    const unsignedBytes = encodeUnsignedMessage(unsigned)
    const signature = { signers: new Uint8Array([1, 2, 3]), signature: new Uint8Array(96).fill(4, 0, 1) }
    const bytes = encodeMessage(unsigned, signature)
    expect(hex(bytes)).toBe(hex(unsignedBytes) + '00000000' + '00000003010203' + hex(signature.signature))
    const parsed = parseMessage(bytes)
    expect(parsed.unsigned).toEqual(unsigned)
    expect(parsed.unsignedBytes).toEqual(unsignedBytes)
    expect(parsed.signature).toEqual(signature)
    expect(parsed.bytes).toEqual(bytes)
    expect(encodeMessage(unsignedBytes, signature)).toEqual(bytes)
  })

  it('parse errors carry the Go texts', () => {
    const junk = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7])
    expect(() => parseUnsignedMessage(junk)).toThrow(/^unknown codec version$/)
    expect(() => parseMessage(junk)).toThrow(/^unknown codec version$/)
    expect(() => parseUnsignedMessage(new Uint8Array([0, 0, 0]))).toThrow(
      "couldn't unmarshal uint32: packer has insufficient length for input",
    )
    const unsignedBytes = encodeUnsignedMessage(unsigned)
    expect(() => parseMessage(unsignedBytes)).toThrow("couldn't unmarshal interface: packer has insufficient length for input")
    expect(() => parseMessage(new Uint8Array([...unsignedBytes, 0, 0, 0, 1]))).toThrow(
      "couldn't unmarshal interface: unknown type ID 1",
    )
    const signed = encodeMessage(unsignedBytes, { signers: new Uint8Array([1]), signature: new Uint8Array(96) })
    expect(() => parseMessage(signed.subarray(0, signed.length - 1))).toThrow(/^packer has insufficient length for input$/)
    expect(() => parseUnsignedMessage(new Uint8Array([...unsignedBytes, 9]))).toThrow(
      `trailing buffer space: read ${unsignedBytes.length} provided ${unsignedBytes.length + 1}`,
    )
    const huge = new Uint8Array(unsignedBytes.subarray(0, 38))
    expect(() => parseUnsignedMessage(new Uint8Array([...huge, 0x80, 0, 0, 0]))).toThrow(
      'max slice length exceeded; array length, 2147483648, exceeds maximum length, 2147483647',
    )
    expect(() => parseUnsignedMessage(new Uint8Array([...huge, 0, 0]))).toThrow(
      "couldn't unmarshal slice: packer has insufficient length for input",
    )
  })
})

describe('signer bit sets', () => {
  it('is big-endian and minimal like big.Int.Bytes', () => {
    expect(bitSetFromIndexes([])).toEqual(new Uint8Array(0))
    expect(bitSetFromIndexes([0])).toEqual(new Uint8Array([1]))
    expect(bitSetFromIndexes([0, 8, 9])).toEqual(new Uint8Array([3, 1]))
    const bits = bitSetFromIndexes([1, 4, 10])
    expect([...Array(12).keys()].filter((i) => bitSetContains(bits, i))).toEqual([1, 4, 10])
    expect(bitSetLength(bits)).toBe(11)
    expect(bitSetCount(bits)).toBe(3)
    expect(isMinimalBitSet(bits)).toBe(true)
    expect(isMinimalBitSet(new Uint8Array([0, 1]))).toBe(false)
    expect(bitSetLength(new Uint8Array([0, 0]))).toBe(0)
  })
})
