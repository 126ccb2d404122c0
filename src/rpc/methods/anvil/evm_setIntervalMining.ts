import { defineEthMethod } from '../define.js'
import { tuple } from '../../params.js'
import { seconds } from './mining.js'

/**
 * Serves `evm_setIntervalMining` (also `anvil_setIntervalMining`): a block every `interval` seconds of network time (anvil's
 * unit; Hardhat's takes milliseconds). 0 turns interval mining off (manual mining). Under the chain lock, so a
 * catch-up run of interval blocks in progress finishes under the old setting.
 *
 * @example
 * evm_setIntervalMining [2] // null
 */
export const evm_setIntervalMining = defineEthMethod(
  tuple(seconds),
  ([interval], ctx) =>
    ctx.chain.lock.run(() => {
      if (interval === 0n) {
        ctx.chain.mining = { mode: 'manual' }
        ctx.chain.nextIntervalAt = undefined
      } else {
        ctx.chain.mining = { mode: 'interval', interval: Number(interval) }
        ctx.chain.nextIntervalAt = BigInt(ctx.network.clock.now()) + interval
      }
      return null
    }),
)
