import { defineEthMethod } from '../define.js'
import { toQuantity } from '../../../core/hex.js'
import { effectiveTip } from '../../../evm/pool.js'
import { RpcServerError } from '../../errors.js'
import { blockNumber, createParser, jsonKind, tuple, UnmarshalTypeError } from '../../params.js'

const MAX_CALL_BLOCK_HISTORY = 2048n
const MAX_BLOCK_HISTORY = 25_000n

/** `math.HexOrDecimal64`: a JSON number or a hex/decimal string. */
const blockCount = createParser('math.HexOrDecimal64', (raw) => {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0) return BigInt(raw)
  if (typeof raw === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(raw)) return BigInt(raw)
  throw new UnmarshalTypeError(jsonKind(raw), 'math.HexOrDecimal64')
})

const percentiles = createParser('[]float64', (raw) => {
  if (raw === null || raw === undefined) return []
  if (!Array.isArray(raw)) throw new UnmarshalTypeError(jsonKind(raw), '[]float64')
  return raw.map((p) => {
    if (typeof p !== 'number') throw new UnmarshalTypeError(jsonKind(p), 'float64')
    return p
  })
}, { optional: true })

/**
 * Serves `eth_feeHistory` as coreth does: at most 2048 blocks, exactly one base fee per block
 * (no extra next-block entry, unlike geth), gas-weighted reward percentiles.
 */
export const eth_feeHistory = defineEthMethod(
  tuple(blockCount, blockNumber, percentiles),
  ([count, last, rewardPercentiles], ctx) => {
    const chain = ctx.chain
    if (count < 1n) return { oldestBlock: '0x0', gasUsedRatio: null }
    if (count > MAX_CALL_BLOCK_HISTORY) count = MAX_CALL_BLOCK_HISTORY
    if (rewardPercentiles.length > 100) throw new RpcServerError('invalid reward percentile: over the query limit 100')
    rewardPercentiles.forEach((p, i) => {
      if (p < 0 || p > 100) throw new RpcServerError(`invalid reward percentile: ${p}`)
      if (i > 0 && p <= rewardPercentiles[i - 1]!) throw new RpcServerError(`invalid reward percentile: #${i - 1}:${rewardPercentiles[i - 1]} >= #${i}:${p}`)
    })
    const head = chain.store.height
    let lastBlock = head
    if (last === 'pending') count -= 1n
    else if (typeof last === 'bigint') {
      if (last > head) throw new RpcServerError(`request beyond head block: requested ${last}, head ${head}`)
      lastBlock = last
    }
    if (head - lastBlock > MAX_BLOCK_HISTORY) throw new RpcServerError(`request beyond historical limit: requested ${lastBlock}, oldest allowed ${head - MAX_BLOCK_HISTORY}`)
    if (count < 1n) return { oldestBlock: '0x0', gasUsedRatio: null }
    let oldest = lastBlock - count + 1n
    if (oldest < 0n) oldest = 0n
    const baseFees: string[] = []
    const ratios: number[] = []
    const rewards: string[][] = []
    for (const stored of chain.store.range(oldest, lastBlock)) {
      const h = stored.block.header
      const baseFee = h.baseFeePerGas ?? 0n
      baseFees.push(toQuantity(baseFee))
      ratios.push(Number(h.gasUsed) / Number(h.gasLimit))
      if (rewardPercentiles.length === 0) continue
      const tips = stored.txs
        .map((t) => ({ tip: effectiveTip(t.tx, baseFee), gas: t.receipt.gasUsed }))
        .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
      if (tips.length === 0) {
        rewards.push(rewardPercentiles.map(() => '0x0'))
        continue
      }
      const row: string[] = []
      let i = 0
      let sum = tips[0]!.gas
      for (const p of rewardPercentiles) {
        const threshold = BigInt(Math.floor(Number(h.gasUsed) * p / 100))
        while (sum < threshold && i < tips.length - 1) sum += tips[++i]!.gas
        row.push(toQuantity(tips[i]!.tip))
      }
      rewards.push(row)
    }
    return {
      oldestBlock: toQuantity(oldest),
      ...(rewardPercentiles.length > 0 ? { reward: rewards } : {}),
      baseFeePerGas: baseFees,
      gasUsedRatio: ratios,
    }
  },
)
