/**
 * Times and quantities a request cannot ask for: a time past what the network keeps (year 9999)
 * is refused with the dialect's error (anvil's `The timestamp is too big`; the node dialect's
 * -32000), a number past 64 bits as geth refuses an overflowing uint64, and nothing asked for
 * stops the network answering. A long `anvil_mine` lets other requests through while it mines.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPublicClient, createTestClient, defineChain, http } from 'viem'
import { MAX_TIME } from '../../src/core/clock.js'
import { startDevnet, type Devnet } from '../../src/index.js'

const U64_MAX = 2n ** 64n - 1n
const TOO_BIG = { code: -32602, details: 'The timestamp is too big' }

let devnet: Devnet
beforeEach(async () => {
  devnet = await startDevnet({ port: 0, nodes: 2, accounts: 2 })
})
afterEach(async () => {
  await devnet.close()
})

function clients(mode: 'anvil' | 'ganache' = 'anvil') {
  const chain = defineChain({ id: 43112, name: 'l1sim C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [devnet.rpcUrl()] } } })
  return {
    test: createTestClient({ chain, mode, cacheTime: 0, transport: http(devnet.rpcUrl()) }),
    pub: createPublicClient({ chain, cacheTime: 0, transport: http(devnet.rpcUrl()) }),
  }
}

/** The error a viem call was refused with: its JSON-RPC code and the node's message. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; details: string }> {
  const error = (await call.then(
    () => expect.unreachable('the call was accepted'),
    (e: unknown) => e,
  )) as { code: number; details: string }
  return { code: error.code, details: error.details }
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })
  expect(res.status).toBe(200)
  return res.json()
}

/** Every node still answers: its health (which runs on the clock) and the C-chain's head. */
async function stillServing(pub: ReturnType<typeof clients>['pub'], height: bigint): Promise<void> {
  for (const node of devnet.nodes) {
    const health = await fetch(`${node.url}/ext/health`)
    expect(health.status).toBe(200)
    expect(((await health.json()) as { healthy: boolean }).healthy).toBe(true)
  }
  expect(await pub.getBlockNumber()).toBe(height)
}

describe('times past what the network keeps', () => {
  it('evm_increaseTime, evm_setNextBlockTimestamp, evm_mine {timestamp} and anvil_mine refuse them, and every node keeps answering', async () => {
    const { test, pub } = clients()
    const now = devnet.network.clock.now()
    // viem types seconds as a number; a bigint goes out as hex all the same.
    expect(await refusal(test.increaseTime({ seconds: U64_MAX as unknown as number }))).toEqual(TOO_BIG)
    expect(await refusal(test.increaseTime({ seconds: MAX_TIME - now + 1 }))).toEqual(TOO_BIG)
    expect(await refusal(test.setNextBlockTimestamp({ timestamp: U64_MAX }))).toEqual(TOO_BIG)
    expect(await refusal(test.request({ method: 'evm_mine', params: [{ timestamp: '0xffffffffffffffff' }] } as never))).toEqual(TOO_BIG)
    expect(await refusal(test.request({ method: 'evm_mine', params: [{ timestamp: MAX_TIME + 1 }] } as never))).toEqual(TOO_BIG)
    expect(await refusal(test.mine({ blocks: 2, interval: U64_MAX as unknown as number }))).toEqual(TOO_BIG)
    expect(await refusal(test.request({ method: 'anvil_setBlockTimestampInterval', params: ['0xffffffffffffffff'] } as never))).toEqual(TOO_BIG)
    expect(devnet.network.clock.now()).toBe(now)
    await stillServing(pub, 0n)

    // The last second itself is a time like any other: the clock, health runs and a block get there.
    await test.setNextBlockTimestamp({ timestamp: BigInt(MAX_TIME) })
    await test.mine({ blocks: 1 })
    expect((await pub.getBlock()).timestamp).toBe(BigInt(MAX_TIME))
    expect(devnet.network.clock.now()).toBe(MAX_TIME)
    await stillServing(pub, 1n)
  })

  it('sim.advanceTime refuses them with the node dialect\'s error, and every node keeps answering', async () => {
    const { pub } = clients()
    const sim = `${devnet.nodes[1]!.url}/ext/sim`
    const refused = { jsonrpc: '2.0', error: { code: -32000, message: `cannot move the clock past 9999-12-31T23:59:59Z (unix time ${MAX_TIME})`, data: null }, id: 1 }
    expect(await post(sim, `{"jsonrpc":"2.0","id":1,"method":"sim.advanceTime","params":{"seconds":${U64_MAX}}}`)).toEqual(refused)
    const now = devnet.network.clock.now()
    expect(await post(sim, { jsonrpc: '2.0', id: 1, method: 'sim.advanceTime', params: { seconds: MAX_TIME - now + 1 } })).toEqual(refused)
    expect(devnet.network.clock.now()).toBe(now)
    await stillServing(pub, 0n)

    // A jump to the last second is one health run per node, not one per period crossed.
    expect(await post(sim, { jsonrpc: '2.0', id: 1, method: 'sim.advanceTime', params: { seconds: MAX_TIME - now } })).toEqual({ jsonrpc: '2.0', result: { time: MAX_TIME }, id: 1 })
    await stillServing(pub, 0n)
  })
})

