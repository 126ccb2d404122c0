import { afterEach, describe, expect, it } from 'vitest'
import { hexToBytes, type Hex } from 'viem'
import { idToString } from '../../src/core/ids.js'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ICMReceiver } from '../fixtures/contracts/index.js'
import { bob } from '../l1/helpers.js'
import { deployReceiver, WARP } from '../l1/icmHelpers.js'
import { icmNetworkOptions, sendMessage, withMessengers } from '../l1/relayerHelpers.js'

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) })
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() }
}

/** A devnet with the relayer in manual mode and its API on its own port, the messenger on a, b and C, a receiver on b. */
async function setup() {
  devnet = await startDevnet({ port: 0, relayerPort: 0, ...icmNetworkOptions({ mode: 'manual' }) })
  const n = await withMessengers(devnet.network)
  const receiver = await deployReceiver(n.b, bob, n.messenger)
  const received = () => n.b.publicClient.readContract({ address: receiver, abi: ICMReceiver.abi, functionName: 'received' })
  return { n, receiver, received, relayerUrl: devnet.relayerUrl!, nodeUrl: `${devnet.url}/icm-relayer` }
}

describe("the relayer's API (icm-relayer's /relay, /relay/message, /health)", () => {
  it('POST /relay delivers the message of a source block on request; nothing moves before', async () => {
    const { n, receiver, received, relayerUrl } = await setup()
    const sent = await sendMessage(n, n.a, n.b, receiver, '0x42')
    const warpId = sent.receipt.logs.find((l) => l.address === WARP)!.topics[2]!
    await n.network.advanceTime(30)
    await n.network.relayer.settled()
    expect(await received()).toBe(0n)
    const icmStatus = async () => ((await (await fetch(`${devnet!.url}/v1/icm/messages/${sent.id.slice(2)}`)).json()) as { status: string }).status
    expect(await icmStatus()).toBe('pending')

    const request = { 'blockchain-id': n.network.l1('a')!.blockchainId, 'message-id': warpId, 'block-num': Number(sent.receipt.blockNumber) }
    const answer = await post(`${relayerUrl}/relay`, request)
    expect(answer.status).toBe(200)
    const hash = (JSON.parse(answer.text) as { 'transaction-hash': Hex })['transaction-hash']
    expect(answer.text).toBe(JSON.stringify({ 'transaction-hash': hash }))
    expect((await n.b.publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await received()).toBe(1n)
    // The data API's ICM message (the indexer pairs the send with the relayer's receive).
    expect(await icmStatus()).toBe('delivered')

    // Relayed again: icm-relayer's ShouldSendMessage finds it delivered and answers the zero hash.
    expect(await post(`${relayerUrl}/relay`, { ...request, 'blockchain-id': n.a.blockchainId })).toMatchObject({ status: 200, text: JSON.stringify({ 'transaction-hash': `0x${'00'.repeat(32)}` }) })
    expect(await received()).toBe(1n)
  })

  it('POST /relay/message takes the unsigned message (base64) and the messenger as source address, on the nodes under /icm-relayer', async () => {
    const { n, receiver, received, nodeUrl } = await setup()
    const sent = await sendMessage(n, n.c, n.b, receiver, '0x43')
    const data = sent.receipt.logs.find((l) => l.address === WARP)!.data
    const bytes = Buffer.from(hexToBytes(data)).toString('base64')
    expect(await post(`${nodeUrl}/relay/message`, { 'unsigned-message-bytes': bytes, 'source-address': bob.address })).toEqual({ status: 500, type: 'text/plain; charset=utf-8', text: 'error processing message: application relayer not found\n' })
    const answer = await post(`${nodeUrl}/relay/message`, { 'unsigned-message-bytes': bytes, 'source-address': n.messenger })
    expect(answer.status).toBe(200)
    expect(await received()).toBe(1n)
    expect(n.network.relayer.deliveries()).toMatchObject([{ sourceChain: 'C', destinationChain: 'b', status: 'delivered', txHash: JSON.parse(answer.text)['transaction-hash'], sourceTxHash: sent.receipt.transactionHash, sourceBlockNumber: sent.receipt.blockNumber }])
  })

  it("refuses as icm-relayer's handlers do", async () => {
    const { n, relayerUrl } = await setup()
    const a = n.network.l1('a')!.blockchainId
    const id: Hex = `0x${'11'.repeat(32)}`
    expect(await post(`${relayerUrl}/relay`, '')).toEqual({ status: 400, type: 'text/plain; charset=utf-8', text: 'EOF\n' })
    expect((await post(`${relayerUrl}/relay`, { 'block-num': 'one' })).text).toBe('json: cannot unmarshal string into Go struct field RelayMessageRequest.block-num of type uint64\n')
    expect((await post(`${relayerUrl}/relay`, { 'blockchain-id': 'nope', 'message-id': id })).text).toBe('invalid blockchainID: input string is smaller than the checksum size\n')
    expect((await post(`${relayerUrl}/relay`, { 'blockchain-id': '0x1234', 'message-id': id })).text).toBe('invalid blockchainID: invalid hash length: expected 32 bytes but got 2\n')
    expect((await post(`${relayerUrl}/relay`, { 'blockchain-id': a, 'message-id': '0xzz' })).text).toBe("invalid messageID: encoding/hex: invalid byte: U+007A 'z'\n")
    expect(await post(`${relayerUrl}/relay`, { 'blockchain-id': id, 'message-id': id })).toMatchObject({ status: 500, text: `error processing message: source client not set for blockchain: ${idToString(hexToBytes(id))}\n` })
    expect(await post(`${relayerUrl}/relay`, { 'blockchain-id': a, 'message-id': id, 'block-num': 1 })).toMatchObject({ status: 500, text: 'error processing message: could not fetch warp message from ID: found more than 1 log: 0\n' })
    expect(await post(`${relayerUrl}/relay/message`, { 'unsigned-message-bytes': 'AAAA', 'source-address': 'nope' })).toMatchObject({ status: 400 })
    expect((await post(`${relayerUrl}/relay/message`, { 'unsigned-message-bytes': '***' })).text).toBe('illegal base64 data at input byte 0\n')
    expect(await post(`${relayerUrl}/elsewhere`, {})).toMatchObject({ status: 404, text: '404 page not found\n' })
  })

  it('GET /health is down while a delivery fails (withheld signatures), with the failing source chain', async () => {
    const { n, receiver, received, relayerUrl } = await setup()
    const health = async () => {
      const response = await fetch(`${relayerUrl}/health`)
      return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as { status: string; details: Record<string, { status: string; error?: string }> } }
    }
    expect(await health()).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', body: { status: 'up', details: { 'relayers-all': { status: 'up' }, 'network-all': { status: 'up' } } } })
    n.network.faults.withholdWarpSignatures(0)
    n.network.faults.withholdWarpSignatures(1)
    const sent = await sendMessage(n, n.a, n.b, receiver, '0x44')
    const warpId = sent.receipt.logs.find((l) => l.address === WARP)!.topics[2]!
    const request = { 'blockchain-id': n.a.blockchainId, 'message-id': warpId, 'block-num': Number(sent.receipt.blockNumber) }
    expect(await post(`${relayerUrl}/relay`, request)).toMatchObject({
      status: 500,
      text: 'error processing message: failed to create signed warp message via AppRequest network: failed to aggregate signatures. error: failed to collect a threshold of signatures\n',
    })
    const a = n.network.l1('a')!.blockchainId
    expect(await health()).toMatchObject({ status: 503, body: { status: 'down', details: { 'relayers-all': { status: 'down', error: `relayers are unhealthy for blockchains [${a}]` } } } })
    n.network.faults.resumeWarpSignatures(0)
    expect((await post(`${relayerUrl}/relay`, request)).status).toBe(200)
    expect(await received()).toBe(1n)
    expect((await health()).status).toBe(200)
  })

  it('sim.* controls it over the node API: getRelayer, relayerFault, relayMessages, setRelayerMode', async () => {
    const { n, receiver, received } = await setup()
    const sim = async (method: string, params: unknown = {}) =>
      (await fetch(`${devnet!.url}/ext/sim`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: `sim.${method}`, params }) })).json() as Promise<any>
    const sent = await sendMessage(n, n.a, n.b, receiver, '0x45')
    const state = await sim('getRelayer')
    expect(state.result).toMatchObject({ address: n.network.relayer.address, messenger: n.messenger.toLowerCase(), mode: { mode: 'manual' }, pending: [{ messageId: sent.id, status: 'pending', nonce: '1', sourceChain: 'a', destinationChain: 'b' }] })
    expect((await sim('relayerFault', { fault: 'duplicate' })).result.pending).toHaveLength(1)
    const relayed = await sim('relayMessages', {})
    expect(relayed.result.deliveries).toMatchObject([
      { messageId: sent.id, status: 'delivered' },
      { messageId: sent.id, status: 'reverted', duplicate: true, revertReason: 'TeleporterMessenger: message already received' },
    ])
    expect(await received()).toBe(1n)
    expect(await sim('relayMessages', { messageID: sent.id })).toMatchObject({ error: { code: -32000, message: `no pending ICM message ${sent.id}` } })
    expect(await sim('setRelayerMode', { mode: 'sometimes' })).toMatchObject({ error: { code: -32000, message: 'relayer mode must be auto, manual, delay=<N>s or delay=<N>blocks, got "sometimes"' } })
    expect((await sim('setRelayerMode', { mode: 'delay=3s' })).result).toEqual({ deliveries: [] })
    expect((await sim('getRelayer')).result.mode).toEqual({ mode: 'delay', seconds: 3 })
  })
})
