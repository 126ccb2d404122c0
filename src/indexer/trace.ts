import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { createAddressFromString } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import { traceBlockCalls, type CallFrameJson } from '../evm/trace.js'
import type { StoredBlock } from '../evm/types.js'

/**
 * Internal transactions and contract creations, read from execution traces. Nothing runs when a
 * block is mined: a block is replayed with the call tracer (`traceBlockCalls`) the first time one
 * of its transactions is asked about, and the result is kept per block hash in a bounded LRU. A
 * block whose transactions cannot make a call of their own (no creation, every recipient without
 * code before and after the block) is never replayed.
 *
 * Entries are keyed by block hash and reached only through the chain's canonical store (a
 * transaction's block, a height's block), so a reverted block's trace is never served; the
 * `truncate` event drops them early to free the memory.
 */

export type InternalTxType = 'CALL' | 'CREATE' | 'CREATE2' | 'DELEGATECALL' | 'STATICCALL' | 'CALLCODE' | 'UNKNOWN'

/**
 * One call frame below a transaction's own. The transaction's top-level call is not one: the
 * hosted API's models describe `nativeTransaction` as "the native (top-level) transaction" beside
 * the list of internal ones, whose notes point to `debug_` tracing for the complete call tree; its
 * OpenAPI document carries no example list that would show the top-level call repeated there.
 */
export type InternalTransaction = {
  from: Hex
  /** The callee, or the created contract; the zero address for a creation that failed. */
  to: Hex
  internalTxType: InternalTxType
  /** As the call tracer reports it (a DELEGATECALL carries its caller's value, a STATICCALL 0). */
  value: bigint
  gasUsed: bigint
  gasLimit: bigint
  /** The frame or one of its ancestors (the transaction's own call included) failed. */
  isReverted: boolean
}

export type ContractCreation = {
  address: Hex
  txHash: Hex
  txIndex: number
  blockNumber: number
  blockHash: Hex
  /** The address whose frame created the contract: the sender for a creation transaction, else the creating contract. */
  deployer: Hex
  /** The transaction's sender. */
  origin: Hex
  internalTxType: 'CREATE' | 'CREATE2'
  /** True when an internal CREATE/CREATE2 made it, false for a creation transaction. */
  internal: boolean
}

type BlockTrace = {
  number: bigint
  internals: Map<Hex, InternalTransaction[]>
  creations: ContractCreation[]
}

const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000'
const TYPES: Record<string, InternalTxType> = {
  CALL: 'CALL',
  CREATE: 'CREATE',
  CREATE2: 'CREATE2',
  DELEGATECALL: 'DELEGATECALL',
  STATICCALL: 'STATICCALL',
  CALLCODE: 'CALLCODE',
}
const lower = (h: string): Hex => h.toLowerCase() as Hex

/** The frames below `top` in execution (depth-first, pre-) order. */
function flatten(top: CallFrameJson): InternalTransaction[] {
  const out: InternalTransaction[] = []
  const walk = (frame: CallFrameJson, parentFailed: boolean) => {
    for (const call of frame.calls ?? []) {
      const failed = parentFailed || call.error !== undefined
      out.push({
        from: lower(call.from),
        to: call.to === undefined ? ZERO_ADDRESS : lower(call.to),
        internalTxType: TYPES[call.type] ?? 'UNKNOWN',
        value: call.value === undefined ? 0n : BigInt(call.value),
        gasUsed: BigInt(call.gasUsed),
        gasLimit: BigInt(call.gas),
        isReverted: failed,
      })
      walk(call, failed)
    }
  }
  walk(top, top.error !== undefined)
  return out
}

export type TraceIndexer = ReturnType<typeof createTraceIndexer>

