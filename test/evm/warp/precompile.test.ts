// The warp precompile: dispatch, gas, the SendWarpMessage log and the getVerified* ABI outputs.
import { keccak_256 } from '@noble/hashes/sha3.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { decodeAbiParameters, encodeAbiParameters, encodeFunctionData, parseAbi, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/core/hex.js'
import {
  encodeAddressedCall,
  encodeHashPayload,
  encodeMessage,
  encodeUnsignedMessage,
  parseAddressedCall,
  parseUnsignedMessage,
} from '../../../src/evm/warp/codec.js'
import { packPredicate, verifyPredicates, WARP_ADDRESS, type WarpPredicate } from '../../../src/evm/warp/predicate.js'
import { createWarpPrecompile, SEND_WARP_MESSAGE_TOPIC, WARP_SELECTORS } from '../../../src/evm/warp/precompile.js'
import { canonicalValidatorSet, signMessage, verifyWarpMessage } from '../../../src/evm/warp/signature.js'
import { bytes32, identities, makeCall, validatorInputs } from './helpers.js'

const abi = parseAbi([
  'struct WarpMessage { bytes32 sourceChainID; address originSenderAddress; bytes payload; }',
  'struct WarpBlockHash { bytes32 sourceChainID; bytes32 blockHash; }',
  'event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)',
  'function sendWarpMessage(bytes payload) returns (bytes32 messageID)',
  'function getVerifiedWarpMessage(uint32 index) view returns (WarpMessage message, bool valid)',
  'function getVerifiedWarpBlockHash(uint32 index) view returns (WarpBlockHash warpBlockHash, bool valid)',
  'function getBlockchainID() view returns (bytes32 blockchainID)',
])
const call = (functionName: string, args: unknown[] = []) =>
  hexToBytes(encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]))

const selector = (signature: string) => bytesToHex(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4))
const MESSAGE_OUTPUT = [
  { type: 'tuple', components: [{ type: 'bytes32' }, { type: 'address' }, { type: 'bytes' }] },
  { type: 'bool' },
] as const
const BLOCK_HASH_OUTPUT = [{ type: 'tuple', components: [{ type: 'bytes32' }, { type: 'bytes32' }] }, { type: 'bool' }] as const

const NETWORK_ID = 12345
const blockchainId = bytes32('chain-a')
const noPredicates = () => undefined

describe('interface constants', () => {
  it('selectors and the event topic are the keccak of the Solidity signatures', () => {
    expect(WARP_SELECTORS.sendWarpMessage).toBe(selector('sendWarpMessage(bytes)'))
    expect(WARP_SELECTORS.getVerifiedWarpMessage).toBe(selector('getVerifiedWarpMessage(uint32)'))
    expect(WARP_SELECTORS.getVerifiedWarpBlockHash).toBe(selector('getVerifiedWarpBlockHash(uint32)'))
    expect(WARP_SELECTORS.getBlockchainID).toBe(selector('getBlockchainID()'))
    expect(SEND_WARP_MESSAGE_TOPIC).toBe(
      bytesToHex(keccak_256(new TextEncoder().encode('SendWarpMessage(address,bytes32,bytes)'))),
    )
  })
})

describe('dispatch', () => {
  const precompile = createWarpPrecompile({ networkId: NETWORK_ID, blockchainId, getPredicate: noPredicates })
  it('reports a missing or unknown selector and burns the gas', async () => {
    const short = await precompile(makeCall({ input: new Uint8Array([0xee, 0x5b]) }).call)
    expect(short.error?.message).toBe('missing function selector to precompile - input length (2)')
    expect(short.gasLeft).toBe(0n)
    expect(short.error?.reverted).toBe(false)
    const unknown = await precompile(makeCall({ input: new Uint8Array([0xde, 0xad, 0xbe, 0xef, 1]) }).call)
    expect(unknown.error?.message).toBe('invalid function selector: 0xdeadbeef')
    expect(unknown.returnData).toEqual(new Uint8Array(0))
  })
})

