import { describe, expect, it } from 'vitest'
import { hexToBytes } from '@ethereumjs/util'
import { mnemonicToAccount } from 'viem/accounts'
import {
  INITIAL_DELAY_EXCESS,
  advance,
  createAcp176FeeRules,
  decodeFeeState,
  encodeFeeState,
  fakeExponential,
  gasPrice,
  maxCapacity,
  minDelayMs,
  targetPerSecond,
} from '../../src/evm/acp176.js'
import { createNetwork } from '../../src/network/network.js'
import { decodeRawTransaction, submitTransaction } from '../../src/evm/send.js'

describe('ACP-176 arithmetic (avalanchego acp176_test.go vectors)', () => {
  it('target, capacity and price', () => {
    expect(targetPerSecond(0n)).toBe(1_000_000n)
    expect(maxCapacity(0n)).toBe(10_000_000n)
    expect(targetPerSecond(13_605_152n)).toBe(1_500_000n)
    expect(gasPrice({ capacity: 0n, excess: 2_704_386_192n, targetExcess: 13_605_152n })).toBe(1_000_000_002n)
    expect(gasPrice({ capacity: 0n, excess: 0n, targetExcess: 0n })).toBe(1n)
    expect(fakeExponential(1n, 0n, 1n)).toBe(1n)
  })
  it('ACP-226 delay: 2000 ms at the initial excess, 1999 ms one below', () => {
    expect(minDelayMs(INITIAL_DELAY_EXCESS)).toBe(2000n)
    expect(minDelayMs(INITIAL_DELAY_EXCESS - 1n)).toBe(1999n)
  })
  it('capacity refills at 2× target per second up to 10× target; excess drains at target', () => {
    expect(advance({ capacity: 0n, excess: 5_000_000n, targetExcess: 0n }, 1000n)).toEqual({ capacity: 2_000_000n, excess: 4_000_000n, targetExcess: 0n })
    expect(advance({ capacity: 9_000_000n, excess: 0n, targetExcess: 0n }, 60_000n).capacity).toBe(10_000_000n)
  })
  it('the fee state round-trips through the header extra data (24 bytes + empty predicate results)', () => {
    const state = { capacity: 123n, excess: 456n, targetExcess: 789n }
    const extra = encodeFeeState(state)
    expect(extra).toHaveLength(30)
    expect(decodeFeeState(extra)).toEqual(state)
  })
  it('a block after a full one must wait for capacity', () => {
    const rules = createAcp176FeeRules()
    const parent = { number: 5n, timestamp: 100n, gasUsed: 10_000_000n, gasLimit: 10_000_000n, baseFeePerGas: 1n, extraData: encodeFeeState({ capacity: 0n, excess: 10_000_000n, targetExcess: 0n }) }
    expect(rules.next(parent, 102n).gasAvailable).toBe(4_000_000n)
    expect(rules.timestampForGas(parent, 102n, 9_000_000n)).toBe(105n)
  })
})

describe('the C-chain under ACP-176', () => {
  const alice = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 0 })
  it('an idle chain charges 1 wei, blocks hold 10M gas, the fee state is in the extra data, blocks are 2 s apart', async () => {
    const network = await createNetwork()
    const chain = network.cChain
    expect(chain.nextBaseFee()).toBe(1n)
    expect(chain.nextGasLimit()).toBe(10_000_000n)
    for (let nonce = 0; nonce < 2; nonce++) {
      const raw = await alice.signTransaction({ chainId: 43112, type: 'eip1559', nonce, to: '0x00000000000000000000000000000000000000cc', value: 1n, gas: 21000n, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n })
      const { tx, from, hash } = decodeRawTransaction(chain, hexToBytes(raw))
      await submitTransaction(chain, chain.miner, tx, from, hash)
    }
    const [one, two] = [chain.store.byNumber(1n)!, chain.store.byNumber(2n)!]
    expect(one.block.header.baseFeePerGas).toBe(1n)
    expect(one.block.header.gasLimit).toBe(10_000_000n)
    expect(decodeFeeState(one.block.header.extraData)).toEqual({ capacity: 10_000_000n - 21_000n, excess: 21_000n, targetExcess: 0n })
    expect(two.block.header.timestamp - one.block.header.timestamp).toBe(2n)
    expect(one.txs[0]!.receipt.effectiveGasPrice).toBe(2n)
  })
})
