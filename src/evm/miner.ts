import { createAddressFromString, equalsBytes } from '@ethereumjs/util'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { RunTxResult } from '@ethereumjs/vm'
import { MAX_TIME, TimeOutOfRangeError } from '../core/clock.js'
import { flatHex, type Hex } from '../core/hex.js'
import { BlockSharing } from './blockSharing.js'
import type { EvmChain } from './chain.js'
import { forkActiveAt } from './common.js'
import { setBuilderExtraData, startBlock } from './ethereumjsInternals.js'
import { stateTransitionErrors, TxRejectedError } from './errors.js'
import { txFees, type PoolTx } from './pool.js'
import { onBlockRules } from './txRules.js'
import type { LogEntry, MinedTx, Receipt, StoredBlock } from './types.js'

export type MineOptions = {
  /** Exact timestamp; default: the chain's next block timestamp. */
  timestamp?: bigint
}

/**
 * Builds blocks from the pool. `requestBlock` coalesces: a transaction admitted while a block
 * is queued joins that block, so concurrent senders share blocks and sequential ones get one
 * block each (automine). Failed transactions are dropped with their reason, kept for the sender.
 */
export class Miner {
  readonly #chain: EvmChain
  /** What a sealed block shares with its parent (one Common per hardfork, equal fields). */
  readonly #sharing = new BlockSharing()
  #queued: Promise<StoredBlock> | undefined
  /** Why a transaction was dropped instead of mined, by hash (read by its sender). */
  readonly dropped = new Map<Hex, string>()

  constructor(chain: EvmChain) {
    this.#chain = chain
  }

