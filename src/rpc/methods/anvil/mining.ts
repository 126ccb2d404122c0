import type { EvmChain } from '../../../evm/chain.js'
import { InvalidParamsError } from '../../errors.js'
import { createParser, jsonKind, UnmarshalTypeError } from '../../params.js'

/** Seconds as anvil and Hardhat take them: a JSON number or a hex/decimal string. */
export const seconds = createParser('u64', (raw) => {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw)
  if (typeof raw === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(raw)) return BigInt(raw)
  throw new UnmarshalTypeError(jsonKind(raw), 'u64')
})

/** evm_mine's optional argument: a timestamp, or `{ timestamp?, blocks? }`. */
export function parseMineOptions(raw: unknown): { timestamp?: bigint; blocks: bigint } {
  if (raw === undefined || raw === null) return { blocks: 1n }
  if (typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as { timestamp?: unknown; blocks?: unknown }
    return {
      timestamp: o.timestamp === undefined || o.timestamp === null ? undefined : seconds(o.timestamp),
      blocks: o.blocks === undefined || o.blocks === null ? 1n : seconds(o.blocks),
    }
  }
  return { timestamp: seconds(raw), blocks: 1n }
}

/** Mines `count` blocks (including pool transactions), each `interval` seconds after the previous. */
export async function mineBlocks(chain: EvmChain, count: bigint, interval: bigint): Promise<void> {
  if (count < 1n) throw new InvalidParamsError('block count must be at least 1')
  if (count > 100_000n) throw new InvalidParamsError('at most 100000 blocks at once')
  for (let i = 0n; i < count; i++) {
    const first = i === 0n
    await chain.miner.mine(first ? {} : { timestamp: chain.head.block.header.timestamp + (interval > 0n ? interval : 1n) })
  }
}
