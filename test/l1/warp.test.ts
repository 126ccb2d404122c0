import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  bytesToHex,
  createPublicClient,
  createWalletClient,
  custom,
  decodeAbiParameters,
  decodeFunctionResult,
  defineChain,
  encodeFunctionData,
  hexToBytes,
  pad,
  parseAbi,
  type Account,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { idToString } from '../../src/core/ids.js'
import { parseMessage } from '../../src/evm/warp/codec.js'
import { packPredicateHex } from '../../src/evm/warp/predicate.js'
import type { L1 } from '../../src/network/l1.js'
import { createNetwork, type Network } from '../../src/network/network.js'
import { createEIP1193Provider, type EIP1193Provider } from '../../src/rpc/provider.js'
import { WarpReceiver } from '../fixtures/contracts/index.js'
import { accounts, alice, bob, carol, testGenesis } from './helpers.js'

const WARP = '0x0200000000000000000000000000000000000005' as const
/** keccak256("SendWarpMessage(address,bytes32,bytes)"), from subnet-EVM's IWarpMessenger. */
const SEND_WARP_MESSAGE_TOPIC = '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d'
const LOCAL_NETWORK_ID = 12345
const DURANGO_LOCAL = 1607144400

const warpAbi = parseAbi([
  'struct WarpMessage { bytes32 sourceChainID; address originSenderAddress; bytes payload; }',
  'event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)',
  'function sendWarpMessage(bytes payload) returns (bytes32 messageID)',
  'function getVerifiedWarpMessage(uint32 index) view returns (WarpMessage message, bool valid)',
  'function getBlockchainID() view returns (bytes32 blockchainID)',
  'struct WarpBlockHash { bytes32 sourceChainID; bytes32 blockHash; }',
  'function getVerifiedWarpBlockHash(uint32 index) view returns (WarpBlockHash warpBlockHash, bool valid)',
])

type Side = {
  l1: L1
  provider: EIP1193Provider
  publicClient: PublicClient<Transport, Chain>
  wallet: (account: (typeof accounts)[0]) => WalletClient<Transport, Chain, Account>
  rpc: (method: string, params?: unknown[]) => Promise<unknown>
}

/** Two L1s with warp active from genesis (Durango on local), five nodes validating each with weight 100. */
async function twoL1s(): Promise<{ network: Network; a: Side; b: Side }> {
  const warpConfig = { blockTimestamp: DURANGO_LOCAL }
  const network = await createNetwork({
    l1s: [
      { name: 'a', genesis: testGenesis({ chainId: 11111, warpConfig }) },
      { name: 'b', genesis: testGenesis({ chainId: 22222, warpConfig }) },
    ],
  })
  const side = (l1: L1): Side => {
    const provider = createEIP1193Provider({ network, chain: l1.chain })
    const chain: Chain = defineChain({ id: Number(l1.chain.chainId), name: l1.name, nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
    const publicClient = createPublicClient({ chain, transport: custom(provider) }) as PublicClient<Transport, Chain>
    const wallet = (account: (typeof accounts)[0]) => createWalletClient({ chain, account, transport: custom(provider) })
    const rpc = (method: string, params: unknown[] = []) => provider.request({ method, params })
    return { l1, provider, publicClient, wallet, rpc }
  }
  return { network, a: side(network.l1('a')!), b: side(network.l1('b')!) }
}

const u32 = (n: number) => {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, n)
  return out
}
const bitCount = (bits: Uint8Array) => bits.reduce((n, b) => n + b.toString(2).replace(/0/g, "").length, 0)
const cat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))
const sha256 = (bytes: Uint8Array): Hex => `0x${createHash('sha256').update(bytes).digest('hex')}`

/** The unsigned message avalanchego builds for `sendWarpMessage(payload)` called by `sender` on `chain` (written out by hand). */
function expectedUnsigned(sourceChainId: Uint8Array, sender: Hex, payload: Uint8Array): Uint8Array {
  const addressedCall = cat(Uint8Array.of(0, 0), u32(1), u32(20), hexToBytes(sender), u32(payload.length), payload)
  return cat(Uint8Array.of(0, 0), u32(LOCAL_NETWORK_ID), sourceChainId, u32(addressedCall.length), addressedCall)
}

/** Calldata gas (EIP-2028): 16 per non-zero byte, 4 per zero byte. */
const calldataGas = (data: Hex) => hexToBytes(data).reduce((sum, b) => sum + (b === 0 ? 4n : 16n), 0n)