describe('sendWarpMessage', () => {
  const precompile = createWarpPrecompile({ networkId: NETWORK_ID, blockchainId, getPredicate: noPredicates })
  const payload = new TextEncoder().encode('a teleporter message that spans more than one ABI word')
  const input = call('sendWarpMessage', [bytesToHex(payload)])

  it('charges 41_500 + 8 per input byte, logs the unsigned message and returns its id', async () => {
    const { call: c, logs } = makeCall({ input, gas: 200_000n })
    const result = await precompile(c)
    expect(result.error).toBeUndefined()
    expect(200_000n - result.gasLeft).toBe(41_500n + 8n * BigInt(input.length - 4))

    const unsignedBytes = encodeUnsignedMessage({
      networkId: NETWORK_ID,
      sourceChainId: blockchainId,
      payload: encodeAddressedCall(hexToBytes(c.caller), payload),
    })
    const id = sha256(unsignedBytes)
    expect(result.returnData).toEqual(id)

    expect(logs).toHaveLength(1)
    const [log] = logs
    expect(log!.topics.map(bytesToHex)).toEqual([
      SEND_WARP_MESSAGE_TOPIC,
      `0x${'00'.repeat(12)}${c.caller.slice(2)}`,
      bytesToHex(id),
    ])
    const [data] = decodeAbiParameters([{ type: 'bytes' }], bytesToHex(log!.data))
    expect(data).toBe(bytesToHex(unsignedBytes))
    const parsed = parseUnsignedMessage(hexToBytes(data as Hex))
    expect(parsed.networkId).toBe(NETWORK_ID)
    expect(parsed.sourceChainId).toEqual(blockchainId)
    expect(parseAddressedCall(parsed.payload)).toEqual({ type: 'addressedCall', sourceAddress: hexToBytes(c.caller), payload })
  })

  it('fails under STATICCALL, out of gas, and on bad ABI input', async () => {
    const readOnly = makeCall({ input, readOnly: true })
    const ro = await precompile(readOnly.call)
    expect(ro.error?.message).toBe('write protection')
    expect(ro.gasLeft).toBe(0n)
    expect(readOnly.logs).toHaveLength(0)

    const need = 41_500n + 8n * BigInt(input.length - 4)
    expect((await precompile(makeCall({ input, gas: need - 1n }).call)).error?.message).toBe('out of gas')
    expect((await precompile(makeCall({ input, gas: need }).call)).error).toBeUndefined()

    const sel = hexToBytes(WARP_SELECTORS.sendWarpMessage)
    expect((await precompile(makeCall({ input: sel }).call)).error?.message).toBe(
      'invalid sendWarpMessage input: abi: attempting to unmarshal an empty string while arguments are expected',
    )
    expect((await precompile(makeCall({ input: new Uint8Array([...sel, 0, 0, 0, 32]) }).call)).error?.message).toBe(
      'invalid sendWarpMessage input: abi: cannot marshal in to go type: length insufficient 4 require 32',
    )
    const badOffset = new Uint8Array([...sel, ...hexToBytes(encodeAbiParameters([{ type: 'uint256' }], [64n]))])
    expect((await precompile(makeCall({ input: badOffset }).call)).error?.message).toBe(
      'invalid sendWarpMessage input: abi: cannot marshal in to go slice: offset 96 would go over slice boundary (len=32)',
    )
    const badLength = new Uint8Array([...sel, ...hexToBytes(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [32n, 5n]))])
    expect((await precompile(makeCall({ input: badLength }).call)).error?.message).toBe(
      'invalid sendWarpMessage input: abi: cannot marshal in to go type: length insufficient 64 require 69',
    )
    // Trailing calldata is tolerated (non-strict after Durango).
    expect((await precompile(makeCall({ input: new Uint8Array([...input, 1, 2, 3]) }).call)).error).toBeUndefined()
  })

  it('refuses payloads the 24 KiB payload codec cannot hold', async () => {
    const big = call('sendWarpMessage', [bytesToHex(new Uint8Array(24 * 1024 - 33))])
    const result = await precompile(makeCall({ input: big, gas: 1_000_000n }).call)
    expect(result.error?.message).toBe(
      "couldn't marshal *payload.AddressedCall payload: packer has insufficient length for input",
    )
  })
})

