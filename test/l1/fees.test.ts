import { describe, expect, it } from 'vitest'
import { hexToBigInt, pad, parseAbi, parseGwei, type Hex } from 'viem'
import { admin, alice, bob, carol, l1Network, testGenesis, type L1Harness } from './helpers.js'

const feeManagerAbi = parseAbi([
  'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
  'function getFeeConfigLastChangedAt() view returns (uint256 blockNumber)',
])
const FEE_MANAGER = '0x0200000000000000000000000000000000000003'
const BLACKHOLE = '0x0100000000000000000000000000000000000000'
const INITIALLY_ACTIVE = 1607144400

type BlockJson = Record<string, string | string[]>

async function rpc<T = unknown>(h: L1Harness, method: string, params: unknown[] = []): Promise<T> {
  return (await h.provider.request({ method, params } as never)) as T
}
const block = (h: L1Harness, n: bigint | 'latest' = 'latest') =>
  rpc<BlockJson>(h, 'eth_getBlockByNumber', [typeof n === 'bigint' ? `0x${n.toString(16)}` : n, false])
const mineAt = (h: L1Harness, timestamp: number | bigint) => rpc(h, 'evm_mine', [{ timestamp: Number(timestamp) }])
const num = (v: string | string[] | undefined) => hexToBigInt(v as Hex)

describe('fee manager', () => {
  it('a setFeeConfig in block N governs block N+1; eth_feeConfig(N) has lastChangedAt N', async () => {
    const h = await l1Network(testGenesis({ feeManagerConfig: { blockTimestamp: INITIALLY_ACTIVE, adminAddresses: [admin.address] } }))
    const { publicClient, wallet } = h
    const genesisConfig = {
      gasLimit: 20_000_000, targetBlockRate: 2, minBaseFee: 1_000_000_000, targetGas: 100_000_000,
      baseFeeChangeDenominator: 48, minBlockGasCost: 0, maxBlockGasCost: 10_000_000, blockGasCostStep: 500_000,
    }
    const newConfig = { ...genesisConfig, gasLimit: 15_000_000, minBaseFee: 2_000_000_000, targetGas: 50_000_000 }
    expect(await rpc(h, 'eth_feeConfig', ['latest'])).toEqual({ feeConfig: genesisConfig, lastChangedAt: 0 })
    // A first block so that N - 1 is not the genesis.
    await wallet(alice).sendTransaction({ to: bob.address, value: 1n })

    const hash = await wallet(admin).writeContract({
      address: FEE_MANAGER,
      abi: feeManagerAbi,
      functionName: 'setFeeConfig',
      args: [15_000_000n, 2n, 2_000_000_000n, 50_000_000n, 48n, 0n, 10_000_000n, 500_000n],
    })
    const receipt = await publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const N = receipt.blockNumber
    expect(N).toBe(2n)
    // Block N itself was built with the old config.
    const blockN = await block(h, N)
    expect(num(blockN.gasLimit)).toBe(20_000_000n)
    expect(num(blockN.baseFeePerGas)).toBe(1_000_000_000n)
    expect(await rpc(h, 'eth_feeConfig', [`0x${N.toString(16)}`])).toEqual({ feeConfig: newConfig, lastChangedAt: Number(N) })
    expect(await rpc(h, 'eth_feeConfig', [`0x${(N - 1n).toString(16)}`])).toEqual({ feeConfig: genesisConfig, lastChangedAt: 0 })
    expect(await publicClient.readContract({ address: FEE_MANAGER, abi: feeManagerAbi, functionName: 'getFeeConfigLastChangedAt' })).toBe(N)
    // The next block's price and limit already follow the new config.
    expect(await rpc(h, 'eth_baseFee')).toBe('0x77359400')

    const next = await publicClient.getTransactionReceipt({
      hash: await wallet(alice).sendTransaction({ to: bob.address, value: 1n, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: 1n }),
    })
    expect(next.blockNumber).toBe(N + 1n)
    const blockN1 = await block(h, N + 1n)
    expect(num(blockN1.gasLimit)).toBe(15_000_000n)
    expect(num(blockN1.baseFeePerGas)).toBe(2_000_000_000n)
    expect(next.effectiveGasPrice).toBe(2_000_000_001n)
    // The pool now checks gas against the new limit.
    await expect(wallet(alice).sendTransaction({ to: bob.address, value: 1n, gas: 16_000_000n, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: 1n })).rejects.toThrow(
      'exceeds block gas limit: tx gas (16000000) > current max gas (15000000)',
    )
    expect(await rpc(h, 'eth_feeConfig', ['latest'])).toEqual({ feeConfig: newConfig, lastChangedAt: Number(N) })
    await h.network.close()
  })
})

