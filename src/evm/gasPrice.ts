import type { EvmChain } from './chain.js'
import { effectiveTip } from './pool.js'

/** coreth's default gas price oracle (`eth/ethconfig` DefaultFullGPOConfig). */
export const GPO = {
  blocks: 40,
  percentile: 40,
  maxLookbackSeconds: 80n,
  minPrice: 1n,
  maxPrice: 150_000_000_000n,
} as const

/**
 * The suggested priority fee: the 40th percentile of the effective tips paid in the last 40
 * blocks of the past 80 seconds, between 1 wei and 150 gwei (coreth `gasprice.SuggestTipCap`).
 */
export function suggestTip(chain: EvmChain): bigint {
  const head = chain.store.height
  const now = BigInt(chain.clock.now())
  const tips: bigint[] = []
  for (let n = head; n >= 0n && n > head - BigInt(GPO.blocks); n--) {
    const stored = chain.store.byNumber(n)!
    const header = stored.block.header
    if (header.timestamp + GPO.maxLookbackSeconds < now) break
    for (const { tx } of stored.txs) tips.push(effectiveTip(tx, header.baseFeePerGas ?? 0n))
  }
  if (tips.length === 0) return GPO.minPrice
  tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const price = tips[Math.floor(((tips.length - 1) * GPO.percentile) / 100)]!
  return price < GPO.minPrice ? GPO.minPrice : price > GPO.maxPrice ? GPO.maxPrice : price
}
