#!/usr/bin/env node
// Mining many blocks in one request (issue 14): `anvil_mine` of 100,000 empty blocks over HTTP on a
// devnet started through the library (port 0), with
//   - the run's time and the heap each empty block keeps (after full collections);
//   - GET /ext/health on another node, sent again and again while the run mines: how many were
//     answered before the run ended and the slowest answer (the run yields to the event loop every
//     few blocks; before, nothing was answered until it ended, 11.5 s later).
// Figures are measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/mine.js` prints its own table; bench/run.js merges the figures into its table.
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
const heapUsed = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}
const now = () => performance.now()

export async function mineBench({ blocks = 100_000 } = {}) {
  const { startDevnet } = await import('../dist/index.js')
  const devnet = await startDevnet({ port: 0, nodes: 2, accounts: 1 })
  try {
    const post = (method, params) =>
      fetch(devnet.rpcUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }).then((r) => r.json())
    await post('anvil_mine', ['0x64']) // warm-up
    const heapBefore = heapUsed()
    const t = now()
    let done = false
    const mining = post('anvil_mine', [`0x${blocks.toString(16)}`]).finally(() => (done = true))
    const latencies = []
    while (!done) {
      const t0 = now()
      const res = await fetch(`${devnet.nodes[1].url}/ext/health`)
      await res.arrayBuffer()
      if (!done) latencies.push(now() - t0)
    }
    const answer = await mining
    const ms = now() - t
    if (answer.error) throw new Error(`anvil_mine: ${answer.error.message}`)
    const heapAfter = heapUsed()
    return {
      mine100kEmptyBlocksMs: Math.round(ms),
      mineHeapPerEmptyBlockBytes: Math.round((heapAfter - heapBefore) / blocks),
      mineHealthAnsweredDuringRun: latencies.length,
      mineHealthSlowestMsDuringRun: +Math.max(0, ...latencies).toFixed(1),
    }
  } finally {
    await devnet.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.table(await mineBench())