describe('numbers past 64 bits', () => {
  it('2^256 is refused by every uint64 parser, as geth refuses an overflowing uint64', async () => {
    const { test, pub } = clients()
    const huge = 2n ** 256n
    const hex = `0x${huge.toString(16)}`
    // anvil's u64 arguments (seconds, timestamps), in hex and in decimal
    expect(await refusal(test.increaseTime({ seconds: huge as unknown as number }))).toEqual({
      code: -32602,
      details: 'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go value of type u64',
    })
    expect(await refusal(test.setNextBlockTimestamp({ timestamp: huge }))).toEqual({
      code: -32602,
      details: 'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go value of type u64',
    })
    expect(await refusal(test.request({ method: 'evm_mine', params: [{ timestamp: huge.toString() }] } as never))).toEqual({
      code: -32602,
      details: `invalid argument 0: json: cannot unmarshal number ${huge} into Go value of type u64`,
    })
    expect(await refusal(test.request({ method: 'evm_setIntervalMining', params: [(2n ** 64n).toString()] } as never))).toEqual({
      code: -32602,
      details: `invalid argument 0: json: cannot unmarshal number ${2n ** 64n} into Go value of type u64`,
    })
    // geth's hexutil.Uint64 (a call's gas) and hexutil.Uint (a transaction index)
    expect(await refusal(pub.request({ method: 'eth_call', params: [{ to: '0x00000000000000000000000000000000000000aa', gas: hex as `0x${string}` }, 'latest'] }))).toEqual({
      code: -32602,
      details: 'invalid argument 0: json: cannot unmarshal hex number > 64 bits into Go struct field TransactionArgs.gas of type hexutil.Uint64',
    })
    expect(await refusal(pub.request({ method: 'eth_getTransactionByBlockNumberAndIndex', params: ['0x0', hex as `0x${string}`] }))).toEqual({
      code: -32602,
      details: 'invalid argument 1: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint',
    })
    // avalanchego's json.Uint64
    expect(await post(`${devnet.nodes[0]!.url}/ext/sim`, `{"jsonrpc":"2.0","id":1,"method":"sim.advanceTime","params":{"seconds":${huge}}}`)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls", data: null },
      id: 1,
    })
    await stillServing(pub, 0n)
  })
})

describe('a long anvil_mine', () => {
  it('lets other requests through while it mines, and mines every block', async () => {
    const { test, pub } = clients()
    const chain = devnet.network.cChain
    let mineSettled = false
    const mining = test.mine({ blocks: 2_000 }).finally(() => (mineSettled = true))
    // Once the run has started, a request on the same chain and one on another node's health are answered before it ends.
    await new Promise((resolve) => chain.events.once('block', resolve))
    const chainId = await post(devnet.rpcUrl(), { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    expect(chainId).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' })
    expect((await fetch(`${devnet.nodes[1]!.url}/ext/health`)).status).toBe(200)
    expect(mineSettled).toBe(false)
    expect(chain.store.height).toBeLessThan(2_000n)
    await mining
    expect(await pub.getBlockNumber()).toBe(2_000n)
  })

  it('evm_mine {blocks} through viem\'s ganache mode mines in the same way', async () => {
    const { test, pub } = clients('ganache')
    await test.mine({ blocks: 100 })
    expect(await pub.getBlockNumber()).toBe(100n)
  })
})