export function createTraceIndexer(options: { chain: EvmChain; maxBlocks?: number }) {
  const { chain } = options
  const maxBlocks = Math.max(1, options.maxBlocks ?? 4096)
  /** Block hash → its trace, least recently used first. */
  const memo = new Map<Hex, { number: bigint; trace: Promise<BlockTrace | undefined> }>()
  const creations = new Map<Hex, ContractCreation>()
  let tracedBlocks = 0
  let skippedBlocks = 0

  /** A read-only state at `root` (call under the chain lock). */
  async function stateAt(root: Uint8Array): Promise<MerkleStateManager> {
    const state = chain.stateManager.shallowCopy(false)
    await state.setStateRoot(root)
    return state
  }
  const hasCode = async (state: MerkleStateManager, address: Hex) => (await state.getCode(createAddressFromString(address))).length > 0

  /**
   * Whether a transaction of `stored` can have a frame below its own: a creation, or a call to an
   * address with code in the state the block started from or ended with.
   */
  async function mayCall(stored: StoredBlock): Promise<boolean> {
    if (stored.txs.length === 0) return false
    if (stored.txs.some((m) => m.tx.to === undefined)) return true
    // The miner counted each transaction's inner messages: the count decides.
    if (stored.txs.every((m) => m.innerCalls !== undefined)) return stored.txs.some((m) => m.innerCalls! > 0)
    const recipients = [...new Set(stored.txs.map((m) => lower(m.tx.to!.toString())))]
    return chain.lock.run(async () => {
      const parent = chain.store.byNumber(stored.number - 1n)
      const roots = [stored.preStateRoot ?? parent?.block.header.stateRoot, stored.block.header.stateRoot]
      for (const root of roots) {
        if (!root) return true
        const state = await stateAt(root)
        for (const to of recipients) if (await hasCode(state, to)) return true
      }
      return false
    })
  }

  async function build(stored: StoredBlock): Promise<BlockTrace | undefined> {
    const internals = new Map<Hex, InternalTransaction[]>()
    const made: ContractCreation[] = []
    if (!(await mayCall(stored))) {
      skippedBlocks++
      for (const m of stored.txs) internals.set(m.hash, [])
      return { number: stored.number, internals, creations: made }
    }
    const frames = await traceBlockCalls(chain, stored.hash)
    if (!frames) return undefined
    tracedBlocks++
    stored.txs.forEach((m, i) => {
      const top = frames[i]!
      const list = flatten(top)
      internals.set(m.hash, list)
      const base = { txHash: m.hash, txIndex: m.index, blockNumber: Number(stored.number), blockHash: stored.hash, origin: lower(m.from) }
      if (top.type === 'CREATE' && top.error === undefined && top.to !== undefined)
        made.push({ ...base, address: lower(top.to), deployer: lower(m.from), internalTxType: 'CREATE', internal: false })
      for (const f of list)
        if ((f.internalTxType === 'CREATE' || f.internalTxType === 'CREATE2') && !f.isReverted)
          made.push({ ...base, address: f.to, deployer: f.from, internalTxType: f.internalTxType, internal: true })
    })
    return { number: stored.number, internals, creations: made }
  }

  /** The trace of a canonical block, memoized by its hash. */
  function blockTrace(stored: StoredBlock): Promise<BlockTrace | undefined> {
    const hit = memo.get(stored.hash)
    if (hit) {
      memo.delete(stored.hash)
      memo.set(stored.hash, hit)
      return hit.trace
    }
    const trace = build(stored).then(
      (t) => {
        if (!t && memo.get(stored.hash)?.trace === trace) memo.delete(stored.hash)
        return t
      },
      (error: unknown) => {
        if (memo.get(stored.hash)?.trace === trace) memo.delete(stored.hash)
        throw error
      },
    )
    memo.set(stored.hash, { number: stored.number, trace })
    while (memo.size > maxBlocks) memo.delete(memo.keys().next().value!)
    return trace
  }

  /** The smallest height whose state has code at `address`; undefined when the head's has none. */
  function firstHeightWithCode(address: Hex): Promise<bigint | undefined> {
    return chain.lock.run(async () => {
      const rootOf = (n: bigint) => chain.store.byNumber(n)!.block.header.stateRoot
      const state = chain.stateManager.shallowCopy(false)
      const codeAt = async (n: bigint) => {
        await state.setStateRoot(rootOf(n))
        return hasCode(state, address)
      }
      let hi = chain.store.height
      if (!(await codeAt(hi))) return undefined
      let lo = 0n
      while (lo < hi) {
        const mid = (lo + hi) / 2n
        if (await codeAt(mid)) hi = mid
        else lo = mid + 1n
      }
      return lo
    })
  }

  function truncate(height: bigint): void {
    for (const [hash, entry] of memo) if (entry.number > height) memo.delete(hash)
    for (const [address, c] of creations) if (BigInt(c.blockNumber) > height) creations.delete(address)
  }

  return {
    /** Blocks replayed so far, and blocks answered without a replay (plain transfers, empty). */
    get stats(): { tracedBlocks: number; skippedBlocks: number; memoized: number } {
      return { tracedBlocks, skippedBlocks, memoized: memo.size }
    },
    /** Drops what was learnt about blocks above `height` (the chain's `truncate` event does this after `follow`). */
    truncate,
    /** Follows the chain's `truncate` events; returns the function that stops following. */
    follow(): () => void {
      return chain.events.on('truncate', ({ height }) => truncate(height))
    },
    /**
     * The frames below the transaction's own call, in execution order; undefined for a
     * transaction the chain does not hold.
     */
    async internalTransactions(txHash: string): Promise<InternalTransaction[] | undefined> {
      const mined = chain.store.tx(lower(txHash))
      if (!mined) return undefined
      const stored = chain.store.byHash(mined.blockHash)
      if (!stored) return undefined
      if (mined.innerCalls === 0) return []
      return (await blockTrace(stored))?.internals.get(mined.hash)
    },
    /**
     * The transaction that created the contract at `address`, by a creation transaction or by a
     * contract's CREATE/CREATE2 in a frame that did not revert. The block is found by a binary
     * search over the heights' states for the first with code there, and only that block is
     * traced. Undefined for an address without code, a genesis account, or code put there by a
     * state edit.
     */
    async creationOf(address: string): Promise<ContractCreation | undefined> {
      const addr = lower(address)
      const known = creations.get(addr)
      if (known && chain.store.byNumber(BigInt(known.blockNumber))?.hash === known.blockHash) return known
      const height = await firstHeightWithCode(addr)
      if (height === undefined || height === 0n) return undefined
      const stored = chain.store.byNumber(height)
      if (!stored) return undefined
      const found = (await blockTrace(stored))?.creations.find((c) => c.address === addr)
      if (found && chain.store.byHash(found.blockHash)) {
        creations.set(addr, found)
        while (creations.size > maxBlocks) creations.delete(creations.keys().next().value!)
      }
      return found
    },
  }
}
