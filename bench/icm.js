#!/usr/bin/env node
// One ICM delivery (issue 16): a network with two L1s and the messenger predeployed (icm: true),
// the built-in relayer in auto mode. Each sample is one message: alice's sendCrossChainMessage on
// L1 a (eth_sendTransaction through the in-process provider) until the relayer's delivery is
// accepted on L1 b (its `delivery` event with status `delivered`): the source block, the
// signatures aggregated from b's validators, receiveCrossChainMessage with the warp predicate, the
// destination block. Reported in ms, p50 and p99 over `messages` samples (and a warm-up first).
// Figures are measured, never asserted. Runs on the built dist/ (npm run build).
// `node bench/icm.js` prints its own table; bench/run.js merges the figures into its table.
import { fileURLToPath } from 'node:url'

const now = () => performance.now()
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

export async function icmBench({ messages = 200, warmup = 20 } = {}) {
  const { createNetwork } = await import('../dist/network/network.js')
  const { createEIP1193Provider } = await import('../dist/rpc/provider.js')
  const { ICM_MESSENGER_ADDRESS } = await import('../dist/evm/icm/predeploy.js')
  const { encodeFunctionData, padHex } = await import('viem')
  const { ICM_MESSENGER_ABI } = await import('../dist/evm/icm/messenger.js')

  const genesis = (chainId, alloc) => ({
    config: {
      chainId,
      feeConfig: { gasLimit: 20_000_000, minBaseFee: 1_000_000_000, targetGas: 100_000_000, baseFeeChangeDenominator: 48, minBlockGasCost: 0, maxBlockGasCost: 10_000_000, targetBlockRate: 2, blockGasCostStep: 500_000 },
      warpConfig: { blockTimestamp: 1607144400 },
    },
    alloc,
    gasLimit: '0x1312D00',
    timestamp: '0x5FCB13D0',
    difficulty: '0x0',
  })
  // The dev accounts' addresses come from the network; a first network tells them.
  const probe = await createNetwork({ nodes: 1, accounts: 1 })
  const alice = probe.devAccounts[0].address
  await probe.close()
  const alloc = { [alice]: { balance: '0x52B7D2DCC80CD2E4000000' } }
  const network = await createNetwork({ icm: true, accounts: 1, l1s: [{ name: 'a', genesis: genesis(11111, alloc) }, { name: 'b', genesis: genesis(22222, alloc) }] })
  try {
    const a = network.l1('a')
    const b = network.l1('b')
    const provider = createEIP1193Provider({ network, chain: a.chain })
    const destination = `0x${Buffer.from(b.blockchainIdBytes).toString('hex')}`
    const data = encodeFunctionData({
      abi: ICM_MESSENGER_ABI,
      functionName: 'sendCrossChainMessage',
      args: [{ destinationBlockchainID: destination, destinationAddress: padHex('0x01', { size: 20 }), feeInfo: { feeTokenAddress: padHex('0x00', { size: 20 }), amount: 0n }, requiredGasLimit: 100_000n, allowedRelayerAddresses: [], message: '0x1234' }],
    })
    const one = async () => {
      const t = now()
      const delivered = new Promise((resolve, reject) => {
        const off = network.relayer.events.on('delivery', (d) => {
          if (d.status === 'pending' || d.status === 'sent') return
          off()
          if (d.status === 'delivered') resolve(undefined)
          else reject(new Error(`delivery ${d.status}: ${d.error ?? d.revertReason ?? ''}`))
        })
      })
      await provider.request({ method: 'eth_sendTransaction', params: [{ from: alice, to: ICM_MESSENGER_ADDRESS, data, gas: '0x100000' }] })
      await delivered
      return now() - t
    }
    for (let i = 0; i < warmup; i++) await one()
    const samples = []
    for (let i = 0; i < messages; i++) samples.push(await one())
    samples.sort((x, y) => x - y)
    return {
      icm_deliveryP50Ms: +percentile(samples, 50).toFixed(3),
      icm_deliveryP99Ms: +percentile(samples, 99).toFixed(3),
      icm_deliveries: samples.length,
    }
  } finally {
    await network.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const results = await icmBench()
  console.table(Object.entries(results).map(([metric, value]) => ({ metric, value })))
}