describe('a Granite chain (local network)', () => {
  it('millisecond header timestamps, ACP-226 excess, no block gas cost, blocks at least 2 s apart', async () => {
    const h = await l1Network(testGenesis())
    const genesis = await block(h, 0n)
    expect(num(genesis.timestampMilliseconds)).toBe(BigInt(INITIALLY_ACTIVE) * 1000n)
    expect(genesis.minDelayExcess).toBe('0x799d4c')
    expect(genesis.blockGasCost).toBe('0x0')

    const times: bigint[] = []
    for (let i = 0; i < 4; i++) {
      const receipt = await h.publicClient.getTransactionReceipt({ hash: await h.wallet(alice).sendTransaction({ to: bob.address, value: 1n }) })
      const b = await block(h, receipt.blockNumber)
      expect(num(b.timestampMilliseconds)).toBe(num(b.timestamp) * 1000n)
      expect(b.minDelayExcess).toBe('0x799d4c')
      expect(b.blockGasCost).toBe('0x0')
      times.push(num(b.timestamp))
    }
    // Sent back to back without the clock moving: the minimum delay spaces them.
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(2n)
    expect(times[1]! - times[0]!).toBe(2n)
    // After a longer pause, the block takes the clock's time.
    await h.network.advanceTime(7)
    const now = BigInt(h.network.clock.now())
    await h.wallet(alice).sendTransaction({ to: bob.address, value: 1n })
    expect(num((await block(h)).timestamp)).toBe(now)
    // Pinned faster than the target rate: a pre-Granite chain would charge a block gas cost here.
    await mineAt(h, now + 1n)
    await mineAt(h, now + 2n)
    expect((await block(h)).blockGasCost).toBe('0x0')
    await h.network.close()
  })
})

/** Fuji between Etna (1732550400) and Granite (1761750000): the window fee and block gas cost rules. */
const FUJI_START = 1_740_000_000
const FUJI_GENESIS_TIME = FUJI_START - 10_000

function fujiGenesis(feeConfig: Record<string, number> = {}, alloc: Record<string, unknown> = {}) {
  const genesis = testGenesis({}, { timestamp: `0x${FUJI_GENESIS_TIME.toString(16)}` })
  Object.assign(genesis.config.feeConfig, feeConfig)
  Object.assign(genesis.alloc, alloc)
  return genesis
}
const fuji = (genesis: unknown) => l1Network(genesis, { preset: 'fuji', clock: { start: FUJI_START } })

