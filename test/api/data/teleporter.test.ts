import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, createPublicClient, createWalletClient, custom, defineChain, getAbiItem, keccak256, toEventSelector, toHex, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { indexerFor } from '../../../src/api/routes/data/networkSource.js'
import { cb58Decode } from '../../../src/core/cb58.js'
import {
  decodeTeleporterLog,
  RECEIVE_CROSS_CHAIN_MESSAGE_SIGNATURE,
  RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC,
  SEND_CROSS_CHAIN_MESSAGE_SIGNATURE,
  SEND_CROSS_CHAIN_MESSAGE_TOPIC,
} from '../../../src/indexer/teleporter.js'
import { startDevnet, type Devnet } from '../../../src/index.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'
import { TeleporterEvents } from '../../fixtures/contracts/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(MNEMONIC, { addressIndex: 0 })
const relayer = mnemonicToAccount(MNEMONIC, { addressIndex: 3 })
const DATA_DIR = 'test/.tmp/data-api-teleporter'
const MESSAGE_A = keccak256(toHex('message A'))
const MESSAGE_B = keccak256(toHex('message B'))
const MESSAGE_C = keccak256(toHex('message C'))

let devnet: Devnet
let chainId: string
let messenger: Hex
let deployHash: Hex
let call: (account: typeof alice, functionName: 'sendMessage' | 'receiveMessage', args: readonly unknown[]) => Promise<Hex>
/** 32-byte blockchain ids of the primary network's chains, from their cb58 form. */
let cChainId: Hex
let xChainId: Hex

type Json = Record<string, any>
const get = async (path: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${devnet.url}/v1/chains/${chainId}${path}`)
  return { status: res.status, body: (await res.json()) as Json }
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, node: { dataDir: DATA_DIR } })
  const chain = devnet.network.cChain
  chainId = String(chain.chainId)
  cChainId = bytesToHex(cb58Decode(devnet.network.preset.cChainId, 32))
  xChainId = bytesToHex(cb58Decode(devnet.network.preset.xChainId, 32))
  const provider = createEIP1193Provider({ network: devnet.network, chain })
  const viemChain = defineChain({ id: Number(chain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('C')] } } })
  const client = createPublicClient({ chain: viemChain, transport: custom(provider) })
  deployHash = await createWalletClient({ chain: viemChain, account: alice, transport: custom(provider) }).deployContract({ abi: TeleporterEvents.abi, bytecode: TeleporterEvents.bytecode as Hex })
  messenger = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
  call = async (account, functionName, args) => {
    const wallet = createWalletClient({ chain: viemChain, account, transport: custom(provider) })
    const hash = await wallet.writeContract({ address: messenger, abi: TeleporterEvents.abi, functionName, args: args as never })
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
    return hash
  }
})
afterAll(async () => {
  await devnet.close()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

describe('the TeleporterMessenger events', () => {
  it('have the topics of ITeleporterMessenger.sol, as the fixture declaring its structs compiles them', () => {
    expect(keccak256(toHex(SEND_CROSS_CHAIN_MESSAGE_SIGNATURE))).toBe(SEND_CROSS_CHAIN_MESSAGE_TOPIC)
    expect(keccak256(toHex(RECEIVE_CROSS_CHAIN_MESSAGE_SIGNATURE))).toBe(RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC)
    expect(toEventSelector(getAbiItem({ abi: TeleporterEvents.abi, name: 'SendCrossChainMessage' }))).toBe(SEND_CROSS_CHAIN_MESSAGE_TOPIC)
    expect(toEventSelector(getAbiItem({ abi: TeleporterEvents.abi, name: 'ReceiveCrossChainMessage' }))).toBe(RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC)
  })

  it('are not messages when only the topic matches', () => {
    const log = { address: '0x00000000000000000000000000000000000000aa', data: `0x${'00'.repeat(32)}` as Hex }
    expect(decodeTeleporterLog({ ...log, topics: [SEND_CROSS_CHAIN_MESSAGE_TOPIC, MESSAGE_A, cChainId] })).toBeUndefined()
    expect(decodeTeleporterLog({ ...log, topics: [RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC, MESSAGE_A, cChainId] })).toBeUndefined()
  })
})

describe('teleporterMessageInfo (getTransaction, op 10; getDeploymentTransaction, op 9)', () => {
  it('marks a send as the source transaction, with the destination blockchain id in cb58', async () => {
    const hash = await call(alice, 'sendMessage', [MESSAGE_A, xChainId, '0x1234'])
    const { status, body } = await get(`/transactions/${hash}`)
    expect(status).toBe(200)
    expect(body.teleporterMessageInfo).toEqual({ teleporterMessageId: MESSAGE_A.slice(2), direction: 'SOURCE_TRANSACTION', destinationChainId: devnet.network.preset.xChainId })
    expect(Object.keys(body).at(-1)).toBe('teleporterMessageInfo')
  })

  it('marks a delivery as the destination transaction, with the source blockchain id in cb58', async () => {
    const hash = await call(relayer, 'receiveMessage', [MESSAGE_B, cChainId, xChainId, alice.address, '0x'])
    const { body } = await get(`/transactions/${hash}`)
    expect(body.teleporterMessageInfo).toEqual({ teleporterMessageId: MESSAGE_B.slice(2), direction: 'DESTINATION_TRANSACTION', sourceChainId: devnet.network.preset.cChainId })
  })

  it('is absent for a transaction without a message', async () => {
    const tx = await get(`/transactions/${deployHash}`)
    expect(tx.status).toBe(200)
    expect(tx.body).not.toHaveProperty('teleporterMessageInfo')
    const deployment = await get(`/contracts/${messenger}/transactions:getDeployment`)
    expect(deployment.body.nativeTransaction.txHash).toBe(deployHash)
    expect(deployment.body).not.toHaveProperty('teleporterMessageInfo')
  })

  it('is dropped with the blocks a revert removes', async () => {
    const network = devnet.network
    const indexer = indexerFor(network.cChain)
    const snapshot = await network.snapshot()
    const reverted = await call(alice, 'sendMessage', [MESSAGE_C, xChainId, '0x'])
    expect(indexer.teleporterMessages(reverted).map((m) => m.messageId)).toEqual([MESSAGE_C])
    const place = indexer.transaction(reverted)!.blockNumber
    expect(await network.revert(snapshot)).toBe(true)
    expect((await get(`/transactions/${reverted}`)).status).toBe(404)
    expect(indexer.teleporterMessages(reverted)).toEqual([])
    // A transaction in the same place now carries only its own message.
    const replacement = await call(relayer, 'receiveMessage', [MESSAGE_A, xChainId, cChainId, relayer.address, '0x'])
    const { body } = await get(`/transactions/${replacement}`)
    expect(body.nativeTransaction.blockNumber).toBe(String(place))
    expect(body.teleporterMessageInfo).toEqual({ teleporterMessageId: MESSAGE_A.slice(2), direction: 'DESTINATION_TRANSACTION', sourceChainId: devnet.network.preset.xChainId })
  })
})
