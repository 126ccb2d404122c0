import { request } from 'node:http'
import { Socket } from 'node:net'
import { encodeDeployData, getContractAddress, parseEther, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startDevnet, type Devnet } from '../../src/index.js'
import { logFilter, matchesLogFilter } from '../../src/rpc/methods/logFilter.js'
import { createSubscriptionRegistry, encodeSubscriptionId } from '../../src/rpc/subscriptions.js'
import type { LogEntry } from '../../src/evm/types.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const SUB_ID = /^0x[1-9a-f][0-9a-f]*$/

/** A client socket whose frames are read in order, without timers. */
type Client = { ws: WebSocket; next(): Promise<string>; call(id: number, method: string, params?: unknown): Promise<unknown> }

async function connect(url: string): Promise<Client> {
  const ws = new WebSocket(url)
  const inbox: string[] = []
  const waiting: ((frame: string) => void)[] = []
  ws.on('message', (data) => {
    const frame = String(data)
    const waiter = waiting.shift()
    if (waiter) waiter(frame)
    else inbox.push(frame)
  })
  await new Promise<void>((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const next = () => new Promise<string>((resolve) => (inbox.length > 0 ? resolve(inbox.shift()!) : waiting.push(resolve)))
  return {
    ws,
    next,
    async call(id, method, params = []) {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
      return JSON.parse(await next())
    },
  }
}

let devnet: Devnet
beforeEach(async () => {
  devnet = await startDevnet({ port: 0 })
})
afterEach(async () => {
  await devnet.close()
})

const listeners = () => {
  const events = devnet.network.cChain.events
  return { block: events.listenerCount('block'), logs: events.listenerCount('logs'), pending: events.listenerCount('pendingTransaction') }
}

async function rpc(method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(devnet.rpcUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return res.json() as Promise<{ result?: unknown; error?: unknown }>
}

/** Signs an ERC-20 deployment (its constructor emits a Transfer) from dev account 0. */
async function signDeploy(): Promise<{ raw: Hex; contract: Hex }> {
  const account = privateKeyToAccount(devnet.network.devAccounts[0]!.privateKey)
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: Number(devnet.network.cChain.chainId),
    nonce: 0,
    gas: 3_000_000n,
    maxFeePerGas: 300_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    data: encodeDeployData({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', parseEther('1000')] }),
  })
  return { raw, contract: getContractAddress({ from: account.address, nonce: 0n }).toLowerCase() as Hex }
}

// First in the file, so no keep-alive socket of an earlier test is still closing during the count.
describe('startDevnet().close()', () => {
  it('leaves no sockets, servers or timers behind', async () => {
    await devnet.close()
    const count = () =>
      process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'TCPServerWrap' || r === 'Timeout').length
    const baseline = count()
    const started = await startDevnet({ port: 0, clock: { mode: 'realtime' }, mining: { mode: 'interval', interval: 1 } })
    const client = await connect(started.wsUrl())
    await client.call(1, 'eth_subscribe', ['newHeads'])
    // A plain request without keep-alive, so the client side keeps no pooled socket of its own.
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(started.rpcUrl(), { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        let body = ''
        res.on('data', (chunk) => (body += chunk)).on('end', () => resolve(body))
      })
      req.on('error', reject).end('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')
    })
    expect(answer).toBe('{"jsonrpc":"2.0","id":1,"result":"0xa868"}\n')
    expect(count()).toBeGreaterThan(baseline)
    const port = Number(new URL(started.url).port)
    const ours = () =>
      (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter(
        (h) => h === started.server.server || (h instanceof Socket && (h.localPort === port || h.remotePort === port)),
      )
    expect(ours().length).toBeGreaterThan(0)
    const clientClosed = new Promise((resolve) => client.ws.once('close', resolve))
    await started.close()
    await clientClosed
    await new Promise((resolve) => setImmediate(resolve))
    expect(ours()).toEqual([])
    // At most the baseline: vitest's own timers may end meanwhile, but nothing of l1sim may remain.
    expect(count()).toBeLessThanOrEqual(baseline)
    // Closing twice is harmless.
    await started.close()
  })
})

describe('eth_subscribe over WebSocket', () => {
  it('notifies newHeads, logs and pending transactions for a transaction sent over HTTP', async () => {
    const { raw, contract } = await signDeploy()
    const before = listeners()
    const client = await connect(devnet.wsUrl())

    const heads = (await client.call(1, 'eth_subscribe', ['newHeads'])) as { result: string }
    const logs = (await client.call(2, 'eth_subscribe', ['logs', { address: contract, topics: [TRANSFER_TOPIC] }])) as { result: string }
    const others = (await client.call(3, 'eth_subscribe', ['logs', { address: '0x00000000000000000000000000000000000000aa' }])) as { result: string }
    const pending = (await client.call(4, 'eth_subscribe', ['newPendingTransactions'])) as { result: string }
    for (const sub of [heads, logs, others, pending]) expect(sub.result).toMatch(SUB_ID)
    expect(listeners()).toEqual({ block: before.block + 1, logs: before.logs + 2, pending: before.pending + 1 })

    const sent = await rpc('eth_sendRawTransaction', [raw])
    const hash = sent.result as Hex
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])).result as { blockHash: Hex; blockNumber: Hex }

    // Automine: the pool event, then the block, then its logs, all before the HTTP answer.
    const frames = [await client.next(), await client.next(), await client.next()]
    for (const frame of frames) expect(frame.endsWith('}\n')).toBe(true)
    const [pendingNote, headNote, logNote] = frames.map((f) => JSON.parse(f))
    expect(pendingNote).toEqual({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: pending.result, result: hash } })
    expect(headNote.method).toBe('eth_subscription')
    expect(headNote.params.subscription).toBe(heads.result)
    expect(headNote.params.result).toMatchObject({ number: '0x1', hash: receipt.blockHash })
    expect(headNote.params.result).not.toHaveProperty('transactions')
    expect(logNote.params).toEqual({
      subscription: logs.result,
      result: {
        address: contract,
        topics: [TRANSFER_TOPIC, `0x${'0'.repeat(64)}`, expect.stringMatching(/^0x0{24}f39fd6e51aad88f6f4ce6ab8827279cfffb92266$/)],
        data: `0x${parseEther('1000').toString(16).padStart(64, '0')}`,
        blockNumber: '0x1',
        transactionHash: hash,
        transactionIndex: '0x0',
        blockHash: receipt.blockHash,
        logIndex: '0x0',
        removed: false,
      },
    })

    for (const [i, sub] of [heads, logs, others, pending].entries()) {
      expect(await client.call(10 + i, 'eth_unsubscribe', [sub.result])).toEqual({ jsonrpc: '2.0', id: 10 + i, result: true })
    }
    expect(await client.call(20, 'eth_unsubscribe', [heads.result])).toEqual({
      jsonrpc: '2.0',
      id: 20,
      error: { code: -32000, message: 'subscription not found' },
    })
    expect(listeners()).toEqual(before)
    client.ws.close()
  })

  it('sends full pending transactions when asked with `true`', async () => {
    const { raw } = await signDeploy()
    const client = await connect(devnet.wsUrl())
    const sub = (await client.call(1, 'eth_subscribe', ['newPendingTransactions', true])) as { result: string }
    const hash = (await rpc('eth_sendRawTransaction', [raw])).result
    const note = JSON.parse(await client.next())
    expect(note.params.subscription).toBe(sub.result)
    expect(note.params.result).toMatchObject({ hash, blockHash: null, blockNumber: null, nonce: '0x0', type: '0x2' })
    client.ws.close()
  })

  it('removes the listeners of every subscription when the socket closes', async () => {
    const before = listeners()
    const client = await connect(devnet.wsUrl())
    await client.call(1, 'eth_subscribe', ['newHeads'])
    await client.call(2, 'eth_subscribe', ['logs', {}])
    await client.call(3, 'eth_subscribe', ['newPendingTransactions'])
    expect(listeners()).not.toEqual(before)
    const [serverSide] = devnet.server.websocketServer.clients
    const closed = new Promise((resolve) => serverSide!.once('close', resolve))
    client.ws.close()
    await closed
    expect(listeners()).toEqual(before)
  })

  it("answers bad subscriptions with geth's errors", async () => {
    const client = await connect(devnet.wsUrl())
    const error = async (params: unknown) => ((await client.call(1, 'eth_subscribe', params)) as { error: unknown }).error
    expect(await error(['newHeadz'])).toEqual({ code: -32601, message: 'no "newHeadz" subscription in eth namespace' })
    expect(await error({ name: 'newHeads' })).toEqual({ code: -32602, message: 'non-array args' })
    expect(await error([1])).toEqual({ code: -32602, message: 'expected subscription name as first argument' })
    expect(await error(['newHeads', true])).toEqual({ code: -32602, message: 'too many arguments, want at most 1' })
    expect(await error(['logs'])).toEqual({ code: -32602, message: 'missing value for required argument 1' })
    expect(await error(['logs', { topics: [1] }])).toEqual({ code: -32602, message: 'invalid argument 1: invalid topic(s)' })
    expect(await error(['logs', { address: '0x12' }])).toEqual({
      code: -32602,
      message: 'invalid argument 1: invalid address: hex has invalid length 1 after decoding; expected 20 for address',
    })
    expect(await error(['logs', { fromBlock: '0x5', toBlock: '0x2' }])).toEqual({
      code: -32000,
      message: 'invalid from and to block combination: from > to',
    })
    expect(await error(['newPendingTransactions', 'yes'])).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go value of type bool',
    })
    client.ws.close()
  })

  it('answers batches and drops the connection after unparsable JSON', async () => {
    const client = await connect(devnet.wsUrl())
    client.ws.send('[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"net_version"}]')
    expect(await client.next()).toBe('[{"jsonrpc":"2.0","id":1,"result":"0xa868"},{"jsonrpc":"2.0","id":2,"result":"43112"}]\n')
    const closed = new Promise((resolve) => client.ws.once('close', resolve))
    client.ws.send('{bad')
    expect(await client.next()).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}\n')
    await closed
  })
})

