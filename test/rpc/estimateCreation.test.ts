/**
 * eth_estimateGas for a contract creation gives what geth's estimator gives: the run at the cap,
 * then the optimistic guess, then the binary search to within 1.5%. The estimator may answer the
 * guesses from what the cap's run proved (src/evm/gasNeed.ts) instead of running the constructor
 * again; here every guess's truth comes from real runs: the least gas at which the creation
 * succeeds is found by estimates capped at a given gas (their run at the cap is a real run), the
 * gas it uses from a receipt, and geth's search is followed with them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, defineChain, encodeDeployData, http, parseEther, type Chain, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const alice = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 0 })
const chain: Chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [''] } } })

/** geth's estimator, given which gas limits succeed (at least `least`) and the gas the run at `cap` used. */
function gethEstimate(least: bigint, used: bigint, cap: bigint): bigint {
  let hi = cap
  let lo = used - 1n
  const optimistic = ((used + 2_300n) * 64n) / 63n
  if (optimistic < hi) {
    if (optimistic >= least) hi = optimistic
    else lo = optimistic
  }
  while (lo + 1n < hi && (hi - lo) * 1000n >= 15n * hi) {
    let mid = (hi + lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n
    if (mid >= least) hi = mid
    else lo = mid
  }
  return hi
}

describe('eth_estimateGas of a contract creation', () => {
  let devnet: Devnet
  let client: ReturnType<typeof createPublicClient>
  let wallet: ReturnType<typeof createWalletClient>

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0 })
    const transport = http(devnet.rpcUrl('C'))
    client = createPublicClient({ chain, transport })
    wallet = createWalletClient({ chain, transport, account: alice })
  })
  afterAll(() => devnet.close())

  const estimate = (data: Hex, gas?: bigint) =>
    client.request({ method: 'eth_estimateGas', params: [{ from: alice.address, data, ...(gas === undefined ? {} : { gas: `0x${gas.toString(16)}` }) }] }).then(BigInt)

  /** The estimate, and what geth's search gives from real runs: the least gas that succeeds and the gas used. */
  async function estimateAndTruth(data: Hex): Promise<{ estimate: bigint; expected: bigint }> {
    const result = await estimate(data)
    const cap = (await client.getBlock()).gasLimit
    // The least limit whose run succeeds: each capped estimate fails exactly when its run at the cap fails.
    let fails = 21_000n
    let works = cap
    while (fails + 1n < works) {
      const mid = (fails + works) / 2n
      if (await estimate(data, mid).then(() => true, () => false)) works = mid
      else fails = mid
    }
    const hash = await wallet.sendTransaction({ account: alice, chain, data, gas: works * 2n })
    const used = (await client.waitForTransactionReceipt({ hash })).gasUsed
    return { estimate: result, expected: gethEstimate(works, used, cap) }
  }

  it('an SSTORE late in the constructor needs more than the 2,300 gas of the sentry left: the least limit is above the gas used', async () => {
    // PUSH1 0 SLOAD POP PUSH1 0 PUSH1 0 SSTORE STOP: a no-op store (100 gas) after a cold read.
    const { estimate: got, expected } = await estimateAndTruth('0x600054506000600055' + '00' as Hex)
    expect(got).toBe(expected)
  })

  it('a constructor that reads the gas left (GAS) is estimated by running it', async () => {
    // GAS PUSH3 100000 GT PUSH1 10 JUMPI STOP JUMPDEST INVALID: fails with less than 100,000 gas left.
    const { estimate: got, expected } = await estimateAndTruth('0x5a620186a011600a57005bfe')
    expect(got).toBe(expected)
    expect(got).toBeGreaterThan(100_000n)
  })

  it('a constructor that calls out (all but 1/64 of the gas left to the callee) is estimated by running it', async () => {
    // CALL(gas: GAS, to: 0x02 (sha256), value 0, in: 0..4096, out: 0..32) POP STOP: the callee's cost depends on its input size only.
    const { estimate: got, expected } = await estimateAndTruth('0x602060006110006000600060025af15000')
    expect(got).toBe(expected)
  })

  it('an ERC-20 deployment', async () => {
    const data = encodeDeployData({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Demo', 'DEMO', parseEther('1000000')] })
    const { estimate: got, expected } = await estimateAndTruth(data)
    expect(got).toBe(expected)
  })
})
