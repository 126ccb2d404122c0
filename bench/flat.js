#!/usr/bin/env node
// Flat with history (issue 17): a C-chain grown to 20,000 one-transaction blocks (a native transfer
// each, automine, through the in-process provider), with
//   - the per-transaction time (eth_sendTransaction until mined) after block 200 and after block
//     20,000, and their ratio (the goal: within 1.2×): each the median of 7 runs of 300
//     transactions, so one major collection or a late optimisation landing in a run does not
//     decide the figure (single 1,000-transaction samples gave 0.74 and 1.25 on the same build);
//   - the memory each one-transaction block keeps: heap plus array buffers (the trie's node slabs
//     live there), after full collections, between block 400 and block 20,000 (the goal: ≤ 5 KB).
// Figures are measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/flat.js` prints its own table; bench/run.js merges the figures into its table.
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
const retained = () => {
  gc()
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}
const now = () => performance.now()

export async function flatBench({ blocks = 20_000, sample = 300, runs = 7 } = {}) {
  const { createNetwork } = await import('../dist/network/network.js')
  const { createEIP1193Provider } = await import('../dist/rpc/provider.js')
  const network = await createNetwork({ nodes: 1, accounts: 2 })
  try {
    const provider = createEIP1193Provider({ network, chain: network.cChain })
    const [alice, bob] = network.devAccounts.map((a) => a.address)
    const send = () => provider.request({ method: 'eth_sendTransaction', params: [{ from: alice, to: bob, value: '0x1', gas: '0x5208' }] })
    const timed = async (n) => {
      const times = []
      for (let r = 0; r < runs; r++) {
        const t = now()
        for (let i = 0; i < n; i++) await send()
        times.push((now() - t) / n)
      }
      return times.sort((a, b) => a - b)[runs >> 1]
    }
    const head = async () => Number(await provider.request({ method: 'eth_blockNumber', params: [] }))
    while ((await head()) < 200) await send()
    const early = await timed(sample)
    const memoryBefore = retained()
    const from = await head()
    while ((await head()) < blocks) await send()
    const memoryAfter = retained()
    const to = await head()
    const late = await timed(sample)
    return {
      flat_txMsAtBlock200: +early.toFixed(3),
      [`flat_txMsAtBlock${blocks}`]: +late.toFixed(3),
      [`flat_txMsRatio${blocks}vs200`]: +(late / early).toFixed(3),
      flat_bytesPerOneTxBlock: Math.round((memoryAfter - memoryBefore) / (to - from)),
    }
  } finally {
    await network.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.table(await flatBench())