describe('subscription registry', () => {
  it('holds notifications until the subscribing call has answered, as geth activates notifiers', () => {
    const frames: string[] = []
    let stopped = 0
    const registry = createSubscriptionRegistry({ send: (text) => frames.push(text), randomBytes: () => new Uint8Array(16).fill(0x0a) })
    const call = registry.forCall()
    let notify: ((result: unknown) => void) | undefined
    const id = call.subscribe((n) => {
      notify = n
      n('early')
      return () => void stopped++
    })
    expect(id).toBe(`0x${'0a'.repeat(16).replace(/^0/, '')}`)
    expect(frames).toEqual([])
    call.activate()
    notify!({ later: '<&>' })
    expect(frames).toEqual([
      `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":"early"}}\n`,
      `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":{"later":"\\u003c\\u0026\\u003e"}}}\n`,
    ])
    expect(registry.size).toBe(1)
    registry.close()
    expect(stopped).toBe(1)
    notify!('after close')
    expect(frames).toHaveLength(2)
  })

  it('writes ids as quantities: leading zeros trimmed, 0x0 for zero bytes', () => {
    expect(encodeSubscriptionId(Uint8Array.from([0, 0, 1, 0xab]))).toBe('0x1ab')
    expect(encodeSubscriptionId(new Uint8Array(16))).toBe('0x0')
  })
})

