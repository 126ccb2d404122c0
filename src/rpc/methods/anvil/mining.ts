import { MAX_TIME } from '../../../core/clock.js'
import { yieldToEventLoop } from '../../../core/eventLoop.js'
import type { EvmChain } from '../../../evm/chain.js'
import { InvalidParamsError, RpcServerError } from '../../errors.js'
import { createParser, jsonKind, UnmarshalTypeError } from '../../params.js'

const MAX_U64 = (1n << 64n) - 1n

/** Most blocks one `anvil_mine` / `evm_mine` builds. */
export const MAX_MINE_BLOCKS = 100_000n

/** Blocks mined between two turns of the event loop: other requests are served while a long run mines. */
const BLOCKS_PER_TURN = 32n

/**
 * Seconds as anvil and Hardhat take them (a u64): a JSON number or a hex/decimal string. Past
 * 64 bits it fails as geth's `hexutil.Uint64` does (`hex number > 64 bits`), or for a decimal as
 * encoding/json refuses a number that does not fit (`cannot unmarshal number N`).
 */
export const seconds = createParser('u64', (raw) => {
  if (typeof raw === 'number') {
    if (Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw)
    throw new UnmarshalTypeError(`number ${raw}`, 'u64')
  }
  if (typeof raw === 'string') {
    const hex = /^0x([0-9a-fA-F]+)$/.exec(raw)
    if (hex) {
      // The width is checked on the text, so a megabyte of digits costs no big-integer parse.
      if (hex[1]!.replace(/^0+/, '').length > 16) throw new UnmarshalTypeError('hex number > 64 bits', 'u64')
      return BigInt(raw)
    }
    if (/^[0-9]+$/.test(raw)) {
      const digits = raw.replace(/^0+/, '')
      if (digits.length > 20 || BigInt(digits || '0') > MAX_U64) throw new UnmarshalTypeError(`number ${raw}`, 'u64')
      return BigInt(raw)
    }
  }
  throw new UnmarshalTypeError(jsonKind(raw), 'u64')
})

/**
 * anvil's refusal of a timestamp it cannot keep (`evm_setNextBlockTimestamp`, `evm_setTime`:
 * `The timestamp is too big`); here anything past the network clock's {@link MAX_TIME}.
 */
export function checkTimestamp(timestamp: bigint): void {
  if (timestamp > BigInt(MAX_TIME)) throw new InvalidParamsError('The timestamp is too big')
}

/** Pins the next block's timestamp, which must be after the head's and within {@link MAX_TIME}. */
export function pinNextTimestamp(chain: EvmChain, timestamp: bigint): void {
  checkTimestamp(timestamp)
  const parent = chain.head.block.header.timestamp
  if (timestamp <= parent)
    throw new RpcServerError(`Timestamp error: ${timestamp} is lower than or equal to previous block's timestamp ${parent}`)
  chain.timing.nextTimestamp = timestamp
}

/** evm_mine's optional argument, as anvil's `MineOptions`: a timestamp, or `{ timestamp?, blocks? }`. */
export const mineOptions = createParser('MineOptions', (raw): { timestamp?: bigint; blocks: bigint } => {
  if (raw === undefined || raw === null) return { blocks: 1n }
  if (typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as { timestamp?: unknown; blocks?: unknown }
    return {
      timestamp: o.timestamp === undefined || o.timestamp === null ? undefined : seconds(o.timestamp),
      blocks: o.blocks === undefined || o.blocks === null ? 1n : seconds(o.blocks),
    }
  }
  return { timestamp: seconds(raw), blocks: 1n }
})

/**
 * Mines `count` blocks (the first with the pool's transactions), each `interval` seconds after
 * the previous. The whole run holds the chain lock, so nobody sees it half-done, but yields to
 * the event loop every few blocks: a hundred thousand blocks take seconds, and every other
 * request (health, other chains, reads that need no lock) is answered meanwhile.
 */
export async function mineBlocks(chain: EvmChain, count: bigint, interval: bigint): Promise<void> {
  if (count < 1n) throw new InvalidParamsError('block count must be at least 1')
  if (count > MAX_MINE_BLOCKS) throw new InvalidParamsError(`at most ${MAX_MINE_BLOCKS} blocks at once`)
  const step = interval > 0n ? interval : 1n
  await chain.lock.run(async () => {
    checkTimestamp(chain.nextBlockTimestamp() + (count - 1n) * step)
    for (let i = 0n; i < count; i++) {
      if (i > 0n && i % BLOCKS_PER_TURN === 0n) await yieldToEventLoop()
      await chain.miner.mineLocked(i === 0n ? {} : { timestamp: chain.head.block.header.timestamp + step })
    }
  })
}