/** Granite's warp predicate gas (subnet-EVM `contract.go`): 125_000 + 512 per 32-byte key + 250 per signer. */
const granitePredicateGas = (keys: number, signers: number) => 125_000n + 512n * BigInt(keys) + 250n * BigInt(signers)

/** Sends `sendWarpMessage(payload)` from `from` on `side`; returns the receipt and the unsigned message from the log. */
async function sendWarp(side: Side, from: (typeof accounts)[0], payload: Hex) {
  const hash = await side.wallet(from).writeContract({ address: WARP, abi: warpAbi, functionName: 'sendWarpMessage', args: [payload] })
  const receipt = await side.publicClient.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  const log = receipt.logs.find((l) => l.topics[0] === SEND_WARP_MESSAGE_TOPIC)!
  expect(log).toBeDefined()
  const [unsignedHex] = decodeAbiParameters([{ type: 'bytes' }], log.data)
  return { receipt, log, unsigned: hexToBytes(unsignedHex), messageId: log.topics[2] as Hex }
}

async function deployReceiver(side: Side, from: (typeof accounts)[0]): Promise<Hex> {
  const hash = await side.wallet(from).deployContract({ abi: WarpReceiver.abi, bytecode: WarpReceiver.bytecode })
  const receipt = await side.publicClient.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt.contractAddress!
}

async function readReceiver(side: Side, address: Hex) {
  const read = <F extends 'valid' | 'sourceChainID' | 'originSender' | 'payload' | 'received'>(functionName: F) =>
    side.publicClient.readContract({ address, abi: WarpReceiver.abi, functionName })
  return {
    valid: await read('valid'),
    sourceChainID: await read('sourceChainID'),
    originSender: await read('originSender'),
    payload: await read('payload'),
    received: await read('received'),
  }
}

/** eth_call of getVerifiedWarpMessage(index) on the precompile with the predicates in the access list. */
async function callGetVerified(side: Side, index: number, predicates: Uint8Array[]) {
  const data = await side.publicClient.call({
    account: carol.address,
    to: WARP,
    data: encodeFunctionData({ abi: warpAbi, functionName: 'getVerifiedWarpMessage', args: [index] }),
    accessList: predicates.map((signed) => ({ address: WARP, storageKeys: packPredicateHex(signed) })),
  })
  return decodeFunctionResult({ abi: warpAbi, functionName: 'getVerifiedWarpMessage', data: data.data! })
}

/**
 * subnet-EVM's predicate results after the fee window in a Durango header, for one transaction
 * with warp tuples: codec version 0 ‖ 1 tx ‖ hash ‖ 1 address ‖ 0x0200…05 ‖ u32 len ‖ failed bits.
 */
function predicateResultsHex(txHash: Hex, failedBits: Hex): string {
  const bits = hexToBytes(failedBits)
  return bytesToHex(cat(Uint8Array.of(0, 0), u32(1), hexToBytes(txHash), u32(1), hexToBytes(WARP), u32(bits.length), bits)).slice(2)
}

