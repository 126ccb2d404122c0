/**
 * The data API's Interchain Messaging operations (`listIcmMessages`, `getIcmMessage`,
 * `listIcmMessagesByAddress`) through @avalabs/glacier-sdk's `interchainMessaging` service, over
 * Teleporter events a fixture logs on the C-chain and two L1s (viem over HTTP). Responses are
 * validated against the Glacier schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Glacier, type Network as GlacierNetwork } from '@avalabs/glacier-sdk'
import { bytesToHex, createPublicClient, createWalletClient, defineChain, getAbiItem, getAddress, http, keccak256, toEventSelector, toHex, type Hex } from 'viem'
import { cb58Decode } from '../../../src/core/cb58.js'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { ADD_FEE_AMOUNT_SIGNATURE, ADD_FEE_AMOUNT_TOPIC, MESSAGE_EXECUTED_SIGNATURE, MESSAGE_EXECUTED_TOPIC, RECEIPT_RECEIVED_SIGNATURE, RECEIPT_RECEIVED_TOPIC } from '../../../src/indexer/teleporter.js'
import { ERC20, TeleporterEvents } from '../../fixtures/contracts/index.js'
import { alice, bob, carol, testGenesis } from '../../l1/helpers.js'

const ID_1 = keccak256(toHex('icm 1'))
const ID_2 = keccak256(toHex('icm 2'))
const ID_3 = keccak256(toHex('icm 3'))
const ID_4 = keccak256(toHex('icm 4'))
const RELAYER = '0x00000000000000000000000000000000000000aa' as const

type Chain = { name: string; evmChainId: number; blockchainId: string; id32: Hex; messenger: Hex }
let devnet: Devnet
let glacier: Glacier
let c: Chain
let a: Chain
let b: Chain
let feeToken: Hex
let send1: Hex

const chainOf = (name: string, id: number) =>
  defineChain({ id, name, nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl(name)] } } })

async function write(chain: Chain, address: Hex, abi: readonly unknown[], functionName: string, args: readonly unknown[], account = alice): Promise<Hex> {
  const viemChain = chainOf(chain.name, chain.evmChainId)
  const hash = await createWalletClient({ chain: viemChain, account, transport: http() }).writeContract({ address, abi: abi as never, functionName: functionName as never, args: args as never })
  const receipt = await createPublicClient({ chain: viemChain, transport: http() }).waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return hash
}
async function deploy(chain: Chain, abi: readonly unknown[], bytecode: string, args: readonly unknown[] = []): Promise<Hex> {
  const viemChain = chainOf(chain.name, chain.evmChainId)
  const hash = await createWalletClient({ chain: viemChain, account: alice, transport: http() }).deployContract({ abi: abi as never, bytecode: bytecode as Hex, args: args as never })
  return (await createPublicClient({ chain: viemChain, transport: http() }).waitForTransactionReceipt({ hash })).contractAddress!
}

const message = (nonce: bigint, destination: Chain, payload: Hex) => ({
  messageNonce: nonce,
  originSenderAddress: bob.address,
  destinationBlockchainID: destination.id32,
  destinationAddress: carol.address,
  requiredGasLimit: 200_000n,
  allowedRelayerAddresses: [RELAYER],
  receipts: [{ receivedMessageNonce: 7n, relayerRewardAddress: RELAYER }],
  message: payload,
})
const local = 'local' as GlacierNetwork
const refusal = async (call: Promise<unknown>) => {
  const error = (await call.then(() => undefined, (e: unknown) => e)) as { status: number; body: unknown } | undefined
  return error && { status: error.status, body: error.body }
}

beforeAll(async () => {
  devnet = await startDevnet({
    port: 0,
    dataApi: { validateResponses: true },
    l1s: [
      { name: 'a', genesis: testGenesis({ chainId: 11111 }) },
      { name: 'b', genesis: testGenesis({ chainId: 22222 }) },
    ],
  })
  glacier = new Glacier({ BASE: devnet.url })
  const n = devnet.network
  const make = (name: string, evmChainId: number, blockchainId: string): Chain => ({ name, evmChainId, blockchainId, id32: bytesToHex(cb58Decode(blockchainId, 32)), messenger: '0x' })
  c = make('C', Number(n.cChain.chainId), n.preset.cChainId)
  a = make('a', 11111, n.l1('a')!.blockchainId)
  b = make('b', 22222, n.l1('b')!.blockchainId)
  for (const chain of [c, a, b]) chain.messenger = await deploy(chain, TeleporterEvents.abi, TeleporterEvents.bytecode)
  feeToken = await deploy(a, ERC20.abi, ERC20.bytecode, ['Fee Token', 'FEE', 10n ** 24n])
  // 1: a → b, with a fee; 2: a → C, never delivered; 3: received on C from the X-chain (no send indexed).
  send1 = await write(a, a.messenger, TeleporterEvents.abi, 'sendFullMessage', [ID_1, message(1n, b, '0xc0ffee'), { feeTokenAddress: feeToken, amount: 5000n }])
  // a second apart each, so newest first is one order whatever the chain
  await n.advanceTime(1)
  await write(a, a.messenger, TeleporterEvents.abi, 'sendFullMessage', [ID_2, message(2n, c, '0x'), { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n }])
  const xChain = bytesToHex(cb58Decode(n.preset.xChainId, 32))
  await n.advanceTime(1)
  await write(c, c.messenger, TeleporterEvents.abi, 'receiveFullMessage', [ID_3, xChain, RELAYER, message(9n, c, '0x01'), true])
})
afterAll(() => devnet.close())

describe('the messenger\'s events', () => {
  it('have the topics of ITeleporterMessenger.sol, as the fixture declaring them compiles them', () => {
    for (const [name, signature, topic] of [
      ['MessageExecuted', MESSAGE_EXECUTED_SIGNATURE, MESSAGE_EXECUTED_TOPIC],
      ['ReceiptReceived', RECEIPT_RECEIVED_SIGNATURE, RECEIPT_RECEIVED_TOPIC],
      ['AddFeeAmount', ADD_FEE_AMOUNT_SIGNATURE, ADD_FEE_AMOUNT_TOPIC],
    ] as const) {
      expect(keccak256(toHex(signature))).toBe(topic)
      expect(toEventSelector(getAbiItem({ abi: TeleporterEvents.abi, name }))).toBe(topic)
    }
  })
})

describe('getIcmMessage', () => {
  it('a sent message not yet received is pending, with the message, its fee and its source transaction', async () => {
    const got = await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1.slice(2) })
    const tx = await createPublicClient({ chain: chainOf('a', 11111), transport: http() }).getTransactionReceipt({ hash: send1 })
    const block = await createPublicClient({ chain: chainOf('a', 11111), transport: http() }).getBlock({ blockNumber: tx.blockNumber })
    expect(got).toEqual({
      messageId: ID_1.slice(2),
      icmContractAddress: getAddress(a.messenger),
      sourceBlockchainId: a.blockchainId,
      destinationBlockchainId: b.blockchainId,
      sourceEvmChainId: '11111',
      destinationEvmChainId: '22222',
      messageNonce: '1',
      from: bob.address,
      to: carol.address,
      data: '0xc0ffee',
      messageExecuted: false,
      receipts: [{ receivedMessageNonce: '7', relayerRewardAddress: getAddress(RELAYER) }],
      receiptDelivered: false,
      rewardDetails: { address: getAddress(feeToken), name: 'Fee Token', symbol: 'FEE', decimals: 18, ercType: 'ERC-20', value: '5000' },
      sourceTransaction: { txHash: send1, timestamp: Number(block.timestamp), gasSpent: (tx.gasUsed * tx.effectiveGasPrice).toString() },
      status: 'pending',
    })
    // 0x-prefixed ids are the same message
    expect((await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1 })).messageId).toBe(ID_1.slice(2))
  })

  it('an AddFeeAmount on the source chain raises rewardDetails to its total (a revert undoes it)', async () => {
    const snapshot = await devnet.network.snapshot()
    await write(a, a.messenger, TeleporterEvents.abi, 'addFee', [ID_1, { feeTokenAddress: feeToken, amount: 7000n }])
    expect((await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1 })).rewardDetails).toMatchObject({ symbol: 'FEE', value: '7000' })
    // the same event from another contract is not this messenger's
    const other = await deploy(a, TeleporterEvents.abi, TeleporterEvents.bytecode)
    await write(a, other, TeleporterEvents.abi, 'addFee', [ID_1, { feeTokenAddress: feeToken, amount: 9n }])
    expect((await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1 })).rewardDetails.value).toBe('7000')
    await devnet.network.revert(snapshot)
    expect((await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1 })).rewardDetails.value).toBe('5000')
  })

  it('a receive whose source chain is not indexed is delivered_source_not_indexed', async () => {
    const got = await glacier.interchainMessaging.getIcmMessage({ messageId: ID_3.slice(2) })
    expect(got).toMatchObject({
      status: 'delivered_source_not_indexed',
      sourceBlockchainId: devnet.network.preset.xChainId,
      sourceEvmChainId: '',
      destinationBlockchainId: c.blockchainId,
      messageExecuted: true,
      destinationTransaction: { rewardRedeemer: getAddress(RELAYER), delivererAddress: alice.address },
      rewardDetails: { address: '0x0000000000000000000000000000000000000000', value: '0' },
    })
    expect(got).not.toHaveProperty('sourceTransaction')
  })

  it('refuses an unknown id with a 404 in the data API\'s error body', async () => {
    const unknown = keccak256(toHex('nothing')).slice(2)
    expect(await refusal(glacier.interchainMessaging.getIcmMessage({ messageId: unknown }))).toEqual({ status: 404, body: { message: `ICM message ${unknown} not found`, statusCode: 404, error: 'Not Found' } })
  })
})

describe('delivery, execution and receipt, and a revert', () => {
  it('pairs the receive on the destination chain; MessageExecuted and the returned receipt set their flags; a revert makes it pending again', async () => {
    const snapshot = await devnet.network.snapshot()
    const pending = await glacier.interchainMessaging.listIcmMessages({ pageSize: 1, network: local })
    expect(pending.nextPageToken).toBeDefined()
    const receive = await write(b, b.messenger, TeleporterEvents.abi, 'receiveFullMessage', [ID_1, a.id32, RELAYER, message(1n, b, '0xc0ffee'), false], carol)
    let got = await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1.slice(2) })
    expect(got).toMatchObject({ status: 'delivered', messageExecuted: false, receiptDelivered: false, destinationTransaction: { txHash: receive, rewardRedeemer: getAddress(RELAYER), delivererAddress: carol.address } })
    await write(b, b.messenger, TeleporterEvents.abi, 'executeMessage', [ID_1, a.id32])
    await write(a, a.messenger, TeleporterEvents.abi, 'receiveReceipt', [ID_1, b.id32, RELAYER, { feeTokenAddress: feeToken, amount: 5000n }])
    got = await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1.slice(2) })
    expect(got).toMatchObject({ status: 'delivered', messageExecuted: true, receiptDelivered: true })
    // the receive is listed once, as the delivered message
    expect((await glacier.interchainMessaging.listIcmMessages({ destinationBlockchainId: b.blockchainId })).messages.map((m) => [m.messageId, m.status])).toEqual([[ID_1.slice(2), 'delivered']])
    // a message sent after the snapshot leads the list: a page token now points into blocks the revert drops
    await devnet.network.advanceTime(1)
    await write(b, b.messenger, TeleporterEvents.abi, 'sendFullMessage', [ID_4, message(1n, a, '0x'), { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n }])
    const after = await glacier.interchainMessaging.listIcmMessages({ pageSize: 1 })
    expect(after.messages[0]!.messageId).toBe(ID_4.slice(2))
    const tokenAfter = after.nextPageToken!

    await devnet.network.revert(snapshot)
    got = await glacier.interchainMessaging.getIcmMessage({ messageId: ID_1.slice(2) })
    expect(got).toMatchObject({ status: 'pending', messageExecuted: false, receiptDelivered: false })
    expect(got).not.toHaveProperty('destinationTransaction')
    // a token whose last message lies in reverted blocks is refused; one from before still pages
    expect(await refusal(glacier.interchainMessaging.listIcmMessages({ pageSize: 1, pageToken: tokenAfter }))).toEqual({
      status: 400,
      body: { message: ['pageToken refers to blocks that were reverted; request the first page again'], statusCode: 400, error: 'Bad Request' },
    })
    await expect(glacier.interchainMessaging.getIcmMessage({ messageId: ID_4 })).rejects.toMatchObject({ status: 404 })
    expect((await glacier.interchainMessaging.listIcmMessages({ pageSize: 1, network: local, pageToken: pending.nextPageToken })).messages).toHaveLength(1)
  })
})

describe('listIcmMessages', () => {
  const ids = (r: { messages: { messageId: string }[] }) => r.messages.map((m) => `0x${m.messageId}`)

  it('lists every message newest first, paged with pageToken', async () => {
    expect(ids(await glacier.interchainMessaging.listIcmMessages({}))).toEqual([ID_3, ID_2, ID_1])
    const first = await glacier.interchainMessaging.listIcmMessages({ pageSize: 2 })
    expect(ids(first)).toEqual([ID_3, ID_2])
    const second = await glacier.interchainMessaging.listIcmMessages({ pageSize: 2, pageToken: first.nextPageToken })
    expect(ids(second)).toEqual([ID_1])
    expect(second.nextPageToken).toBeUndefined()
  })

  it('filters by either end\'s chain (cb58 or EVM chain id), sender, recipient and network', async () => {
    const list = async (q: Parameters<Glacier['interchainMessaging']['listIcmMessages']>[0]) => ids(await glacier.interchainMessaging.listIcmMessages(q))
    expect(await list({ sourceBlockchainId: a.blockchainId })).toEqual([ID_2, ID_1])
    expect(await list({ sourceBlockchainId: '11111' })).toEqual([ID_2, ID_1])
    expect(await list({ destinationBlockchainId: c.blockchainId })).toEqual([ID_3, ID_2])
    expect(await list({ destinationBlockchainId: '22222' })).toEqual([ID_1])
    expect(await list({ blockchainId: b.blockchainId })).toEqual([ID_1])
    expect(await list({ blockchainId: devnet.network.preset.xChainId })).toEqual([ID_3])
    expect(await list({ from: bob.address.toLowerCase(), to: carol.address })).toEqual([ID_3, ID_2, ID_1])
    expect(await list({ from: carol.address })).toEqual([])
    expect(await list({ sourceBlockchainId: 'not-a-chain' })).toEqual([])
    expect(await list({ network: 'mainnet' as GlacierNetwork })).toEqual([])
    expect(await list({ network: local })).toEqual([ID_3, ID_2, ID_1])
  })

  it('refuses bad parameters, and a page token used with other filters', async () => {
    expect(await refusal(glacier.interchainMessaging.listIcmMessages({ pageSize: 101, network: 'nope' as GlacierNetwork }))).toEqual({
      status: 400,
      body: { message: ['pageSize must not be greater than 100', 'network must be one of the following values: mainnet, fuji, testnet, local, 12345'], statusCode: 400, error: 'Bad Request' },
    })
    const token = (await glacier.interchainMessaging.listIcmMessages({ pageSize: 1 })).nextPageToken
    expect(await refusal(glacier.interchainMessaging.listIcmMessages({ pageSize: 1, pageToken: token, sourceBlockchainId: a.blockchainId }))).toEqual({
      status: 400,
      body: { message: ['pageToken was issued for a request with different parameters'], statusCode: 400, error: 'Bad Request' },
    })
  })
})

describe('listIcmMessagesByAddress', () => {
  it('lists the messages an address sent or was sent', async () => {
    const byAddress = async (address: string) => (await glacier.interchainMessaging.listIcmMessagesByAddress({ address })).messages.map((m) => `0x${m.messageId}`)
    expect(await byAddress(carol.address)).toEqual([ID_3, ID_2, ID_1])
    expect(await byAddress(bob.address.toLowerCase())).toEqual([ID_3, ID_2, ID_1])
    expect(await byAddress(alice.address)).toEqual([])
    const page = await glacier.interchainMessaging.listIcmMessagesByAddress({ address: bob.address, pageSize: 1, network: local })
    expect(page.messages).toHaveLength(1)
    const next = await glacier.interchainMessaging.listIcmMessagesByAddress({ address: bob.address, pageSize: 1, network: local, pageToken: page.nextPageToken })
    expect(next.messages[0]!.messageId).toBe(ID_2.slice(2))
  })

  it('refuses an address that is not one', async () => {
    expect(await refusal(glacier.interchainMessaging.listIcmMessagesByAddress({ address: '0x1234' }))).toEqual({
      status: 400,
      body: { message: ['Invalid address format'], statusCode: 400, error: 'Bad Request' },
    })
    expect(await refusal(glacier.interchainMessaging.listIcmMessagesByAddress({ address: '0x1234', pageSize: 0 }))).toEqual({
      status: 400,
      body: { message: ['pageSize must not be less than 1', 'Invalid address format'], statusCode: 400, error: 'Bad Request' },
    })
  })
})