  /**
   * Call under the chain lock, after admitting a transaction: returns a block that will include
   * everything admitted so far. A block already scheduled and not yet started is joined.
   */
  scheduleBlock(): Promise<StoredBlock> {
    if (this.#queued) return this.#queued
    // The block is queued on the lock after the event loop's current I/O phase, so requests that
    // arrived together are admitted first and share it (one block per burst, not per request).
    const queued = new Promise<StoredBlock>((resolve, reject) => {
      setImmediate(() => {
        this.#chain.lock
          .run(() => {
            this.#queued = undefined
            return this.mineLocked()
          })
          .then(resolve, reject)
      })
    })
    this.#queued = queued
    return queued
  }

  /** Mines one block now (under the lock). */
  mine(options: MineOptions = {}): Promise<StoredBlock> {
    return this.#chain.lock.run(() => this.mineLocked(options))
  }

  /** Builds, seals and stores one block with the pool's executable transactions. Caller holds the lock. */
  async mineLocked(options: MineOptions = {}): Promise<StoredBlock> {
    const chain = this.#chain
    const parent = chain.head
    const pinned = options.timestamp ?? chain.timing.nextTimestamp
    let timestamp = pinned ?? chain.nextBlockTimestamp()
    chain.timing.nextTimestamp = undefined

    const nonces = new Map<Hex, bigint>()
    for (const entry of chain.pool.all()) {
      if (!nonces.has(entry.from)) nonces.set(entry.from, await chain.liveNonce(entry.from))
    }
    const feesAtFirst = chain.nextFees(timestamp)
    const firstTimestamp = timestamp
    const candidates = chain.pool.executable((from) => nonces.get(from) ?? 0n, feesAtFirst.baseFee)
    // ACP-176 blocks may only use the capacity refilled since the parent: when the first
    // transaction does not fit yet, the block is built later, as a node's builder waits.
    if (pinned === undefined && candidates[0])
      timestamp = chain.feeRules.timestampForGas(chain.parentHeaderInfo(), timestamp, candidates[0].tx.gasLimit)
    // Nothing the fees depend on changed since: computed again only for a later time.
    let fees = timestamp === firstTimestamp ? feesAtFirst : chain.nextFees(timestamp)
    // Subnet-EVM before Granite: the block's tips must cover the block gas cost, which falls as
    // time passes since the parent. A node's builder waits until they do; automine moves the
    // block's timestamp forward the same way (see the README), unless the time is pinned.
    if (pinned === undefined && fees.blockGasCost > 0n) {
      const tips = candidates.reduce((sum, c) => sum + tipCover(c.tx, fees.baseFee), 0n)
      for (let i = 0; i < 3600 && fees.blockGasCost > tips; i++) fees = chain.nextFees(++timestamp)
    }
    // A block past the clock's last second would move the clock where it cannot go (and, as a
    // parent, hand its children timestamps past it).
    if (timestamp > BigInt(MAX_TIME)) throw new TimeOutOfRangeError()
    const headerData = chain.nextHeaderData(timestamp, fees)
    const baseFee = fees.baseFee
    await chain.hooks.beforeBlock?.(chain, { number: parent.number + 1n, timestamp, parentTimestamp: parent.block.header.timestamp })

    // Flushes cheat-code edits into the trie before the builder's checkpoint, so the new block's
    // state root includes them; kept on the block so replays start from the same state.
    const preStateRoot = await chain.stateManager.getStateRoot()
    chain.useRulesOf({ number: parent.number + 1n, timestamp })
    const builder = await startBlock(chain.vm, {
      parentBlock: parent.block,
      headerData,
      withdrawals: forkActiveAt(chain.common, 'shanghai', timestamp) ? [] : undefined,
      // Unfrozen, so the block can be made to share its parent's values before it is frozen (BlockSharing).
      // The header's copy of the VM's Common is moved to the block's fork only when useRulesOf above had to
      // (setHardforkBy's scan was a third of the header's construction, and leaves settled rules as they are).
      blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true, setHardfork: !chain.rulesSettledAt(timestamp), freeze: false },
    })
    const coinbase = createAddressFromString(chain.coinbase)
    const included: { entry: (typeof candidates)[number]; tx: TypedTransaction; result: RunTxResult; innerCalls: number | undefined }[] = []
    const skippedSenders = new Set<Hex>()
    // Messages below each transaction's own call: a one-argument listener is called synchronously
    // by the EVM, so counting costs next to nothing and spares the indexer replays of plain blocks.
    let innerCalls = 0
    const countInner = (message: { depth: number }): void => {
      if (message.depth > 0) innerCalls++
    }
    const counting = chain.vm.evm.events !== undefined
    chain.vm.evm.events?.on('beforeMessage', countInner)
    try {
      for (const entry of candidates) {
        if (skippedSenders.has(entry.from)) continue
        if (builder.gasUsed + entry.tx.gasLimit > fees.gasAvailable) {
          skippedSenders.add(entry.from)
          continue
        }
        const refusal = await this.#refusal(entry, baseFee)
        if (refusal === 'hold') {
          skippedSenders.add(entry.from)
          continue
        }
        if (refusal) {
          chain.pool.remove(entry.hash)
          this.dropped.set(entry.hash, refusal.shortMessage)
          skippedSenders.add(entry.from)
          continue
        }
        try {
          innerCalls = 0
          const tx = onBlockRules(entry.tx, entry.from, chain.common, chain.txSharing)
          const result = await builder.addTransaction(tx, { skipHardForkValidation: true })
          included.push({ entry, tx, result, innerCalls: counting ? innerCalls : undefined })
          // Avalanche credits the whole fee to the coinbase; ethereumjs paid it only the tip.
          const burned = baseFee * result.totalGasSpent
          if (burned > 0n) {
            const account = await chain.stateManager.getAccount(coinbase)
            await chain.stateManager.modifyAccountFields(coinbase, { balance: (account?.balance ?? 0n) + burned })
          }
        } catch (error) {
          chain.pool.remove(entry.hash)
          this.dropped.set(entry.hash, (error as Error).message.replace(/ \(.*$/s, ''))
          skippedSenders.add(entry.from)
        }
      }
    } finally {
      chain.vm.evm.events?.off('beforeMessage', countInner)
    }
    await chain.hooks.beforeSeal?.(chain, { number: parent.number + 1n, timestamp, baseFee })
    // The extra data (the fee state after this block) depends on the gas used: known only now.
    setBuilderExtraData(builder, fees.extraData(builder.gasUsed))
    const { block } = await builder.build()
    // ethereumjs clears the EVM journal after each transaction (runTx), not after the block's own
    // checkpoint and commit: each block would leave two sets of diff sets behind (~0.8 KB for an
    // empty block, for the chain's life). Nothing is pending once the block is built.
    chain.vm.evm.journal.cleanJournal()
    // The builder re-creates each transaction for the block (with its own copy of the chain's
    // Common); the block keeps the pool's objects instead, which the chain holds anyway (as
    // `MinedTx.tx`): half the memory of a long history's transactions, and an impersonated
    // sender's transaction stays the one that knows its sender. Same bytes, so the same roots.
    const transactions = block.transactions as TypedTransaction[]
    included.forEach(({ tx }, index) => {
      if (equalsBytes(transactions[index]!.hash(), tx.hash())) transactions[index] = tx
      chain.txSharing.mined(tx)
    })
    this.#sharing.seal(block, parent.block)
    const hash = flatHex(block.hash())
    const receipts = builder.transactionReceipts
    let logIndex = 0
    const txs: MinedTx[] = included.map(({ entry, tx, result, innerCalls }, index) => {
      const r = receipts[index]!
      const logs: LogEntry[] = r.logs.length === 0 ? (this.#sharing.noLogs as LogEntry[]) : r.logs.map(([address, topics, data]) => ({
        // Flat strings: ethereumjs' bytesToHex leaves a rope of ~30 strings per word, kept with the log.
        address: flatHex(address),
        topics: topics.map((t) => flatHex(t)),
        data: flatHex(data),
        logIndex: logIndex++,
        transactionIndex: index,
        transactionHash: entry.hash,
        blockHash: hash,
        blockNumber: block.header.number,
      }))
      const { feeCap, tipCap } = txFees(tx)
      const effectiveGasPrice = 'maxFeePerGas' in tx ? (baseFee + tipCap < feeCap ? baseFee + tipCap : feeCap) : feeCap
      // A long history of transfers keeps one receipt each: those without logs or return data
      // share the sealer's empty bloom, logs and bytes, and gas and prices share the chain's
      // instances of those values (a bigint is an object of its own).
      const gasUsed = chain.txSharing.value(result.totalGasSpent)
      const { returnValue } = result.execResult
      const receipt: Receipt = {
        status: 'status' in r ? r.status : 1,
        gasUsed,
        cumulativeGasUsed: r.cumulativeBlockGasUsed === gasUsed ? gasUsed : r.cumulativeBlockGasUsed,
        effectiveGasPrice: chain.txSharing.value(effectiveGasPrice),
        logs,
        logsBloom: r.logs.length === 0 ? this.#sharing.noLogsBloom : r.bitvector,
        contractAddress: result.createdAddress ? (result.createdAddress.toString() as Hex) : null,
        error: result.execResult.exceptionError?.error,
        returnValue: returnValue.length === 0 ? this.#sharing.noBytes : returnValue,
      }
      return { tx, hash: entry.hash, from: entry.from, index, blockNumber: block.header.number, blockHash: hash, receipt, ...(innerCalls !== undefined ? { innerCalls } : {}) }
    })