describe('logs filter (filters.FilterCriteria)', () => {
  const log = (over: Partial<LogEntry> = {}): LogEntry => ({
    address: '0x00000000000000000000000000000000000000aa',
    topics: [TRANSFER_TOPIC, `0x${'11'.repeat(32)}`],
    data: '0x',
    logIndex: 0,
    transactionIndex: 0,
    transactionHash: `0x${'22'.repeat(32)}`,
    blockHash: `0x${'33'.repeat(32)}`,
    blockNumber: 5n,
    ...over,
  })

  it('matches by address (one or many), topics by position, null and [] as wildcards', () => {
    const match = (raw: unknown, entry = log()) => matchesLogFilter(logFilter(raw), entry)
    expect(match({})).toBe(true)
    expect(match(null)).toBe(true)
    expect(match({ address: '0x00000000000000000000000000000000000000AA' })).toBe(true)
    expect(match({ address: ['0x00000000000000000000000000000000000000bb'] })).toBe(false)
    expect(match({ topics: [null, `0x${'11'.repeat(32)}`] })).toBe(true)
    expect(match({ topics: [[], [`0x${'11'.repeat(32)}`, `0x${'44'.repeat(32)}`]] })).toBe(true)
    expect(match({ topics: [`0x${'44'.repeat(32)}`] })).toBe(false)
    // A null inside a list makes the whole position a wildcard (geth breaks out of the loop).
    expect(match({ topics: [[`0x${'44'.repeat(32)}`, null]] })).toBe(true)
    expect(match({ topics: [null, null, null] })).toBe(false)
    expect(match({ fromBlock: '0x6' })).toBe(false)
    expect(match({ fromBlock: '0x5', toBlock: 'latest' })).toBe(true)
    expect(match({ toBlock: '0x4' })).toBe(false)
  })

  it("refuses bad criteria with coreth's messages", () => {
    const message = (raw: unknown) => {
      try {
        logFilter(raw)
      } catch (err) {
        return (err as Error).message
      }
      return 'parsed'
    }
    expect(message({ blockHash: `0x${'11'.repeat(32)}`, fromBlock: '0x1' })).toBe(
      'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
    )
    expect(message({ address: 5 })).toBe('invalid addresses in query')
    expect(message({ address: [5] })).toBe('non-string address at index 0')
    expect(message({ address: ['0xzz'] })).toBe('invalid address at index 0: invalid hex string')
    expect(message({ address: 'aa' })).toBe('invalid address: hex string without 0x prefix')
    expect(message({ topics: ['0x1'] })).toBe('hex string of odd length')
    expect(message({ topics: [[`0x${'11'.repeat(31)}`]] })).toBe('hex has invalid length 31 after decoding; expected 32 for topic')
    expect(message({ topics: 'x' })).toBe('json: cannot unmarshal string into Go struct field input.topics of type []interface {}')
    expect(message('x')).toBe('json: cannot unmarshal string into Go value of type filters.input')
    expect(message({ address: Array.from({ length: 1001 }, () => '0x00000000000000000000000000000000000000aa') })).toBe('exceed max addresses')
  })
})
