// The indexer and the /v1 data API at scale (issue 6). Transactions are generated through the chain:
// each goes through the pool, the miner and the EVM, half of them native transfers and half ERC-20
// transfers (one Transfer log each), from 20 senders to 200 recipients, in blocks of 250. The
// senders are impersonated (unsigned transactions), so signing does not dominate the bench's own
// run time; block building does not depend on it.
//
// Reports, at each checkpoint (100,000 transactions, and 1,000,000 with BENCH_INDEXER_TXS=1000000):
// - the indexer's cost per block as a share of block-building time (timed around its handler);
// - heap bytes per indexed transaction of the index alone (heap with the index minus without it,
//   after a full GC);
// - p50 / p99 of every /v1 list endpoint over 1,000 requests each after 100 untimed ones, measured
//   three ways:
//   - http: a keep-alive client on the loopback, on its own thread (`httpWorker.js`: its garbage
//     is not the server's), from sending the request to the last byte read;
//   - inProcess: the server's own time for those same requests, from the request's headers parsed
//     to the response's last byte handed to the socket (node's `http.server.request.start` and
//     `http.server.response.finish` diagnostics channels): routing, hooks, handler, serialisation;
//   - inject: fastify's `inject` (light-my-request's simulated socket). No target: it copies each
//     response into Buffers, and with a multi-GB heap those buffers' external memory brings on
//     full collections of the whole heap every few hundred large responses, which a server
//     writing strings to a real socket does not have (issue 6's closing note has the figures).
// Figures only; `npm run bench` prints them. BENCH_INDEXER_ENDPOINTS=a,b measures only those endpoints.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { setImmediate as turn } from 'node:timers/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { encodeDeployData, encodeFunctionData, parseEther } from 'viem'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const erc20 = JSON.parse(readFileSync(join(root, 'test/fixtures/contracts/ERC20.json'), 'utf8'))
const now = () => performance.now()
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
const heapAfterGc = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const PER_BLOCK = 250
const SAMPLES = 1000
const WARMUP = 100

/** The HTTP client thread (`httpWorker.js`): `send` resolves to `{ status, ms, body? }`. */
function httpClient() {
  const worker = new Worker(new URL('./httpWorker.js', import.meta.url))
  worker.unref()
  const waiting = new Map()
  let next = 0
  worker.on('message', ({ id, error, ...answer }) => {
    const { resolve, reject } = waiting.get(id)
    waiting.delete(id)
    if (error) reject(new Error(error))
    else resolve(answer)
  })
  return {
    send: (url, method, payload, wantBody) => new Promise((resolve, reject) => {
      const id = next++
      waiting.set(id, { resolve, reject })
      worker.postMessage({ id, url, method, payload, wantBody })
    }),
    close: () => worker.terminate(),
  }
}

const percentile = (sorted, p) => +sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(3)

