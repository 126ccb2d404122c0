#!/usr/bin/env node
// eth_call over many distinct slots (issue 14): an ERC-20 with 6,000 holders (balances written with
// anvil_setStorageAt, a block mined, the caches emptied); balanceOf on 1,000 of them untimed, then
// once on each of the other 5,000, one call in flight, through the in-process EIP-1193 provider
// (the server's own work, no transport). Each call reads from the trie a slot no earlier call
// read, so a call that cost more the more slots earlier calls read (warm sets or caches kept
// between calls) shows as the last thousand calls' p50 above the first thousand's. Reported: both
// p50s, their ratio, and the calls per second over the 5,000.
// Figures are measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/ethCall.js` prints its own table; bench/run.js merges the figures into its table.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, keccak256, parseEther } from 'viem'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const now = () => performance.now()

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]
}

/** A network with an ERC-20 whose `count` holders have balances 1…count, its caches empty. */
async function tokenWithHolders(count) {
  const { createNetwork, createEIP1193Provider } = await import('../dist/index.js')
  const erc20 = JSON.parse(readFileSync(join(root, 'test/fixtures/contracts/ERC20.json'), 'utf8'))
  const network = await createNetwork()
  const provider = createEIP1193Provider({ network })
  const rpc = (method, params = []) => provider.request({ method, params })
  const [deployer] = await rpc('eth_accounts')
  const deployHash = await rpc('eth_sendTransaction', [{ from: deployer, gas: '0x2dc6c0', data: encodeDeployData({ abi: erc20.abi, bytecode: erc20.bytecode, args: ['Bench', 'BNC', parseEther('1000000000')] }) }])
  const token = (await rpc('eth_getTransactionReceipt', [deployHash])).contractAddress
  // balanceOf is the ERC-20 fixture's slot 3: holder h's balance is at keccak256(h . 3).
  const holder = (i) => `0x${(0x10_0000 + i).toString(16).padStart(40, '0')}`
  const slotOf = (address) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [address, 3n]))
  for (let i = 0; i < count; i++) await rpc('anvil_setStorageAt', [token, slotOf(holder(i)), `0x${(i + 1).toString(16).padStart(64, '0')}`])
  await rpc('evm_mine')
  // A revert to this same state empties the state manager's caches: each call reads its slot from the trie.
  await rpc('evm_revert', [await rpc('evm_snapshot')])
  const balanceOf = (i) => ({ to: token, data: encodeFunctionData({ abi: erc20.abi, functionName: 'balanceOf', args: [holder(i)] }) })
  /** balanceOf of holders from…to-1 in turn: each call's milliseconds. */
  const callEach = async (from, to) => {
    const requests = Array.from({ length: to - from }, (_, i) => balanceOf(from + i))
    const latencies = new Array(to - from)
    for (let i = 0; i < to - from; i++) {
      const t0 = now()
      const result = await rpc('eth_call', [requests[i], 'latest'])
      latencies[i] = now() - t0
      if (BigInt(result) !== BigInt(from + i + 1)) throw new Error(`balanceOf(${holder(from + i)}) = ${result}`)
    }
    return latencies
  }
  return { callEach, close: () => network.close() }
}

export async function ethCallBench({ holders = 5_000, window = 1_000, log = () => {} } = {}) {
  const bench = await tokenWithHolders(holders + window)
  log(`${holders} holders written`)
  // Untimed warm-up on holders of their own: on a fresh network the first thousand or so calls
  // run ~10% slower than later ones (falling, not growing; a warm-up on another network does
  // not remove it), which would hide the comparison.
  await bench.callEach(holders, holders + window)
  const t = now()
  const latencies = await bench.callEach(0, holders)
  const total = now() - t
  await bench.close()
  const p50 = (part) => percentile([...part].sort((a, b) => a - b), 50)
  const first = p50(latencies.slice(0, window))
  const last = p50(latencies.slice(-window))
  return {
    ethCall_distinctSlotsFirst1000P50Ms: +first.toFixed(3),
    ethCall_distinctSlotsLast1000P50Ms: +last.toFixed(3),
    ethCall_distinctSlotsP50RatioLastVsFirst: +(last / first).toFixed(3),
    ethCall_distinctSlotsCallsPerSec: Math.round(holders / (total / 1000)),
  }
}

export const ethCallTargets = {
  // Equal within noise: the last thousand calls cost what the first thousand did.
  ethCall_distinctSlotsP50RatioLastVsFirst: ['<=', 1.2],
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = await ethCallBench({ log: (m) => console.log(m) })
  console.table(Object.entries(results).map(([metric, value]) => {
    const tg = ethCallTargets[metric]
    return { metric, value, target: tg ? `${tg[0]} ${tg[1]}` : '', met: tg ? ((tg[0] === '<' ? value < tg[1] : tg[0] === '<=' ? value <= tg[1] : value >= tg[1]) ? 'yes' : 'NO') : '' }
  }))
}
