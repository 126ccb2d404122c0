import { yieldToEventLoop } from '../core/eventLoop.js'
import type { EvmChain } from '../evm/chain.js'

/**
 * Most interval blocks one pass builds for a chain. When more fell due (a long jump in time), the
 * earliest are dropped, as a Go ticker drops ticks for a slow receiver: the work of a jump is
 * bounded, whatever its length.
 */
export const MAX_INTERVAL_CATCH_UP_BLOCKS = 1_000

/** Blocks built between two turns of the event loop during a catch-up. */
const BLOCKS_PER_TURN = 32

/**
 * Builds the interval blocks due on `chain` by `now` (unix seconds). Interval mining is a grid of
 * slots `interval` seconds apart; a block is built at each slot the clock has reached, with the
 * slot as its timestamp, so interval blocks never run ahead of the clock (a block ahead of the
 * clock moves the clock, which would make the next slots due at once: blocks feeding
 * themselves). A slot closer to the parent than the chain's minimum block delay is skipped (the
 * C-chain's Granite delay is 2 s: `--block-time 1` gives a block every 2 s there). A cheat code's
 * timestamp (`evm_setNextBlockTimestamp`, `anvil_setBlockTimestampInterval`) still applies to the
 * block of the slot, and the grid restarts from that block. Returns how many blocks were built.
 */
export async function mineDueIntervalBlocks(chain: EvmChain, now: bigint): Promise<number> {
  if (chain.mining.mode !== 'interval' || chain.nextIntervalAt === undefined || chain.nextIntervalAt > now) return 0
  return chain.lock.run(async () => {
    let built = 0
    while (built < MAX_INTERVAL_CATCH_UP_BLOCKS && chain.mining.mode === 'interval' && chain.nextIntervalAt !== undefined) {
      const interval = BigInt(chain.mining.interval)
      let slot = chain.nextIntervalAt
      if (built === 0) slot = firstSlotFrom(slot, now - interval * BigInt(MAX_INTERVAL_CATCH_UP_BLOCKS - 1), interval)
      const cheat = chain.timing.nextTimestamp !== undefined || chain.timing.interval !== undefined
      if (!cheat) {
        const parent = chain.head.block.header.timestamp
        slot = firstSlotFrom(slot, parent + chain.feeRules.minBlockDelay(parent), interval)
      }
      if (slot > now) {
        chain.nextIntervalAt = slot
        break
      }
      if (built > 0 && built % BLOCKS_PER_TURN === 0) await yieldToEventLoop()
      const block = await chain.miner.mineLocked(cheat ? {} : { timestamp: slot })
      built++
      const timestamp = block.block.header.timestamp
      chain.nextIntervalAt = (timestamp > slot ? timestamp : slot) + interval
    }
    return built
  })
}

/** The first slot of the grid through `slot` (step `interval`) at or after `earliest`. */
function firstSlotFrom(slot: bigint, earliest: bigint, interval: bigint): bigint {
  return slot >= earliest ? slot : slot + ((earliest - slot + interval - 1n) / interval) * interval
}
