/**
 * Aggregation faults for tests, over HTTP (plain fetch: `/ext/sim`, `/aggregate-signatures`, the
 * data API) and through the library: stake below quorum when validators withhold their signatures
 * (`sim.withholdWarpStake` / `network.withholdWarpStake`), and validator churn on the P-chain
 * between a message's send and its aggregation — the set current at aggregation signs, and the
 * destination's warp precompile (the C-chain's, through viem) agrees: the new aggregate verifies, a
 * signature of the old set no longer does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, decodeAbiParameters, defineChain, hexToBytes, http, parseAbi, type Hex } from 'viem'
import { AggregationError } from '../../src/network/aggregator.js'
import { idFromString, idToString } from '../../src/core/ids.js'
import { parseMessage } from '../../src/evm/warp/codec.js'
import { packPredicateHex } from '../../src/evm/warp/predicate.js'
import { startDevnet, type Devnet } from '../../src/index.js'
import { conversionValidationId } from '../../src/platform/pchain/warpMessages.js'
import { WarpReceiver } from '../fixtures/contracts/index.js'
import { warpDevnet } from '../helpers/warpDevnet.js'
import { alice, carol } from '../l1/helpers.js'
import { convertedL1 } from '../helpers/convertedL1.js'

const NOT_ENOUGH_SIGNATURES = 'failed to aggregate signatures. error: failed to collect a threshold of signatures'
const WARP = '0x0200000000000000000000000000000000000005' as const
const warpAbi = parseAbi(['function sendWarpMessage(bytes payload) returns (bytes32 messageID)'])

const sim = async (devnet: Devnet, method: string, params: object = {}) => {
  const res = await fetch(`${devnet.url}/ext/sim`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: `sim.${method}`, params }) })
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: unknown }
  expect(body.error).toBeUndefined()
  return body.result!
}
const aggregate = async (devnet: Devnet, body: object) => {
  const res = await fetch(`${devnet.url}/aggregate-signatures`, { method: 'POST', body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}
const signerCount = (signed: Uint8Array) => parseMessage(signed).signature.signers.reduce((n, b) => n + b.toString(2).replace(/0/g, '').length, 0)

describe('stake below quorum: validators withholding their signatures', () => {
  let devnet: Devnet
  let message: Hex
  beforeAll(async () => {
    ;({ devnet, sent: { unsigned: message } } = await warpDevnet('0x0a0b'))
  })
  afterAll(() => devnet.close())
  const subnetId = () => devnet.network.l1('a')!.subnetId

  it('over HTTP: sim.withholdWarpStake takes the signing stake below 67 %, the aggregator fails with icm-services\' words, a lower quorum-percentage passes', async () => {
    const { withholding } = await sim(devnet, 'withholdWarpStake', { fraction: 0.4, subnetID: subnetId() })
    expect(withholding).toHaveLength(2)
    expect((await sim(devnet, 'getFaults')).faults).toEqual((withholding as string[]).map((id) => expect.objectContaining({ kind: 'withholdWarpSignatures', node: devnet.network.node(id)!.index })))
    expect(await aggregate(devnet, { message })).toEqual({ status: 500, body: { error: NOT_ENOUGH_SIGNATURES } })
    // the data API's aggregator is the same one
    const res = await fetch(`${devnet.url}/v1/signatureAggregator/local/aggregateSignatures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) })
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: { message: NOT_ENOUGH_SIGNATURES, statusCode: 500, error: 'Internal Server Error' } })
    const passed = await aggregate(devnet, { message, 'quorum-percentage': 60 })
    expect(passed.status).toBe(200)
    expect(signerCount(Buffer.from(passed.body['signed-message']!, 'hex'))).toBe(3)
    await sim(devnet, 'clearFaults')
    expect((await aggregate(devnet, { message })).status).toBe(200)
  })

  it('through the library: network.withholdWarpStake, then network.aggregateSignatures', () => {
    const network = devnet.network
    expect(network.withholdWarpStake(0.4, subnetId()).map((n) => n.index)).toHaveLength(2)
    expect(() => network.aggregateSignatures({ message })).toThrow(expect.objectContaining({ name: 'AggregationError', shortMessage: NOT_ENOUGH_SIGNATURES, status: 500 }))
    expect(() => network.aggregateSignatures({ message })).toThrow(AggregationError)
    expect(signerCount(network.aggregateSignatures({ message, quorumPercentage: 60 }))).toBe(3)
    expect(() => network.withholdWarpStake(0, subnetId())).toThrow('fraction must be above 0 and at most 1, got 0')
    network.faults.clear()
  })
})

describe('validator churn on the P-chain between send and aggregation', () => {
  let devnet: Devnet
  let subnetId: string
  let unsigned: Uint8Array
  let receiver: Hex
  let before: Uint8Array
  const cChain = () => defineChain({ id: Number(devnet.network.cChain.chainId), name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl('C')] } } })

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, nodes: 5 })
    const network = devnet.network
    let blockchainId: string
    ;({ subnetId, blockchainId } = await convertedL1(network, { name: 'conv', chainId: 55558, warp: true }))
    // the message, sent through viem on the converted L1
    const l1 = defineChain({ id: 55558, name: 'conv', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl(blockchainId)] } } })
    const hash = await createWalletClient({ chain: l1, account: alice, transport: http() }).writeContract({ address: WARP, abi: warpAbi, functionName: 'sendWarpMessage', args: ['0x5eed'] })
    const receipt = await createPublicClient({ chain: l1, transport: http() }).waitForTransactionReceipt({ hash })
    unsigned = hexToBytes(decodeAbiParameters([{ type: 'bytes' }], receipt.logs.find((l) => l.address === WARP)!.data)[0])
    // what the set at send time signs
    before = network.aggregateSignatures({ message: unsigned })
    const deployed = await createWalletClient({ chain: cChain(), account: alice, transport: http() }).deployContract({ abi: WarpReceiver.abi, bytecode: WarpReceiver.bytecode })
    receiver = (await createPublicClient({ chain: cChain(), transport: http() }).waitForTransactionReceipt({ hash: deployed })).contractAddress!
  })
  afterAll(() => devnet.close())

  /** `receiveMessage(0)` on the C-chain with `signed` as the predicate; whether the precompile said it verified. */
  const verifiedOnC = async (signed: Uint8Array) => {
    const hash = await createWalletClient({ chain: cChain(), account: carol, transport: http() }).writeContract({ address: receiver, abi: WarpReceiver.abi, functionName: 'receiveMessage', args: [0], accessList: [{ address: WARP, storageKeys: packPredicateHex(signed) }] })
    const client = createPublicClient({ chain: cChain(), transport: http() })
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
    return client.readContract({ address: receiver, abi: WarpReceiver.abi, functionName: 'valid' })
  }

  it('a validator added, one reweighted and one removed (sim.* over HTTP): the aggregate of the current set verifies at the destination, the old one does not', async () => {
    expect(await verifiedOnC(before)).toBe(true)
    const validation = (i: number) => idToString(conversionValidationId(idFromString(subnetId), i))
    await sim(devnet, 'registerL1Validator', { subnetID: subnetId, node: 3, weight: '500', balance: '1000000000' })
    await sim(devnet, 'setL1ValidatorWeight', { validationID: validation(0), weight: '300' })
    await sim(devnet, 'setL1ValidatorWeight', { validationID: validation(1), weight: '0' })
    const current = devnet.network.validators.get(subnetId)
    expect(current.map((v) => [devnet.network.node(v.nodeId)!.index, v.weight]).sort()).toEqual([[0, 300n], [2, 100n], [3, 500n]])

    // signed at send time by nodes 0–2 (300 of the 900 now): the C-chain no longer accepts it
    expect(await verifiedOnC(before)).toBe(false)
    const { status, body } = await aggregate(devnet, { message: `0x${Buffer.from(unsigned).toString('hex')}` })
    expect(status).toBe(200)
    const after = Buffer.from(body['signed-message']!, 'hex')
    expect(signerCount(after)).toBe(3)
    expect(await verifiedOnC(after)).toBe(true)
  })

  it('through the library: a heavy validator registered after aggregation makes the earlier aggregate too light, network.aggregateSignatures signs with the new set', async () => {
    const { p } = devnet.network.wallets(1)!
    const earlier = devnet.network.aggregateSignatures({ message: unsigned })
    // node 4 joins with most of the weight: the earlier signers hold 900 of 5900
    p.registerL1Validator({ subnetId, node: devnet.network.nodes[4]!.identity, weight: 5000n, balance: 10n ** 9n })
    expect(await verifiedOnC(earlier)).toBe(false)
    expect(await verifiedOnC(devnet.network.aggregateSignatures({ message: unsigned }))).toBe(true)
  })
})
