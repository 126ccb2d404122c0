import { afterEach, describe, expect, it } from 'vitest'
import {
  bytesToHex,
  createPublicClient,
  createWalletClient,
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  defineChain,
  getAddress,
  hexToBytes,
  http,
  pad,
  parseAbi,
  type Chain,
  type Hex,
} from 'viem'
import { idFromString } from '../../src/core/ids.js'
import { parseMessage } from '../../src/evm/warp/codec.js'
import { packPredicateHex } from '../../src/evm/warp/predicate.js'
import { startDevnet, type Devnet } from '../../src/index.js'
import { WarpReceiver } from '../fixtures/contracts/index.js'
import { accounts, alice, bob, carol, testGenesis } from './helpers.js'

const WARP = '0x0200000000000000000000000000000000000005' as const
/** keccak256("SendWarpMessage(address,bytes32,bytes)"). */
const SEND_WARP_MESSAGE_TOPIC = '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d'
const DURANGO_LOCAL = 1607144400
const ZERO32 = `0x${'00'.repeat(32)}`
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`

const warpAbi = parseAbi([
  'event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message)',
  'function sendWarpMessage(bytes payload) returns (bytes32 messageID)',
  'function getBlockchainID() view returns (bytes32 blockchainID)',
  'struct WarpBlockHash { bytes32 sourceChainID; bytes32 blockHash; }',
  'function getVerifiedWarpBlockHash(uint32 index) view returns (WarpBlockHash warpBlockHash, bool valid)',
])

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

type Account = (typeof accounts)[0]

/** viem clients of one chain of the served devnet, over HTTP. */
function side(net: Devnet, alias: string, chainId: number) {
  const chain: Chain = defineChain({ id: chainId, name: alias, nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [net.rpcUrl(alias)] } } })
  const transport = http(net.rpcUrl(alias))
  const publicClient = createPublicClient({ chain, transport })
  const wallet = (account: Account) => createWalletClient({ chain, account, transport })
  return { publicClient, wallet }
}
type Side = ReturnType<typeof side>

/**
 * The C-chain and three L1s with warp from genesis, validated by nodes 0–2 only (the primary
 * network has all five): `a` and `b` take primary-network messages signed by their own validators
 * (subnet-EVM's default), `strict` requires the primary network's signers.
 */
async function network() {
  const warp = (requirePrimaryNetworkSigners: boolean) => ({ blockTimestamp: DURANGO_LOCAL, requirePrimaryNetworkSigners })
  const validators = [{ node: 0 }, { node: 1 }, { node: 2 }]
  devnet = await startDevnet({
    port: 0,
    l1s: [
      { name: 'a', genesis: testGenesis({ chainId: 11111, warpConfig: warp(false) }), validators },
      { name: 'strict', genesis: testGenesis({ chainId: 33333, warpConfig: warp(true) }), validators },
    ],
  })
  const net = devnet.network
  return { net, c: side(devnet, 'C', Number(net.cChain.chainId)), a: side(devnet, 'a', 11111), strict: side(devnet, 'strict', 33333) }
}

async function sendWarp(s: Side, from: Account, payload: Hex) {
  const hash = await s.wallet(from).writeContract({ address: WARP, abi: warpAbi, functionName: 'sendWarpMessage', args: [payload] })
  const receipt = await s.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  const log = receipt.logs.find((l) => l.address === WARP && l.topics[0] === SEND_WARP_MESSAGE_TOPIC)!
  expect(log).toBeDefined()
  const [unsigned] = decodeAbiParameters([{ type: 'bytes' }], log.data)
  return { log, unsigned: hexToBytes(unsigned), messageId: log.topics[2] as Hex }
}

async function deployReceiver(s: Side, from: Account): Promise<Hex> {
  const hash = await s.wallet(from).deployContract({ abi: WarpReceiver.abi, bytecode: WarpReceiver.bytecode })
  return (await s.publicClient.waitForTransactionReceipt({ hash })).contractAddress!
}

/** `receiveMessage(0)` with `signed` as the predicate; returns what the receiver stored and the block's header extra. */
async function deliver(s: Side, receiver: Hex, signed: Uint8Array) {
  const accessList = [{ address: WARP, storageKeys: packPredicateHex(signed) }]
  const hash = await s.wallet(carol).writeContract({ address: receiver, abi: WarpReceiver.abi, functionName: 'receiveMessage', args: [0], accessList })
  const receipt = await s.publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  const read = <F extends 'valid' | 'sourceChainID' | 'originSender' | 'payload'>(functionName: F) =>
    s.publicClient.readContract({ address: receiver, abi: WarpReceiver.abi, functionName })
  const block = await s.publicClient.getBlock({ blockNumber: receipt.blockNumber })
  return {
    hash,
    extraData: block.extraData,
    stored: { valid: await read('valid'), sourceChainID: await read('sourceChainID'), originSender: await read('originSender'), payload: await read('payload') },
  }
}

describe('warp on the C-chain (coreth activates it at Durango)', () => {
  it('getBlockchainID is the C-chain id; the precompile account is activated (nonce 1, code 0x01)', async () => {
    const { net, c } = await network()
    const cChainId = bytesToHex(idFromString(net.preset.cChainId))
    expect(await c.publicClient.readContract({ address: WARP, abi: warpAbi, functionName: 'getBlockchainID' })).toBe(cChainId)
    expect(await c.publicClient.getCode({ address: WARP })).toBe('0x01')
    expect(await c.publicClient.getTransactionCount({ address: WARP })).toBe(1)
    // through a contract too
    const receiver = await deployReceiver(c, alice)
    expect(await c.publicClient.readContract({ address: receiver, abi: WarpReceiver.abi, functionName: 'blockchainID' })).toBe(cChainId)
  })

  it('a predicate on the C-chain: Granite predicate gas in the receipt; an unparseable one is refused at submission', async () => {
    const { net, c, a } = await network()
    const { unsigned } = await sendWarp(a, alice, '0xab')
    const signed = net.signWarpMessage(unsigned)
    const storageKeys = packPredicateHex(signed)
    const hash = await c.wallet(carol).sendTransaction({ to: bob.address, value: 1n, accessList: [{ address: WARP, storageKeys }] })
    // 21000 + 125_000 + 512 per 32-byte key + 250 per signer (3), instead of 2400 + 1900 per key
    expect((await c.publicClient.waitForTransactionReceipt({ hash })).gasUsed).toBe(21_000n + 125_000n + 512n * BigInt(storageKeys.length) + 250n * 3n)
    const height = await c.publicClient.getBlockNumber()
    await expect(
      c.wallet(carol).sendTransaction({ to: bob.address, value: 1n, gas: 500_000n, accessList: [{ address: WARP, storageKeys: [`0x${'11'.repeat(32)}`] }] }),
    ).rejects.toThrow('cannot unpack predicate bytes: wrong delimiter')
    expect(await c.publicClient.getBlockNumber()).toBe(height)
  })

  it('C → L1: the message the C-chain sent, signed by the primary network or the L1, verified per requirePrimaryNetworkSigners', async () => {
    const { net, c, a, strict } = await network()
    const sender = await deployReceiver(c, alice)
    const hash = await c.wallet(bob).writeContract({ address: sender, abi: WarpReceiver.abi, functionName: 'send', args: ['0xc0ffee'] })
    const receipt = await c.publicClient.waitForTransactionReceipt({ hash })
    const log = receipt.logs.find((l) => l.address === WARP)!
    expect(log.topics).toHaveLength(3)
    expect(log.topics[1]).toBe(pad(sender))
    const unsigned = net.warpMessage(log.topics[2]!)!
    expect(unsigned).toBeDefined()
    expect(bytesToHex(parseMessage(net.signWarpMessage(unsigned)).unsigned.sourceChainId)).toBe(bytesToHex(idFromString(net.preset.cChainId)))

    // Signed by the primary network (its five validators, the default for a C-chain message).
    const byPrimary = net.signWarpMessage(unsigned)
    expect(bytesToHex(parseMessage(byPrimary).signature.signers)).toBe('0x1f')
    // Signed by the L1's three validators.
    const byL1 = net.signWarpMessage(unsigned, { subnetId: net.l1('a')!.subnetId })
    expect(bytesToHex(parseMessage(byL1).signature.signers)).toBe('0x07')

    const expected = { valid: true, sourceChainID: bytesToHex(idFromString(net.preset.cChainId)), originSender: getAddress(sender), payload: '0xc0ffee' }
    const invalid = { valid: false, sourceChainID: ZERO32, originSender: ZERO_ADDRESS, payload: '0x' }
    // `a` (requirePrimaryNetworkSigners false): checked against its own validators.
    const onA = await deployReceiver(a, alice)
    expect((await deliver(a, onA, byL1)).stored).toEqual(expected)
    expect((await deliver(a, onA, byPrimary)).stored).toEqual(invalid)
    // `strict`: only the primary network's signature counts.
    const onStrict = await deployReceiver(strict, alice)
    expect((await deliver(strict, onStrict, byPrimary)).stored).toEqual(expected)
    expect((await deliver(strict, onStrict, net.signWarpMessage(unsigned, { subnetId: net.l1('strict')!.subnetId }))).stored).toEqual(invalid)
    // Naming the destination picks the signers it checks against, as a relayer does.
    expect(bytesToHex(net.signWarpMessage(unsigned, { destination: 'a' }))).toBe(bytesToHex(byL1))
    expect(bytesToHex(net.signWarpMessage(unsigned, { destination: 'strict' }))).toBe(bytesToHex(byPrimary))
    expect(bytesToHex(net.signWarpMessage(unsigned, { destination: 'C' }))).toBe(bytesToHex(byPrimary))
    expect(() => net.signWarpMessage(unsigned, { destination: 'nope' })).toThrow('unknown chain nope')

    // A C-chain block hash, read on `a` with getVerifiedWarpBlockHash.
    const blockHash = (await c.publicClient.getBlock()).hash!
    const signedHash = net.signWarpMessage(net.warpBlockHashMessage('C', blockHash), { destination: 'a' })
    const { data } = await a.publicClient.call({
      account: carol.address,
      to: WARP,
      data: encodeFunctionData({ abi: warpAbi, functionName: 'getVerifiedWarpBlockHash', args: [0] }),
      accessList: [{ address: WARP, storageKeys: packPredicateHex(signedHash) }],
    })
    expect(decodeFunctionResult({ abi: warpAbi, functionName: 'getVerifiedWarpBlockHash', data: data! })).toEqual([
      { sourceChainID: bytesToHex(idFromString(net.preset.cChainId)), blockHash },
      true,
    ])
  })

  it('L1 → C: a message an L1 sent and its validators signed is verified on the C-chain, the result in the header', async () => {
    const { net, c, a } = await network()
    const { unsigned, messageId } = await sendWarp(a, alice, '0xdeadbeef')
    expect(bytesToHex(net.warpMessage(messageId)!)).toBe(bytesToHex(unsigned))
    const receiver = await deployReceiver(c, bob)
    const signed = net.signWarpMessage(unsigned)
    expect(bytesToHex(parseMessage(signed).signature.signers)).toBe('0x07')
    const good = await deliver(c, receiver, signed)
    expect(good.stored).toEqual({ valid: true, sourceChainID: bytesToHex(net.l1('a')!.blockchainIdBytes), originSender: alice.address, payload: '0xdeadbeef' })
    // The header's extra: ACP-176's fee state (24 bytes), then {tx: {0x0200…05: no failed bits}}.
    expect(good.extraData.slice(2 + 48)).toBe(predicateResults(good.hash, '0x'))

    // 1 of the L1's 3 validators is under the 67% quorum: valid = false, bit 0 failed.
    const weak = await deliver(c, receiver, net.signWarpMessage(unsigned, { signers: [0] }))
    expect(weak.stored).toEqual({ valid: false, sourceChainID: ZERO32, originSender: ZERO_ADDRESS, payload: '0x' })
    expect(weak.extraData.slice(2 + 48)).toBe(predicateResults(weak.hash, '0x01'))
    // A C-chain block without predicates ends with the empty results (6 zero bytes).
    const plain = await sendWarp(c, alice, '0x01')
    expect(net.warpMessage(plain.messageId)).toBeDefined()
    expect((await c.publicClient.getBlock()).extraData.slice(2 + 48)).toBe('000000000000')
  })
})

/** Predicate results for one transaction with warp tuples: codec 0 ‖ 1 tx ‖ hash ‖ 1 address ‖ 0x0200…05 ‖ u32 len ‖ bits. */
function predicateResults(txHash: Hex, failedBits: Hex): string {
  const bits = hexToBytes(failedBits)
  const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])
  return Buffer.concat([Buffer.from([0, 0]), u32(1), hexToBytes(txHash), u32(1), hexToBytes(WARP), u32(bits.length), bits]).toString('hex')
}
