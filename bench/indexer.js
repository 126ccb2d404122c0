// The indexer at scale (issue 6): EVM transactions generated through the chain (100 transfers per
// block, from 20 senders to 50 recipients), with the indexer following the chain. Reports the
// indexing cost per block as a share of block-building time, memory per indexed transaction, and
// p50 / p99 latency of a paged list query in-process. Figures only; `npm run bench` prints them.
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { mnemonicToAccount } from 'viem/accounts'

const now = () => performance.now()
const MNEMONIC = 'test test test test test test test test test test test junk'

export async function indexerBench({ transactions = Number(process.env.BENCH_INDEXER_TXS ?? 20_000) } = {}) {
  const { createNetwork } = await import('../dist/index.js')
  const { createEvmIndexer } = await import('../dist/indexer/index.js')
  const { decodeRawTransaction } = await import('../dist/evm/send.js')
  const network = await createNetwork({ nodes: 1, mining: { mode: 'manual' } })
  const chain = network.cChain
  const indexer = createEvmIndexer({ chainId: chain.chainId })
  let indexMs = 0
  // Time the indexer's share: wrap its block handler.
  chain.events.on('block', (stored) => {
    const t = now()
    indexer.onBlock(stored)
    indexMs += now() - t
  })
  indexer.rebuild([chain.store.byNumber(0n)])
  const senders = Array.from({ length: 20 }, (_, i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }))
  const recipients = Array.from({ length: 50 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`)
  const nonces = senders.map(() => 0)
  const perBlock = 100
  let built = 0
  let buildMs = 0
  const heapBefore = process.memoryUsage().heapUsed
  for (let b = 0; b < transactions / perBlock; b++) {
    for (let i = 0; i < perBlock; i++) {
      const s = (b * perBlock + i) % senders.length
      const raw = await senders[s].signTransaction({ chainId: 43112, type: 'eip1559', nonce: nonces[s]++, to: recipients[(b + i) % recipients.length], value: 1n, gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
      const { tx, from, hash } = decodeRawTransaction(chain, Uint8Array.from(Buffer.from(raw.slice(2), 'hex')))
      await chain.lock.run(async () => chain.pool.add({ tx, from, hash }))
    }
    const t = now()
    await chain.miner.mine()
    buildMs += now() - t
    built += perBlock
  }
  const heapAfter = process.memoryUsage().heapUsed
  const latency = []
  for (let i = 0; i < 2_000; i++) {
    const address = recipients[i % recipients.length]
    const t = now()
    const page = indexer.transactions({ address, pageSize: 10 })
    if (i % 3 === 0 && page.nextCursor) indexer.transactions({ address, pageSize: 10, cursor: page.nextCursor })
    latency.push(now() - t)
  }
  latency.sort((a, b) => a - b)
  await network.close()
  return {
    indexer_transactions: built,
    indexer_shareOfBlockBuildingPct: +((indexMs / (buildMs - indexMs)) * 100).toFixed(2),
    // Heap growth per transaction of the chain (blocks, receipts, state) and the indexer together.
    indexer_chainAndIndexHeapBytesPerTx: Math.round((heapAfter - heapBefore) / built),
    indexer_listP50Ms: +latency[Math.floor(latency.length / 2)].toFixed(4),
    indexer_listP99Ms: +latency[Math.floor(latency.length * 0.99)].toFixed(4),
  }
}

export const indexerTargets = {
  indexer_shareOfBlockBuildingPct: ['<', 15],
  indexer_listP99Ms: ['<', 2],
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.table(await indexerBench())
}
