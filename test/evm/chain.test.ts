import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { mnemonicToAccount } from 'viem/accounts'
import { createNetwork } from '../../src/network/network.js'
import { setBalance, setCode } from '../../src/evm/cheats.js'
import { decodeRawTransaction, submitTransaction } from '../../src/evm/send.js'
import { C_CHAIN_FEE_CONFIG, DEFAULT_FEE_CONFIG, calcNextBaseFee, createWindowFeeRules, decodeFeeWindow, encodeFeeWindow } from '../../src/evm/fees.js'
import { createEvmChain } from '../../src/evm/chain.js'
import { createClock } from '../../src/core/clock.js'
import type { Hex } from '../../src/core/hex.js'

const alice = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 0 })
const carol: Hex = '0x00000000000000000000000000000000000000cc'

async function send(network: Awaited<ReturnType<typeof createNetwork>>, nonce: number, value = 1n) {
  const raw = await alice.signTransaction({ chainId: 43112, type: 'eip1559', nonce, to: carol, value, gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n })
  const { tx, from, hash } = decodeRawTransaction(network.cChain, hexToBytes(raw))
  return submitTransaction(network.cChain, network.cChain.miner, tx, from, hash)
}

describe('fee window', () => {
  const parent = (gasUsed: bigint, extra = new Uint8Array(80)) => ({ number: 5n, timestamp: 100n, gasUsed, baseFeePerGas: 2_000_000_000n, extraData: extra })
  it('starts at the minimum after genesis and encodes the window round trip', () => {
    expect(calcNextBaseFee(C_CHAIN_FEE_CONFIG, { ...parent(0n), number: 0n }, 101n).baseFee).toBe(C_CHAIN_FEE_CONFIG.minBaseFee)
    const window = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n]
    expect(decodeFeeWindow(encodeFeeWindow(window))).toEqual(window)
  })
  it('rises above target, falls below it, and never below the minimum', () => {
    const busy = calcNextBaseFee(C_CHAIN_FEE_CONFIG, parent(20_000_000n), 101n)
    expect(busy.baseFee).toBeGreaterThan(2_000_000_000n)
    expect(busy.window[9]).toBe(0n)
    expect(busy.window[8]).toBe(20_000_000n)
    const idle = calcNextBaseFee(C_CHAIN_FEE_CONFIG, parent(21_000n), 101n)
    expect(idle.baseFee).toBeLessThan(2_000_000_000n)
    const longIdle = calcNextBaseFee(C_CHAIN_FEE_CONFIG, parent(0n), 1000n)
    expect(longIdle.baseFee).toBe(C_CHAIN_FEE_CONFIG.minBaseFee)
  })
})

