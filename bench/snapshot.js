#!/usr/bin/env node
// File snapshots (issue 7). A network with 10,000 C-chain blocks and 100,000 funded accounts, all
// made through the pool, the miner and the EVM: 10 native transfers per block from 20 senders,
// each to a new address. The senders are impersonated (unsigned transactions), so signing does
// not dominate the bench's own run time; blocks are built the same either way. Then
//   - saveNetwork and loadNetwork of it (target: under 2 s each), with the file's size, and the
//     save again after a full collection of the network's heap (informational);
//   - in-memory network.snapshot() + network.revert() at 100 and at 10,000 blocks (target: under
//     1 ms, whatever the history), the mean of 50 cycles after 5 untimed ones.
// Figures are measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/snapshot.js` prints its own table; bench/run.js merges the figures into its table.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const now = () => performance.now()
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
const PER_BLOCK = 10

export async function snapshotBench({ blocks = 10_000, log = () => {} } = {}) {
  const { createNetwork, saveNetwork, loadNetwork } = await import('../dist/index.js')
  const { createUnsignedTx } = await import('../dist/evm/unsignedTx.js')
  const { submitTransaction } = await import('../dist/evm/send.js')
  const dir = mkdtempSync(join(tmpdir(), 'l1sim-snapshot-bench-'))
  const results = {}
  let network = await createNetwork({ nodes: 5, mining: { mode: 'manual' }, node: { dataDir: join(dir, 'data') } })
  let chain = network.cChain
  const senders = network.devAccounts.map((a) => a.address.toLowerCase())
  const nonces = new Map(senders.map((s) => [s, 0n]))
  let accounts = 0
  const mineBlock = async () => {
    for (let i = 0; i < PER_BLOCK; i++) {
      const from = senders[accounts % senders.length]
      const nonce = nonces.get(from)
      nonces.set(from, nonce + 1n)
      const to = `0x${(0x100000 + accounts++).toString(16).padStart(40, '0')}`
      const tx = createUnsignedTx(chain.common, { type: 2, nonce, to, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n }, from)
      await submitTransaction(chain, chain.miner, tx, from, `0x${Buffer.from(tx.hash()).toString('hex')}`)
    }
    await network.cChain.miner.mine()
  }
  const cycle = async (net) => {
    const id = await net.snapshot()
    await net.revert(id)
  }
  const revertMs = async (net) => {
    for (let i = 0; i < 5; i++) await cycle(net)
    const t = now()
    for (let i = 0; i < 50; i++) await cycle(net)
    return +((now() - t) / 50).toFixed(3)
  }

  let t = now()
  while (chain.store.height < 100n) await mineBlock()
  results.snapshot_revertAt100BlocksMs = await revertMs(network)
  while (chain.store.height < BigInt(blocks)) {
    await mineBlock()
    if (chain.store.height % 1000n === 0n) log(`built ${chain.store.height} blocks`)
  }
  results.snapshot_buildSeconds = +((now() - t) / 1000).toFixed(1)
  results.snapshot_blocks = Number(chain.store.height)
  results.snapshot_fundedAccounts = accounts + senders.length
  results.snapshot_revertAt10kBlocksMs = await revertMs(network)

  const file = join(dir, 'bench.l1sim')
  t = now()
  const saved = await saveNetwork(network, file)
  results.snapshot_saveMs = Math.round(now() - t)
  results.snapshot_fileMB = +(saved.bytes / 1e6).toFixed(1)
  // The build leaves the network's heap wherever its last collection did: a save that starts near
  // V8's limit pays for a full collection of the whole heap (~1.3 GB, seconds) that any allocation
  // would have started. The same save again after a collection: the save's own cost.
  gc()
  t = now()
  await saveNetwork(network, join(dir, 'again.l1sim'))
  results.snapshot_saveAfterGcMs = Math.round(now() - t)
  // A load starts a process (`l1sim start --snapshot`): the saved network is dropped first, and its
  // heap collected, so the figure is the load's and not the collection of a 1 GB predecessor.
  const head = chain.head.hash
  await network.close()
  chain = undefined
  network = undefined
  gc()
  t = now()
  const loaded = await loadNetwork(file)
  results.snapshot_loadMs = Math.round(now() - t)
  if (loaded.cChain.head.hash !== head) throw new Error('the loaded network is not at the saved head')
  const probe = `0x${(0x100000 + accounts - 1).toString(16).padStart(40, '0')}`
  const balance = await loaded.cChain.getAccountFields(probe, 'latest')
  if (balance.balance !== 1n) throw new Error(`account ${probe} has ${balance.balance} after the load`)
  await loaded.close()
  rmSync(dir, { recursive: true, force: true })
  return results
}

export const snapshotTargets = {
  snapshot_saveMs: ['<', 2000],
  snapshot_loadMs: ['<', 2000],
  snapshot_revertAt100BlocksMs: ['<', 1],
  snapshot_revertAt10kBlocksMs: ['<', 1],
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = await snapshotBench({ log: (m) => console.log(m) })
  console.table(Object.entries(results).map(([metric, value]) => {
    const tg = snapshotTargets[metric]
    return { metric, value, target: tg ? `${tg[0]} ${tg[1]}` : '', met: tg ? ((tg[0] === '<' ? value < tg[1] : value >= tg[1]) ? 'yes' : 'NO') : '' }
  }))
}