const ZERO32 = `0x${'00'.repeat(32)}`
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`

describe('warp between two L1s', () => {
  it('round trip A → B: send, log, warp_getMessage, aggregate signature, predicate, verified message in a contract', async () => {
    const { network, a, b } = await twoL1s()
    const payload = '0xdeadbeef00c0ffee' as const

    // --- chain A: an EOA sends the message -------------------------------------------------
    const { receipt, log, unsigned, messageId } = await sendWarp(a, alice, payload)
    expect(log.address).toBe(WARP)
    expect(log.topics).toEqual([SEND_WARP_MESSAGE_TOPIC, pad(alice.address.toLowerCase() as Hex), sha256(unsigned)])
    expect(bytesToHex(unsigned)).toBe(bytesToHex(expectedUnsigned(a.l1.blockchainIdBytes, alice.address, hexToBytes(payload))))
    expect(messageId).toBe(sha256(unsigned))
    // Gas: 21000 + calldata + sendWarpMessage's 41_500 + 8 per input byte (the ABI calldata after the selector).
    const input = encodeFunctionData({ abi: warpAbi, functionName: 'sendWarpMessage', args: [payload] })
    expect(receipt.gasUsed).toBe(21_000n + calldataGas(input) + 41_500n + 8n * BigInt((input.length - 10) / 2))
    // no predicates in this block: the fee window and the empty results map (6 zero bytes)
    expect((await a.publicClient.getBlock({ blockNumber: receipt.blockNumber })).extraData.slice(2 + 160)).toBe('000000000000')
    // the viem event decoder agrees
    expect(log.topics.length).toBe(3)

    // --- the node's warp API on chain A ----------------------------------------------------
    const cb58 = idToString(hexToBytes(messageId))
    expect(await a.rpc('warp_getMessage', [cb58])).toBe(bytesToHex(unsigned))
    const aggregate = (await a.rpc('warp_getMessageAggregateSignature', [cb58, 67, ''])) as Hex
    const signed = network.signWarpMessage(unsigned)
    expect(aggregate).toBe(bytesToHex(signed))
    const parsed = parseMessage(signed)
    expect(bytesToHex(parsed.unsignedBytes)).toBe(bytesToHex(unsigned))
    expect(parsed.unsigned.networkId).toBe(LOCAL_NETWORK_ID)
    // every one of the five validators signs: bit set 0b11111
    expect(bytesToHex(parsed.signature.signers)).toBe('0x1f')
    // chain B does not know the message id (it reads A's blocks through the network, though)
    await expect(a.rpc('warp_getMessage', [idToString(new Uint8Array(32).fill(7))])).rejects.toThrow(/failed to get message .* with error not found/)

    // --- chain B: a relayer delivers it to a receiver contract -----------------------------
    const receiver = await deployReceiver(b, bob)
    const accessList = [{ address: WARP, storageKeys: packPredicateHex(signed) }]
    const hash = await b.wallet(carol).writeContract({ address: receiver, abi: WarpReceiver.abi, functionName: 'receiveMessage', args: [0], accessList })
    const delivered = await b.publicClient.getTransactionReceipt({ hash })
    expect(delivered.status).toBe('success')
    // The block's header extra: fee window (80 bytes) ‖ predicate results {tx: {warp: no failed bits}}.
    expect((await b.publicClient.getBlock({ blockNumber: delivered.blockNumber })).extraData.slice(2 + 160)).toBe(predicateResultsHex(hash, '0x'))
    expect(await readReceiver(b, receiver)).toEqual({
      valid: true,
      sourceChainID: bytesToHex(a.l1.blockchainIdBytes),
      originSender: alice.address,
      payload,
      received: 1n,
    })

    // eth_call straight to the precompile with the same access list
    const [message, valid] = await callGetVerified(b, 0, [signed])
    expect(valid).toBe(true)
    expect(message).toEqual({ sourceChainID: bytesToHex(a.l1.blockchainIdBytes), originSenderAddress: alice.address, payload })
    // no predicate at index 1 (and none at all without the access list): (zero, false)
    expect(await callGetVerified(b, 1, [signed])).toEqual([{ sourceChainID: ZERO32, originSenderAddress: ZERO_ADDRESS, payload: '0x' }, false])
    expect(await callGetVerified(b, 0, [])).toEqual([{ sourceChainID: ZERO32, originSenderAddress: ZERO_ADDRESS, payload: '0x' }, false])
    // a later transaction without the predicate sees no message
    await b.wallet(carol).writeContract({ address: receiver, abi: WarpReceiver.abi, functionName: 'receiveMessage', args: [0] })
    expect(await readReceiver(b, receiver)).toMatchObject({ valid: false, sourceChainID: ZERO32, originSender: ZERO_ADDRESS, payload: '0x', received: 2n })
    await network.close()
  })

  it('a contract that sends: originSenderAddress is the contract, not the transaction origin', async () => {
    const { network, a, b } = await twoL1s()
    const sender = await deployReceiver(a, alice)
    const hash = await a.wallet(bob).writeContract({ address: sender, abi: WarpReceiver.abi, functionName: 'send', args: ['0x0102'] })
    const receipt = await a.publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const log = receipt.logs.find((l) => l.address === WARP)!
    expect(log.topics[1]).toBe(pad(sender))
    const unsigned = network.warpMessage(log.topics[2]!)!
    expect(bytesToHex(unsigned)).toBe(bytesToHex(expectedUnsigned(a.l1.blockchainIdBytes, sender, Uint8Array.of(1, 2))))
    const [message, valid] = await callGetVerified(b, 0, [network.signWarpMessage(unsigned)])
    expect(valid).toBe(true)
    expect(message.originSenderAddress.toLowerCase()).toBe(sender.toLowerCase())
    expect(message.payload).toBe('0x0102')
    await network.close()
  })

  it('too little weight: valid = false in the transaction (which still succeeds) and in eth_call; 4 of 5 is enough', async () => {
    const { network, a, b } = await twoL1s()
    const { unsigned } = await sendWarp(a, alice, '0xabcd')
    const receiver = await deployReceiver(b, bob)

    // 1 of 5 equal validators: 20% < 67%
    const weak = network.signWarpMessage(unsigned, { signers: [0] })
    expect(bitCount(parseMessage(weak).signature.signers)).toBe(1)
    const hash = await b.wallet(carol).writeContract({
      address: receiver,
      abi: WarpReceiver.abi,
      functionName: 'receiveMessage',
      args: [0],
      accessList: [{ address: WARP, storageKeys: packPredicateHex(weak) }],
    })
    const weakReceipt = await b.publicClient.getTransactionReceipt({ hash })
    expect(weakReceipt.status).toBe('success')
    // the block records the failure: bit 0 of the warp address' results for this transaction
    expect((await b.publicClient.getBlock({ blockNumber: weakReceipt.blockNumber })).extraData.slice(2 + 160)).toBe(predicateResultsHex(hash, '0x01'))
    expect(await readReceiver(b, receiver)).toEqual({ valid: false, sourceChainID: ZERO32, originSender: ZERO_ADDRESS, payload: '0x', received: 1n })
    expect(await callGetVerified(b, 0, [weak])).toEqual([{ sourceChainID: ZERO32, originSenderAddress: ZERO_ADDRESS, payload: '0x' }, false])

    // 3 of 5 = 60% is still short; 4 of 5 = 80% verifies
    expect((await callGetVerified(b, 0, [network.signWarpMessage(unsigned, { signers: [0, 1, 2] })]))[1]).toBe(false)
    expect((await callGetVerified(b, 0, [network.signWarpMessage(unsigned, { signers: [1, 2, 3, 4] })]))[1]).toBe(true)

    // Index i is the i-th warp tuple: [strong, weak] → 0 valid, 1 not; other tuples do not count.
    const strong = network.signWarpMessage(unsigned)
    const mixed = [
      { address: carol.address, storageKeys: [] as Hex[] },
      { address: WARP, storageKeys: packPredicateHex(strong) },
      { address: WARP, storageKeys: packPredicateHex(weak) },
    ]
    const call = async (index: number) => {
      const data = await b.publicClient.call({ account: carol.address, to: WARP, data: encodeFunctionData({ abi: warpAbi, functionName: 'getVerifiedWarpMessage', args: [index] }), accessList: mixed })
      return decodeFunctionResult({ abi: warpAbi, functionName: 'getVerifiedWarpMessage', data: data.data! })[1]
    }
    expect([await call(0), await call(1)]).toEqual([true, false])

    // A message signed by the wrong signers' keys with a forged bit set: invalid too.
    const forged = hexToBytes(bytesToHex(strong))
    forged[forged.length - 1]! ^= 0x01
    expect((await callGetVerified(b, 0, [forged]))[1]).toBe(false)
    await network.close()
  })

  it('getBlockchainID, and intrinsic gas of a predicate: 21000 + calldata + Granite predicate gas', async () => {
    const { network, a, b } = await twoL1s()
    const idA = await a.publicClient.readContract({ address: WARP, abi: warpAbi, functionName: 'getBlockchainID' })
    const idB = await b.publicClient.readContract({ address: WARP, abi: warpAbi, functionName: 'getBlockchainID' })
    expect(idA).toBe(bytesToHex(a.l1.blockchainIdBytes))
    expect(idB).toBe(bytesToHex(b.l1.blockchainIdBytes))
    expect(idA).not.toBe(idB)
    // getBlockchainID costs 200 gas from Granite: 21000 + calldata (4 non-zero bytes) + 200
    expect(await a.publicClient.estimateGas({ account: carol.address, to: WARP, data: '0x4213cf78' })).toBeGreaterThanOrEqual(21_000n + 64n + 200n)
    const receiverB = await deployReceiver(b, bob)
    expect(await b.publicClient.readContract({ address: receiverB, abi: WarpReceiver.abi, functionName: 'blockchainID' })).toBe(idB)

    const { unsigned } = await sendWarp(a, alice, `0x${'42'.repeat(100)}`)
    const signed = network.signWarpMessage(unsigned)
    const keys = packPredicateHex(signed)
    // signed = unsigned ‖ type u32 ‖ bitset length u32 ‖ 1-byte bit set ‖ 96-byte signature; keys = ⌊len/32⌋ + 1
    expect(signed.length).toBe(unsigned.length + 4 + 4 + 1 + 96)
    expect(keys.length).toBe(Math.floor(signed.length / 32) + 1)
    const predicateGas = granitePredicateGas(keys.length, 5)
    const accessList = [{ address: WARP, storageKeys: keys }]

    // A plain transfer carrying the predicate: 21000 + predicate gas (not 2400 + 1900 per key).
    const intrinsic = 21_000n + predicateGas
    expect(intrinsic).not.toBe(21_000n + 2_400n + 1_900n * BigInt(keys.length))
    const transfer = await b.wallet(carol).sendTransaction({ to: bob.address, value: 1n, accessList, gas: intrinsic })
    const transferReceipt = await b.publicClient.getTransactionReceipt({ hash: transfer })
    expect(transferReceipt.status).toBe('success')
    expect(transferReceipt.gasUsed).toBe(intrinsic)
    // one gas short is refused by the pool
    await expect(b.wallet(carol).sendTransaction({ to: bob.address, value: 1n, accessList, gas: intrinsic - 1n })).rejects.toThrow(
      new RegExp(`intrinsic gas too low: address ${carol.address} tx gas \\(${intrinsic - 1n}\\), minimum needed ${intrinsic}`, 'i'),
    )
    // eth_estimateGas prices the predicate too (geth's estimator lands within 1.5% above the need)
    const estimate = await b.publicClient.estimateGas({ account: carol.address, to: bob.address, value: 1n, accessList })
    expect(estimate).toBeGreaterThanOrEqual(intrinsic)
    expect(estimate).toBeLessThanOrEqual((intrinsic * 1015n) / 1000n + 1n)

    // A contract call carrying the predicate: 21000 + calldata + predicate gas + execution.
    const data = encodeFunctionData({ abi: WarpReceiver.abi, functionName: 'receiveMessage', args: [0] })
    const hash = await b.wallet(carol).sendTransaction({ to: receiverB, data, accessList })
    const receipt = await b.publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect((await readReceiver(b, receiverB)).valid).toBe(true)
    // the same call without the predicate: the difference is exactly the predicate gas plus the
    // extra reading costs of a valid message (512 per key to read, storage of the payload)
    const plain = await b.publicClient.estimateGas({ account: carol.address, to: receiverB, data })
    expect(receipt.gasUsed).toBeGreaterThan(intrinsic + calldataGas(data))
    expect(receipt.gasUsed - calldataGas(data) - 21_000n).toBeGreaterThan(predicateGas)
    expect(plain).toBeLessThan(receipt.gasUsed - predicateGas + 100_000n)
    // eth_estimateGas with the predicate covers the predicate, and the tx runs with that gas
    const estimateCall = await b.publicClient.estimateGas({ account: carol.address, to: receiverB, data, accessList })
    expect(estimateCall).toBeGreaterThanOrEqual(predicateGas + 21_000n + calldataGas(data))
    // eth_call with too little gas for the predicate: the state transition's intrinsic error
    await expect(b.publicClient.call({ account: carol.address, to: receiverB, data, accessList, gas: 21_000n + calldataGas(data) + predicateGas - 1n })).rejects.toThrow(
      `intrinsic gas too low: have ${21_000n + calldataGas(data) + predicateGas - 1n}, want ${21_000n + calldataGas(data) + predicateGas}`,
    )

    // A transaction that fails before it runs (here: too little gas for even ethereumjs' own
    // intrinsic gas) leaves no predicate charge behind for the next message call.
    await expect(b.rpc('eth_estimateGas', [{ from: carol.address, to: bob.address, value: '0x1', accessList, gas: '0x7530' }])).rejects.toThrow('gas required exceeds allowance (30000)')
    expect((await b.publicClient.call({ account: carol.address, to: WARP, data: '0x4213cf78', gas: 30_000n })).data).toBe(idB)
    // and a call after a predicate call sees no predicate
    expect((await callGetVerified(b, 0, [signed]))[1]).toBe(true)
    expect((await callGetVerified(b, 0, []))[1]).toBe(false)
    await network.close()
  })

  it('an unparseable predicate makes the transaction invalid at submission with the node error', async () => {
    const { network, b } = await twoL1s()
    const height = await b.publicClient.getBlockNumber()
    const nonce = await b.publicClient.getTransactionCount({ address: carol.address })
    const send = (storageKeys: Hex[]) => b.wallet(carol).sendTransaction({ to: bob.address, value: 1n, gas: 500_000n, accessList: [{ address: WARP, storageKeys }] })

    // no 0xff delimiter at the end of the data
    await expect(send([`0x${'11'.repeat(32)}`])).rejects.toThrow('cannot unpack predicate bytes: wrong delimiter')
    // all zeros: no delimiter at all
    await expect(send([ZERO32 as Hex])).rejects.toThrow('cannot unpack predicate bytes: no delimiter found')
    // a key of padding too many
    await expect(send([`0x${'ff'.padEnd(64, '0')}`, ZERO32 as Hex])).rejects.toThrow('cannot unpack predicate bytes: predicate included excess padding')
    // well packed, but the bytes are no warp message
    await expect(send(packPredicateHex(Uint8Array.of(0xde, 0xad, 0xbe, 0xef)))).rejects.toThrow('cannot unpack warp message')

    // eth_call and eth_estimateGas fail the same way (IntrinsicGas errors in the state transition)
    const garbage = [{ address: WARP, storageKeys: [`0x${'11'.repeat(32)}` as Hex] }]
    await expect(b.publicClient.call({ account: carol.address, to: bob.address, value: 1n, accessList: garbage })).rejects.toThrow('cannot unpack predicate bytes: wrong delimiter')
    await expect(b.publicClient.estimateGas({ account: carol.address, to: bob.address, value: 1n, accessList: garbage })).rejects.toThrow('cannot unpack predicate bytes: wrong delimiter')

    // nothing was mined and no nonce was used
    expect(await b.publicClient.getBlockNumber()).toBe(height)
    expect(await b.publicClient.getTransactionCount({ address: carol.address })).toBe(nonce)
    // on another address the same keys are plain storage keys
    const ok = await b.wallet(carol).sendTransaction({ to: bob.address, value: 1n, accessList: [{ address: bob.address, storageKeys: [`0x${'11'.repeat(32)}`] }] })
    expect((await b.publicClient.getTransactionReceipt({ hash: ok })).gasUsed).toBe(21_000n + 2_400n + 1_900n)
    await network.close()
  })

  it('block hashes: warp_getBlockAggregateSignature on A, getVerifiedWarpBlockHash on B', async () => {
    const { network, a, b } = await twoL1s()
    const { receipt } = await sendWarp(a, alice, '0x01')
    const blockId = idToString(hexToBytes(receipt.blockHash))
    const signed = hexToBytes((await a.rpc('warp_getBlockAggregateSignature', [blockId, 67, ''])) as Hex)
    expect(parseMessage(signed).unsigned.sourceChainId).toEqual(a.l1.blockchainIdBytes)
    const data = await b.publicClient.call({
      account: carol.address,
      to: WARP,
      data: encodeFunctionData({ abi: warpAbi, functionName: 'getVerifiedWarpBlockHash', args: [0] }),
      accessList: [{ address: WARP, storageKeys: packPredicateHex(signed) }],
    })
    const [blockHash, valid] = decodeFunctionResult({ abi: warpAbi, functionName: 'getVerifiedWarpBlockHash', data: data.data! }) as [{ sourceChainID: Hex; blockHash: Hex }, boolean]
    expect(valid).toBe(true)
    expect(blockHash).toEqual({ sourceChainID: bytesToHex(a.l1.blockchainIdBytes), blockHash: receipt.blockHash })
    // A block the chain never accepted cannot be signed.
    await expect(a.rpc('warp_getBlockAggregateSignature', [idToString(new Uint8Array(32).fill(7)), 67, ''])).rejects.toThrow('failed to get block: not found')
    await network.close()
  })

  it('snapshot and revert: a reverted message is gone from warp_getMessage', async () => {
    const { network, a } = await twoL1s()
    const snapshot = (await a.rpc('evm_snapshot')) as Hex
    const { messageId, unsigned } = await sendWarp(a, alice, '0x0a0b0c')
    const cb58 = idToString(hexToBytes(messageId))
    expect(await a.rpc('warp_getMessage', [cb58])).toBe(bytesToHex(unsigned))
    expect(network.warpMessage(messageId)).toBeDefined()
    expect(await a.rpc('evm_revert', [snapshot])).toBe(true)
    await expect(a.rpc('warp_getMessage', [cb58])).rejects.toThrow(`failed to get message ${cb58} with error not found`)
    await expect(a.rpc('warp_getMessageAggregateSignature', [cb58, 67, ''])).rejects.toThrow('not found')
    expect(network.warpMessage(messageId)).toBeUndefined()
    await network.close()
  })
})