describe('EvmChain', () => {
  it('cheat edits land in the next block state root; history does not see them', async () => {
    const network = await createNetwork()
    const chain = network.cChain
    await setBalance(chain, carol, 123n)
    await setCode(chain, carol, hexToBytes('0x6001'))
    const before = chain.head.block.header.stateRoot
    const block = await chain.miner.mine()
    expect(bytesToHex(block.block.header.stateRoot)).not.toBe(bytesToHex(before))
    expect((await chain.getAccountFields(carol, 1n)).balance).toBe(123n)
    expect((await chain.getAccountFields(carol, 0n)).balance).toBe(0n)
    expect(bytesToHex(await chain.getCode(carol, 'latest'))).toBe('0x6001')
  })

  it('network snapshots cover blocks, state and the clock; ids are used up on revert', async () => {
    const network = await createNetwork()
    const t0 = network.clock.now()
    const id = await network.snapshot()
    await send(network, 0)
    await network.advanceTime(50)
    const later = await network.snapshot()
    expect(network.cChain.store.height).toBe(1n)
    expect(await network.revert(id)).toBe(true)
    expect(network.cChain.store.height).toBe(0n)
    expect(network.clock.now()).toBe(t0)
    expect((await network.cChain.getAccountFields(carol, 'latest')).balance).toBe(0n)
    expect(await network.revert(later)).toBe(false)
    expect(await network.revert(id)).toBe(false)
    // The chain goes on from the reverted state, and the same transaction gets the same hash.
    expect(await send(network, 0)).toMatch(/^0x/)
    expect(network.cChain.store.height).toBe(1n)
  })

  it('manual mining keeps transactions (even nonce gaps) in the pool until a block is mined', async () => {
    const network = await createNetwork({ mining: { mode: 'manual' } })
    await send(network, 0)
    await send(network, 2)
    expect(network.cChain.pool.size).toBe(2)
    await network.cChain.miner.mine()
    expect(network.cChain.head.txs).toHaveLength(1)
    await send(network, 1)
    await network.cChain.miner.mine()
    expect(network.cChain.head.txs.map((t) => t.tx.nonce)).toEqual([1n, 2n])
    expect(network.cChain.pool.size).toBe(0)
  })

  it('interval mining follows network time: advancing 10 s at 2 s intervals builds 5 blocks', async () => {
    const network = await createNetwork({ mining: { mode: 'interval', interval: 2 } })
    const start = network.clock.now()
    await network.advanceTime(10)
    const chain = network.cChain
    expect(chain.store.height).toBe(5n)
    expect([...chain.store.range(1n, 5n)].map((b) => Number(b.block.header.timestamp) - start)).toEqual([2, 4, 6, 8, 10])
  })

  it('the whole fee goes to the blackhole coinbase and nothing is minted per block', async () => {
    const network = await createNetwork()
    const chain = network.cChain
    const coinbase = '0x0100000000000000000000000000000000000000'
    await send(network, 0)
    const [mined] = chain.head.txs
    const fee = mined!.receipt.gasUsed * mined!.receipt.effectiveGasPrice
    expect((await chain.getAccountFields(coinbase, 'latest')).balance).toBe(fee)
    await chain.miner.mine()
    expect((await chain.getAccountFields(coinbase, 'latest')).balance).toBe(fee)
  })

  it("block timestamps keep the chain's minimum delay even when the clock stands still (Granite: 2 s)", async () => {
    const network = await createNetwork()
    await send(network, 0)
    await send(network, 1)
    const [a, b] = [network.cChain.store.byNumber(1n)!, network.cChain.store.byNumber(2n)!]
    expect(b.block.header.timestamp).toBe(a.block.header.timestamp + 2n)
  })

  it('a chain with subnet-EVM fees refuses a fee cap below the next base fee', async () => {
    const clock = createClock()
    const chain = await createEvmChain({
      alias: 'L1',
      chainId: 43112n,
      clock,
      feeRules: createWindowFeeRules(DEFAULT_FEE_CONFIG),
      upgrades: { shanghaiTime: 0, cancunTime: 0 },
      genesis: { timestamp: BigInt(clock.now()), gasLimit: DEFAULT_FEE_CONFIG.gasLimit, baseFeePerGas: DEFAULT_FEE_CONFIG.minBaseFee, alloc: { [alice.address.toLowerCase()]: { balance: 10n ** 20n } } },
    })
    const raw = await alice.signTransaction({ chainId: 43112, type: 'eip1559', nonce: 0, to: carol, value: 1n, gas: 21000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n })
    const { tx, from, hash } = decodeRawTransaction(chain, hexToBytes(raw))
    await expect(submitTransaction(chain, chain.miner, tx, from, hash)).rejects.toThrow(
      `max fee per gas less than block base fee: address ${alice.address}, maxFeePerGas: 2, baseFee: 25000000000`,
    )
    expect(chain.pool.size).toBe(0)
  })
})

describe('block context', () => {
  it('PREVRANDAO reads the difficulty, 1, as coreth and subnet-EVM set it', async () => {
    const network = await createNetwork()
    const { call } = await import('../../src/evm/call.js')
    // init code: PREVRANDAO PUSH0 MSTORE PUSH1 32 PUSH0 RETURN, so the call returns the value.
    const result = await call(network.cChain, { data: hexToBytes('0x445f5260205ff3') }, 'latest')
    expect(bytesToHex(result.returnValue)).toBe(`0x${'0'.repeat(63)}1`)
    await network.close()
  })
})

describe('rules by block timestamp', () => {
  it('before Durango there is no PUSH0 and no blob header field; mining past Durango and Etna switches both', async () => {
    // fuji: Durango 1707840000, Etna 1732550400.
    const network = await createNetwork({ preset: 'fuji', clock: { start: 1_707_000_000 } })
    const { call } = await import('../../src/evm/call.js')
    const push0 = { data: hexToBytes('0x5f5f5260205ff3') } // PUSH0 PUSH0 MSTORE PUSH1 32 PUSH0 RETURN
    const block1 = await network.cChain.miner.mine()
    expect(block1.block.header.blobGasUsed).toBeUndefined()
    expect((await call(network.cChain, push0, 'latest')).error).toBe('invalid opcode')
    network.clock.setTime(1_707_840_000)
    const block2 = await network.cChain.miner.mine()
    expect(block2.block.header.blobGasUsed).toBeUndefined()
    expect((await call(network.cChain, push0, 'latest')).success).toBe(true)
    // History keeps its own rules.
    expect((await call(network.cChain, push0, 1n)).error).toBe('invalid opcode')
    network.clock.setTime(1_732_550_400)
    const block3 = await network.cChain.miner.mine()
    expect(block3.block.header.blobGasUsed).toBe(0n)
    await network.close()
  })
})