    const stored: StoredBlock = {
      block,
      hash,
      number: block.header.number,
      txs,
      preStateRoot: equalsBytes(preStateRoot, parent.block.header.stateRoot) ? parent.block.header.stateRoot : preStateRoot,
      extras: sameExtras(parent.extras, fees.headerExtras) ? parent.extras : fees.headerExtras,
    }
    chain.store.append(stored)
    await chain.hooks.afterHeadChange?.(chain)
    for (const { entry } of included) chain.pool.remove(entry.hash)
    if (timestamp > BigInt(chain.clock.now())) chain.clock.setTime(Number(timestamp))
    chain.events.emit('block', stored)
    const allLogs = txs.flatMap((t) => t.receipt.logs)
    if (allLogs.length > 0) chain.events.emit('logs', allLogs)
    return stored
  }

  /**
   * The state transition's refusal of an executable pool transaction, checked before ethereumjs
   * runs it so the sender reads coreth's message. A fee cap below this block's base fee is held
   * in the pool, as coreth's pool holds it until the base fee falls, except in automine mode,
   * where the sender waits for this very block and gets the refusal instead.
   */
  async #refusal(entry: PoolTx, baseFee: bigint): Promise<TxRejectedError | 'hold' | undefined> {
    const chain = this.#chain
    const { feeCap } = txFees(entry.tx)
    if (feeCap < baseFee) {
      if (chain.mining.mode !== 'auto') return 'hold'
      return stateTransitionErrors.feeCapTooLow({ from: entry.from, maxFeePerGas: feeCap, baseFee })
    }
    // Subnet-EVM's tx allow list is also a block rule (state transition `preCheck`): a role can
    // change between admission and the block.
    const notAllowed = await chain.hooks.admissionRefusal?.(chain, entry.from)
    if (notAllowed) return new TxRejectedError(notAllowed)
    const balance = (await chain.stateManager.getAccount(createAddressFromString(entry.from)))?.balance ?? 0n
    const want = entry.tx.gasLimit * feeCap + entry.tx.value
    if (balance < want) return stateTransitionErrors.insufficientFunds({ from: entry.from, have: balance, want })
    return undefined
  }
}

/** Whether two blocks' rule-specific header fields are the same (then the child keeps its parent's object). */
function sameExtras(a: Record<string, bigint> | undefined, b: Record<string, bigint> | undefined): a is Record<string, bigint> {
  if (a === undefined || b === undefined) return false
  const keys = Object.keys(b)
  return keys.length === Object.keys(a).length && keys.every((key) => a[key] === b[key])
}

/**
 * What a transaction contributes to the block gas cost, at most (subnet-EVM `VerifyBlockFee`:
 * effective tip × gas used ÷ base fee), counted with its gas limit before it runs.
 */
function tipCover(tx: PoolTx['tx'], baseFee: bigint): bigint {
  if (baseFee === 0n) return 0n
  const { feeCap, tipCap } = txFees(tx)
  const tip = feeCap - baseFee < tipCap ? feeCap - baseFee : tipCap
  return tip > 0n ? (tip * tx.gasLimit) / baseFee : 0n
}