describe('getBlockchainID', () => {
  const precompile = createWarpPrecompile({ networkId: NETWORK_ID, blockchainId, getPredicate: noPredicates })
  it('costs 2 before Granite and 200 from Granite', async () => {
    const input = call('getBlockchainID')
    const pre = await precompile(makeCall({ input, gas: 1000n }).call)
    expect(pre.returnData).toEqual(blockchainId)
    expect(pre.gasLeft).toBe(998n)
    const post = await precompile(makeCall({ input, gas: 1000n, rules: { isGranite: true } }).call)
    expect(post.gasLeft).toBe(800n)
    expect((await precompile(makeCall({ input, gas: 199n, rules: { isGranite: true } }).call)).error?.message).toBe('out of gas')
  })
})

describe('getVerifiedWarpMessage / getVerifiedWarpBlockHash', () => {
  const source = bytes32('chain-b')
  const sender = hexToBytes('0x253b2784c75e510dd0ff1da844684a1ac0aa5fcf')
  const messagePayload = new TextEncoder().encode('x'.repeat(70))
  const signature = { signers: new Uint8Array([1]), signature: new Uint8Array(96) }
  const addressed = encodeMessage(
    encodeUnsignedMessage({ networkId: NETWORK_ID, sourceChainId: source, payload: encodeAddressedCall(sender, messagePayload) }),
    signature,
  )
  const blockHash = bytes32('block')
  const hashed = encodeMessage(
    encodeUnsignedMessage({ networkId: NETWORK_ID, sourceChainId: source, payload: encodeHashPayload(blockHash) }),
    signature,
  )
  const packed = (bytes: Uint8Array) => new Uint8Array(Buffer.concat(packPredicate(bytes)))
  const predicates: WarpPredicate[] = [
    { bytes: packed(addressed), valid: true },
    { bytes: packed(addressed), valid: false },
    { bytes: packed(hashed), valid: true },
  ]
  const precompile = createWarpPrecompile({ networkId: NETWORK_ID, blockchainId, getPredicate: (i) => predicates[i] })
  const chunks = (bytes: Uint8Array) => BigInt(Math.floor(bytes.length / 32) + 1)

  it('returns the message and charges base + chunk gas for a valid predicate', async () => {
    for (const [isGranite, base, perChunk] of [
      [false, 2n, 3_200n],
      [true, 750n, 512n],
    ] as const) {
      const result = await precompile(makeCall({ input: call('getVerifiedWarpMessage', [0]), rules: { isGranite } }).call)
      expect(result.error).toBeUndefined()
      expect(1_000_000n - result.gasLeft).toBe(base + perChunk * chunks(addressed))
      const [message, valid] = decodeAbiParameters(MESSAGE_OUTPUT, bytesToHex(result.returnData))
      expect(valid).toBe(true)
      const [chain, origin, body] = message as unknown as [Hex, Hex, Hex]
      expect([chain, origin.toLowerCase(), body]).toEqual([bytesToHex(source), bytesToHex(sender), bytesToHex(messagePayload)])
      // Byte-exact against viem's encoder.
      expect(bytesToHex(result.returnData)).toBe(
        encodeAbiParameters(MESSAGE_OUTPUT, [[bytesToHex(source), bytesToHex(sender), bytesToHex(messagePayload)], true]),
      )
    }
  })

  it('returns (zero struct, false) for a failed or missing predicate, charging only the base', async () => {
    const zero = encodeAbiParameters(MESSAGE_OUTPUT, [[`0x${'00'.repeat(32)}`, `0x${'00'.repeat(20)}`, '0x'], false])
    for (const index of [1, 7]) {
      const result = await precompile(makeCall({ input: call('getVerifiedWarpMessage', [index]) }).call)
      expect(bytesToHex(result.returnData)).toBe(zero)
      expect(result.gasLeft).toBe(1_000_000n - 2n)
    }
    const hashResult = await precompile(makeCall({ input: call('getVerifiedWarpBlockHash', [1]), rules: { isGranite: true } }).call)
    expect(bytesToHex(hashResult.returnData)).toBe(`0x${'00'.repeat(96)}`)
    expect(hashResult.gasLeft).toBe(1_000_000n - 750n)
  })

  it('reads block-hash payloads and rejects the wrong payload kind', async () => {
    const result = await precompile(makeCall({ input: call('getVerifiedWarpBlockHash', [2]) }).call)
    const [value, valid] = decodeAbiParameters(BLOCK_HASH_OUTPUT, bytesToHex(result.returnData))
    expect(valid).toBe(true)
    expect(value).toEqual([bytesToHex(source), bytesToHex(blockHash)])
    expect(result.returnData).toHaveLength(96)

    const wrong = await precompile(makeCall({ input: call('getVerifiedWarpMessage', [2]) }).call)
    expect(wrong.error?.message).toBe('cannot unpack addressed payload: wrong payload type: *payload.Hash')
    expect(wrong.gasLeft).toBe(0n)
    const wrong2 = await precompile(makeCall({ input: call('getVerifiedWarpBlockHash', [0]) }).call)
    expect(wrong2.error?.message).toBe('cannot unpack block hash payload: wrong payload type: *payload.AddressedCall')
  })

  it('rejects indexes above MaxInt32 and malformed uint32 input', async () => {
    const huge = await precompile(makeCall({ input: call('getVerifiedWarpMessage', [0x80000000]) }).call)
    expect(huge.error?.message).toBe('invalid index to specify warp message: larger than MaxInt32')
    const sel = hexToBytes(WARP_SELECTORS.getVerifiedWarpMessage)
    const overflow = new Uint8Array([...sel, ...hexToBytes(encodeAbiParameters([{ type: 'uint256' }], [1n << 32n]))])
    expect((await precompile(makeCall({ input: overflow }).call)).error?.message).toBe(
      'invalid index to specify warp message: abi: improperly encoded uint32 value',
    )
    expect((await precompile(makeCall({ input: sel }).call)).error?.message).toBe(
      'invalid index to specify warp message: abi: attempting to unmarshal an empty string while arguments are expected',
    )
    expect((await precompile(makeCall({ input: call('getVerifiedWarpMessage', [0]), gas: 1n }).call)).error?.message).toBe(
      'out of gas',
    )
  })
})