export async function indexerBench({ transactions = Number(process.env.BENCH_INDEXER_TXS ?? 100_000) } = {}) {
  const { startDevnet } = await import('../dist/index.js')
  const { createEvmIndexer } = await import('../dist/indexer/index.js')
  const { createUnsignedTx } = await import('../dist/evm/unsignedTx.js')
  const { submitTransaction } = await import('../dist/evm/send.js')
  const { indexerFor } = await import('../dist/api/routes/data/networkSource.js')
  const devnet = await startDevnet({ nodes: 1, port: 0, mining: { mode: 'manual' }, dataApi: { rateLimits: false } })
  const { network } = devnet
  const timer = serverTimer(devnet.server)
  const client = httpClient()
  const chain = network.cChain
  const chainId = String(chain.chainId)
  const senders = network.devAccounts.map((a) => a.address.toLowerCase())
  const recipients = Array.from({ length: 200 }, (_, i) => `0x${(0xbe00 + i).toString(16).padStart(40, '0')}`)
  const nonces = new Map(senders.map((s) => [s, 0n]))
  const add = async (from, data) => {
    const nonce = nonces.get(from)
    nonces.set(from, nonce + 1n)
    const tx = createUnsignedTx(chain.common, { type: 2, nonce, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, ...data }, from)
    await submitTransaction(chain, chain.miner, tx, from, `0x${Buffer.from(tx.hash()).toString('hex')}`)
  }

  // The timed indexer follows the chain from genesis, as the data source's would.
  const timed = createEvmIndexer({ chainId: chain.chainId })
  timed.rebuild([chain.store.byNumber(0n)])
  let indexMs = 0
  let buildMs = 0
  chain.events.on('block', (stored) => {
    const t = now()
    timed.onBlock(stored)
    indexMs += now() - t
  })
  const mine = async () => {
    const t = now()
    await chain.miner.mine()
    buildMs += now() - t
  }

  // A token, and a share of it for every sender.
  await add(senders[0], { gasLimit: 3_000_000n, data: encodeDeployData({ abi: erc20.abi, bytecode: erc20.bytecode, args: ['Bench', 'BNC', parseEther('1000000000')] }) })
  await mine()
  const token = chain.store.byNumber(chain.store.height).txs[0].receipt.contractAddress.toLowerCase()
  for (const s of senders.slice(1)) await add(senders[0], { to: token, gasLimit: 100_000n, data: encodeFunctionData({ abi: erc20.abi, functionName: 'transfer', args: [s, parseEther('1000000')] }) })
  await mine()
  const transferData = recipients.map((r) => encodeFunctionData({ abi: erc20.abi, functionName: 'transfer', args: [r, 1n] }))

  const checkpoints = [100_000, 1_000_000].filter((n) => n <= transactions)
  if (checkpoints.length === 0) checkpoints.push(transactions)
  const results = {}
  let built = 0
  let sinceShare = { indexMs: 0, buildMs: 0 }
  for (const checkpoint of checkpoints) {
    while (built < checkpoint) {
      const n = Math.min(PER_BLOCK, checkpoint - built)
      for (let i = 0; i < n; i++) {
        const k = built + i
        const from = senders[k % senders.length]
        const to = recipients[(k * 7) % recipients.length]
        if (k % 2 === 0) await add(from, { to, value: 1n, gasLimit: 21_000n })
        else await add(from, { to: token, gasLimit: 60_000n, data: transferData[(k * 7) % recipients.length] })
      }
      // Blocks until the pool is empty (a block holds at most the ~10M gas refilled since its
      // parent), each 10 s after the last: at ACP-176's 1M gas/s target the base fee stays put
      // instead of climbing past the transactions' fee cap.
      while (chain.pool.size > 0) {
        network.clock.advance(10)
        const before = chain.store.height
        await mine()
        if (chain.store.byNumber(chain.store.height).txs.length === 0 || chain.store.height === before)
          throw new Error(`block ${chain.store.height} took none of the ${chain.pool.size} pooled transactions`)
      }
      built += n
      if (built % 50_000 === 0) process.stderr.write(`indexer bench: ${built} transactions in ${chain.store.height} blocks\n`)
    }
    const label = checkpoint >= 1_000_000 ? `${checkpoint / 1_000_000}M` : `${checkpoint / 1000}k`
    results[`indexer_${label}_shareOfBlockBuildingPct`] = +(((indexMs - sinceShare.indexMs) / (buildMs - sinceShare.buildMs - (indexMs - sinceShare.indexMs))) * 100).toFixed(2)
    sinceShare = { indexMs, buildMs }

    // The index alone: a fresh indexer rebuilt from the stored blocks, measured and dropped (the
    // served one, made at the first checkpoint, follows the chain since and would measure nothing).
    const before = heapAfterGc()
    const t = now()
    let fresh = createEvmIndexer({ chainId: chain.chainId })
    fresh.rebuild(chain.store.range(0n, chain.store.height))
    results[`indexer_${label}_rebuildMs`] = Math.round(now() - t)
    results[`indexer_${label}_heapBytesPerTx`] = Math.round((heapAfterGc() - before) / (built + 1 + (senders.length - 1)))
    if (fresh.height !== timed.height) throw new Error('the rebuilt indexer is not at the head')
    fresh = undefined
    const served = indexerFor(chain)
    if (served.height !== timed.height) throw new Error('the served indexer is not at the head')
    Object.assign(results, await endpointLatencies(devnet, timer, client, { chainId, label, senders, recipients, token, head: Number(chain.store.height) }))
    // Each checkpoint's figures as soon as they exist: a 1M run takes a long while.
    process.stderr.write(`indexer bench: ${label} done ${JSON.stringify(Object.fromEntries(Object.entries(results).filter(([k]) => k.includes(`_${label}_`))))}\n`)
  }
  await devnet.close()
  await client.close()
  timer.close()
  return results
}

/**
 * `inject` of the devnet's server, and `lastMs`: the server's own time for the last HTTP response
 * it finished, from the request's headers parsed to the response's last byte handed to the socket.
 * `close` stops listening to node's channels.
 */
function serverTimer(server) {
  const started = new WeakMap()
  const onStart = ({ request }) => started.set(request, now())
  const onFinish = ({ request }) => {
    const t = started.get(request)
    if (t !== undefined) timer.lastMs = now() - t
  }
  subscribe('http.server.request.start', onStart)
  subscribe('http.server.response.finish', onFinish)
  const timer = {
    lastMs: undefined,
    inject: (opts) => server.inject(opts),
    close: () => {
      unsubscribe('http.server.request.start', onStart)
      unsubscribe('http.server.response.finish', onFinish)
    },
  }
  return timer
}