describe('a pre-Granite chain (fuji before Granite)', () => {
  it('is pre-Granite: no millisecond fields, Etna at genesis gives a zero block gas cost', async () => {
    const h = await fuji(fujiGenesis())
    const genesis = await block(h, 0n)
    expect(genesis.blockGasCost).toBe('0x0')
    expect(genesis.timestampMilliseconds).toBeUndefined()
    expect(genesis.minDelayExcess).toBeUndefined()
    const rules = await rpc<{ avalancheRules: Record<string, boolean> }>(h, 'eth_getActiveRulesAt', [FUJI_START])
    expect(rules.avalancheRules).toMatchObject({ IsDurango: true, IsEtna: true, IsGranite: false })
    await mineAt(h, FUJI_START)
    const b = await block(h)
    expect(b.timestampMilliseconds).toBeUndefined()
    expect(b.minDelayExcess).toBeUndefined()
    await h.network.close()
  })

  it('block gas cost rises by the step for each second under targetBlockRate and falls for each second over it', async () => {
    const h = await fuji(fujiGenesis())
    // step 500_000, target rate 2 s, range [0, 10_000_000]
    const steps: [number, bigint][] = [
      [0, 0n], // 10000 s after genesis: stays at the minimum
      [1, 500_000n],
      [1, 1_000_000n],
      [1, 1_500_000n],
      [2, 1_500_000n], // at the target rate: unchanged
      [4, 500_000n], // 2 s over: two steps down
      [1, 1_000_000n],
      [10, 0n], // 8 s over: clamped at the minimum
    ]
    let t = FUJI_START
    for (const [dt, cost] of steps) {
      t += dt
      await mineAt(h, t)
      const b = await block(h)
      expect(num(b.timestamp)).toBe(BigInt(t))
      expect(num(b.blockGasCost), `block at +${dt}`).toBe(cost)
    }
    // The maximum bounds it: 30 blocks 1 s apart would reach 15M.
    for (let i = 0; i < 30; i++) await mineAt(h, ++t)
    expect(num((await block(h)).blockGasCost)).toBe(10_000_000n)
    await h.network.close()
  })

  it('automine moves a block later until the tips cover the block gas cost', async () => {
    const h = await fuji(fujiGenesis())
    let t = FUJI_START
    for (const _ of [0, 1, 2]) await mineAt(h, (t += 1)) // costs 0 (first block), 500k, 1M
    expect(num((await block(h)).blockGasCost)).toBe(1_000_000n)
    expect(h.network.clock.now()).toBe(t)

    // A 1 gwei tip on 21000 gas at a 1 gwei base fee covers 21000 gas of block cost: the block
    // waits until the cost is 0 (1M + 500k at +1 s, 1M at +2 s, 500k at +3 s, 0 at +4 s).
    const small = await h.publicClient.getTransactionReceipt({
      hash: await h.wallet(alice).sendTransaction({ to: bob.address, value: 1n, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: parseGwei('1') }),
    })
    let b = await block(h, small.blockNumber)
    expect(num(b.baseFeePerGas)).toBe(1_000_000_000n)
    expect(num(b.timestamp)).toBe(BigInt(t + 4))
    expect(num(b.blockGasCost)).toBe(0n)
    expect(h.network.clock.now()).toBe(t + 4) // the clock follows the block
    t += 4

    for (const _ of [0, 1]) await mineAt(h, (t += 1)) // 500k, 1M
    // A 100 gwei tip covers 2.1M: the block comes at the earliest second, paying 1.5M.
    const big = await h.publicClient.getTransactionReceipt({
      hash: await h.wallet(alice).sendTransaction({ to: bob.address, value: 1n, maxFeePerGas: parseGwei('200'), maxPriorityFeePerGas: parseGwei('100') }),
    })
    b = await block(h, big.blockNumber)
    expect(num(b.timestamp)).toBe(BigInt(t + 1))
    expect(num(b.blockGasCost)).toBe(1_500_000n)
    await h.network.close()
  })

  it('the base fee follows the gas of the last 10 seconds', async () => {
    // A tiny target, so one block of two transfers (42000 gas) moves the price a lot.
    const h = await fuji(fujiGenesis({ targetGas: 1_000, blockGasCostStep: 0 }))
    await rpc(h, 'evm_setAutomine', [false])
    const fees = { maxFeePerGas: parseGwei('10000'), maxPriorityFeePerGas: 1n }
    await h.wallet(alice).sendTransaction({ to: bob.address, value: 1n, ...fees })
    await h.wallet(bob).sendTransaction({ to: alice.address, value: 1n, ...fees })
    await mineAt(h, FUJI_START)
    const first = await block(h)
    expect(num(first.gasUsed)).toBe(42_000n)
    expect(num(first.baseFeePerGas)).toBe(1_000_000_000n) // the first block after genesis: the minimum
    const snapshot = await rpc<Hex>(h, 'evm_snapshot')

    // 9 s later the 42000 gas is still in the window (the oldest slot): the price rises by
    // (42000 - 1000) / 1000 / 48 of itself.
    await mineAt(h, FUJI_START + 9)
    let b = await block(h)
    expect(num(b.baseFeePerGas)).toBe(1_000_000_000n + (41_000n * 1_000_000_000n) / 1_000n / 48n)
    const window = (b.extraData as string).slice(2, 2 + 160)
    expect(BigInt(`0x${window.slice(0, 16)}`)).toBe(42_000n)
    expect(BigInt(`0x${window.slice(16)}`)).toBe(0n)
    expect(((b.extraData as string).length - 2) / 2).toBe(86) // Durango: + empty predicate results

    // 10 s later it has left the window: the price falls (to the minimum here).
    expect(await rpc(h, 'evm_revert', [snapshot])).toBe(true)
    await mineAt(h, FUJI_START + 10)
    b = await block(h)
    expect(num(b.baseFeePerGas)).toBe(1_000_000_000n)
    expect(BigInt(`0x${(b.extraData as string).slice(2, 2 + 160)}`)).toBe(0n)

    // Compounding while the gas stays in the window, then falling by whole windows elapsed.
    expect(await rpc(h, 'evm_revert', ['0x1'])).toBe(false) // used up by the first revert
    await rpc(h, 'anvil_reset')
    await rpc(h, 'evm_setAutomine', [false])
    await h.wallet(alice).sendTransaction({ to: bob.address, value: 1n, ...fees })
    await h.wallet(bob).sendTransaction({ to: alice.address, value: 1n, ...fees })
    await mineAt(h, FUJI_START)
    let expected = 1_000_000_000n
    for (let i = 1; i <= 9; i++) {
      await mineAt(h, FUJI_START + i)
      expected += (41_000n * expected) / 1_000n / 48n
      expect(num((await block(h)).baseFeePerGas), `block at +${i}`).toBe(expected)
    }
    const high = expected
    const afterWindows = async (seconds: number) => {
      const id = await rpc<Hex>(h, 'evm_snapshot')
      await mineAt(h, FUJI_START + 9 + seconds)
      const fee = num((await block(h)).baseFeePerGas)
      await rpc(h, 'evm_revert', [id])
      return fee
    }
    // Empty window: delta = baseFee * 1000 / 1000 / 48, times the windows elapsed when more than one.
    expect(await afterWindows(10)).toBe(high - high / 48n)
    expect(await afterWindows(19)).toBe(high - high / 48n)
    expect(await afterWindows(20)).toBe(high - (high / 48n) * 2n)
    expect(await afterWindows(35)).toBe(high - (high / 48n) * 3n)
    await h.network.close()
  })

  it('the whole fee goes to the coinbase (the blackhole), with no gas refunds; PREVRANDAO is 1', async () => {
    const CLEARER = '0x000000000000000000000000000000000000c1ea'
    const RANDAO_STORE = '0x000000000000000000000000000000000000da0a'
    const RANDAO_READ = '0x000000000000000000000000000000000000da0b'
    const one = pad('0x01')
    const h = await fuji(
      fujiGenesis({}, {
        // SSTORE(0, 0) over a slot holding 1: 5000 gas, and a 4800 refund on Ethereum.
        [CLEARER]: { balance: '0x0', code: '0x600060005500', storage: { [pad('0x00')]: one } },
        // SSTORE(0, PREVRANDAO)
        [RANDAO_STORE]: { balance: '0x0', code: '0x4460005500' },
        // return PREVRANDAO
        [RANDAO_READ]: { balance: '0x0', code: '0x4460005260206000f3' },
      }),
    )
    const { publicClient, wallet } = h
    const blackhole0 = await publicClient.getBalance({ address: BLACKHOLE })
    const sender0 = await publicClient.getBalance({ address: alice.address })
    const hash = await wallet(alice).sendTransaction({ to: CLEARER, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: parseGwei('3'), gas: 50_000n })
    const receipt = await publicClient.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await publicClient.getStorageAt({ address: CLEARER, slot: pad('0x00') })).toBe(pad('0x00'))
    // 21000 + 2 × PUSH1 + cold SSTORE reset (2100 + 2900), nothing refunded (Ethereum: 21206).
    expect(receipt.gasUsed).toBe(26_006n)
    const b = await block(h, receipt.blockNumber)
    expect(b.miner).toBe(BLACKHOLE)
    expect(receipt.effectiveGasPrice).toBe(num(b.baseFeePerGas) + parseGwei('3'))
    const fee = receipt.gasUsed * receipt.effectiveGasPrice
    expect(await publicClient.getBalance({ address: BLACKHOLE })).toBe(blackhole0 + fee)
    expect(await publicClient.getBalance({ address: alice.address })).toBe(sender0 - fee)

    // PREVRANDAO: 1 in a block and in a call.
    const r2 = await publicClient.getTransactionReceipt({ hash: await wallet(carol).sendTransaction({ to: RANDAO_STORE, gas: 100_000n, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: parseGwei('3') }) })
    expect(r2.status).toBe('success')
    expect(await publicClient.getStorageAt({ address: RANDAO_STORE, slot: pad('0x00') })).toBe(one)
    expect((await publicClient.call({ to: RANDAO_READ })).data).toBe(one)
    await h.network.close()
  })
})