describe('send on one chain, receive on another', () => {
  it('a message signed by a quorum of chain A validators verifies as a predicate on chain B', async () => {
    const chainA = createWarpPrecompile({ networkId: NETWORK_ID, blockchainId, getPredicate: noPredicates })
    const { call: sendCall, logs } = makeCall({ input: call('sendWarpMessage', ['0xc0ffee']) })
    expect((await chainA(sendCall)).error).toBeUndefined()
    const [unsignedHex] = decodeAbiParameters([{ type: 'bytes' }], bytesToHex(logs[0]!.data))
    const unsigned = hexToBytes(unsignedHex as Hex)

    const nodes = identities(4, 'chain-a')
    const set = canonicalValidatorSet(validatorInputs(nodes, [1, 1, 1, 1]))
    const signed = encodeMessage(unsigned, signMessage(unsigned, nodes.slice(0, 3), set))
    const tooFew = encodeMessage(unsigned, signMessage(unsigned, nodes.slice(0, 2), set))
    const accessList = [
      { address: WARP_ADDRESS, storageKeys: packPredicate(signed) },
      { address: WARP_ADDRESS, storageKeys: packPredicate(tooFew) },
    ]
    const results = verifyPredicates(accessList, (message) =>
      verifyWarpMessage({ message, networkId: NETWORK_ID, validators: set, quorumNumerator: 67 }),
    )
    expect(results.predicates[1]!.error).toBe('cannot verify warp signature: signature weight is insufficient: 67*4 > 100*2')
    expect(results.failed).toEqual(new Uint8Array([0b10]))

    const chainB = createWarpPrecompile({ networkId: NETWORK_ID, blockchainId: bytes32('chain-b'), getPredicate: results.getPredicate })
    const received = await chainB(makeCall({ input: call('getVerifiedWarpMessage', [0]), caller: '0x3333333333333333333333333333333333333333' }).call)
    const [message, valid] = decodeAbiParameters(MESSAGE_OUTPUT, bytesToHex(received.returnData))
    expect(valid).toBe(true)
    expect(message).toEqual([bytesToHex(blockchainId), '0x1111111111111111111111111111111111111111', '0xc0ffee'])
    const rejected = await chainB(makeCall({ input: call('getVerifiedWarpMessage', [1]) }).call)
    expect(decodeAbiParameters(MESSAGE_OUTPUT, bytesToHex(rejected.returnData))[1]).toBe(false)
  })
})