/** p50 / p99 of every /v1 list endpoint, three ways (see the top of the file); each sample reads a first page or, every third, the next one. */
async function endpointLatencies(devnet, timer, client, { chainId, label, senders, recipients, token, head }) {
  const { network } = devnet
  const { formatAddress, hrpForNetworkId } = await import('../dist/core/address.js')
  const pAddress = formatAddress('P', hrpForNetworkId(network.preset.networkId), network.wallets(0).address)
  const base = `/v1/chains/${chainId}`
  const addressOf = (i) => (i % 2 === 0 ? senders[i % senders.length] : recipients[i % recipients.length])
  const endpoints = {
    listTransactions: (i) => `${base}/addresses/${addressOf(i)}/transactions?pageSize=10`,
    listNative: (i) => `${base}/addresses/${addressOf(i)}/transactions:listNative?pageSize=10`,
    listErc20: (i) => `${base}/addresses/${addressOf(i)}/transactions:listErc20?pageSize=10`,
    listErc721: (i) => `${base}/addresses/${addressOf(i)}/transactions:listErc721?pageSize=10`,
    tokenTransfers: () => `${base}/tokens/${token}/transfers?pageSize=10`,
    listErc1155Balances: (i) => `${base}/addresses/${addressOf(i)}/balances:listErc1155?pageSize=10`,
    blockTransactions: (i) => `${base}/blocks/${Math.max(0, head - (i % 50))}/transactions?pageSize=100`,
    latestBlocks: () => `${base}/blocks?pageSize=10`,
    nftCollectionTokens: () => `${base}/nfts/collections/${token}/tokens?pageSize=10`,
    primaryUtxos: () => ['POST', `/v1/networks/local/blockchains/p-chain/utxos?pageSize=10`, JSON.stringify({ addresses: pAddress })],
    primaryTransactions: () => `/v1/networks/local/blockchains/p-chain/transactions?addresses=${pAddress}&pageSize=10`,
    validators: () => `/v1/networks/local/validators?pageSize=10`,
    l1Validators: () => `/v1/networks/local/l1Validators?pageSize=10`,
  }
  // Each resolves to { status, ms, body? }: ms is the request's time as its client measured it.
  const inject = async (method, url, payload) => {
    const t = now()
    const res = await timer.inject({ method, url, payload, headers: payload ? { 'content-type': 'application/json' } : {} })
    return { status: res.statusCode, ms: now() - t, body: res.body }
  }
  const http = (method, url, payload, wantBody) => client.send(`${devnet.url}${url}`, method, payload, wantBody)
  const only = process.env.BENCH_INDEXER_ENDPOINTS?.split(',')
  const results = {}
  for (const [name, make] of Object.entries(endpoints)) {
    if (only && !only.includes(name)) continue
    // Every request is followed by a turn of the event loop, as a server has between requests:
    // inject settles through promises alone, so without it the fake sockets' setImmediate
    // callbacks (and with each, its whole request and response) pile up until the loop turns.
    for (const [mode, send] of [['inject', inject], ['http', http]]) {
      // Warm-up, untimed: the JIT and the token / metadata caches, as in a server that has been up a while.
      for (let i = 0; i < WARMUP; i++) {
        const spec = make(i)
        const [method, url, payload] = Array.isArray(spec) ? spec : ['GET', spec, undefined]
        await send(method, url, payload)
        await turn()
      }
      const times = []
      const serverTimes = []
      for (let i = 0; i < SAMPLES; i++) {
        const spec = make(i)
        const [method, url, payload] = Array.isArray(spec) ? spec : ['GET', spec, undefined]
        let target = url
        if (i % 3 === 2) {
          // A second page: the first page's token, fetched outside the timing.
          const first = await send(method, url, payload, true)
          await turn()
          const token = JSON.parse(first.body).nextPageToken
          if (token) target = `${url}&pageToken=${encodeURIComponent(token)}`
        }
        timer.lastMs = undefined
        const res = await send(method, target, payload)
        times.push(res.ms)
        if (mode === 'http') {
          if (timer.lastMs === undefined) throw new Error(`${name}: the server's timing of ${target} is missing`)
          serverTimes.push(timer.lastMs)
        }
        await turn()
        if (res.status >= 300) throw new Error(`${name} ${target}: ${res.status} ${res.body?.slice(0, 200)}`)
      }
      for (const [m, list] of [[mode, times], ...(mode === 'http' ? [['inProcess', serverTimes]] : [])]) {
        list.sort((a, b) => a - b)
        results[`data_${label}_${m}_${name}_p50Ms`] = percentile(list, 0.5)
        results[`data_${label}_${m}_${name}_p99Ms`] = percentile(list, 0.99)
      }
    }
  }
  return results
}

export const indexerTargets = {
  indexer_100k_shareOfBlockBuildingPct: ['<', 15],
  indexer_1M_shareOfBlockBuildingPct: ['<', 15],
}
/** Targets of the latency rows: p99 under 2 ms in-process and under 5 ms over HTTP. */
export function latencyTarget(metric) {
  if (!/^data_.*_p99Ms$/.test(metric) || metric.includes('_inject_')) return undefined
  return metric.includes('_inProcess_') ? ['<', 2] : ['<', 5]
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.table(await indexerBench())
}
