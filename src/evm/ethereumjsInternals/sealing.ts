import { Block, type BlockHeader, createBlockHeader, type HeaderData } from '@ethereumjs/block'
import { ConsensusType } from '@ethereumjs/common'
import type { TypedTransaction } from '@ethereumjs/tx'
import { KECCAK256_RLP, TypeOutput, ValueEncoding, bytesToUnprefixedHex, toType, type BatchDBOp } from '@ethereumjs/util'
import { BlockBuilder, encodeReceipt, runTx, type BuildBlockOpts, type RunTxResult, type VM } from '@ethereumjs/vm'
import { CheckpointDB } from '@ethereumjs/mpt'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { orderedTrieRoot } from '../orderedTrie.js'

/**
 * The one place l1sim reaches into ethereumjs' internals (fields TypeScript marks private,
 * behaviour the public API does not promise). Each use is checked against the version it was
 * read from: with another `@ethereumjs/vm` installed, the stock code runs instead (slower, same
 * blocks).
 */
const VM_VERSION = installedVersion('@ethereumjs/vm')
const MPT_VERSION = installedVersion('@ethereumjs/mpt')
const BLOCK_VERSION = installedVersion('@ethereumjs/block')
/** The `@ethereumjs/block` whose header constructor {@link SealingBlockBuilder.build} stands in for when it completes the run header. */
export const CHECKED_BLOCK_VERSION = '10.1.3'
/** The `@ethereumjs/vm` whose `BlockBuilder` {@link SealingBlockBuilder} was written against. */
export const CHECKED_VM_VERSION = '10.1.3'
/** The `@ethereumjs/mpt` whose `CheckpointDB.commit` {@link directCommit} replaces. */
export const CHECKED_MPT_VERSION = '10.1.3'

type Writable<T> = { -readonly [K in keyof T]: T[K] }

/** BlockBuilder's private fields, as of {@link CHECKED_VM_VERSION}. */
type BuilderInternals = {
  vm: VM
  blockOpts: NonNullable<BuildBlockOpts['blockOpts']>
  headerData: HeaderData
  transactions: TypedTransaction[]
  transactionResults: RunTxResult[]
  withdrawals?: unknown[]
  checkpointed: boolean
  blockStatus: { status: string; block?: Block }
  _minerValue: bigint
  checkStatus(): void
}

/**
 * ethereumjs' `BlockBuilder` with the costs l1sim's blocks do not need taken out (same block,
 * same state, same receipts):
 *   - `addTransaction` built a whole block (header, a copy of the chain's `Common`, and a copy of
 *     every transaction added before) for each transaction, only to hand `runTx` the header's
 *     fields; here one header serves the block's transactions, and `runTx` is given the gas used
 *     so far, which is all it read from that header's `gasUsed`;
 *   - the transactions and receipts tries are computed by {@link orderedTrieRoot} instead of a
 *     trie with a node database;
 *   - `build` assembles the block from the transactions added instead of re-creating each one.
 * Requests (EIP-7685), block access lists (EIP-7928), blob transactions and proof-of-work or
 * clique sealing, which Avalanche chains never use, go to the stock code.
 */
export class SealingBlockBuilder extends BlockBuilder {
  /** The header `runTx` reads the block's fields from, made at the first transaction. */
  #runHeader: Block | undefined

  #internals(): BuilderInternals {
    return this as unknown as BuilderInternals
  }

  #stock(): boolean {
    const common = this.#internals().vm.common
    return common.isActivatedEIP(7685) || common.isActivatedEIP(7928) || common.isActivatedEIP(8037) || common.consensusType() === ConsensusType.ProofOfWork || this.#internals().blockOpts.cliqueSigner !== undefined
  }

  override async addTransaction(tx: TypedTransaction, options: { skipHardForkValidation?: boolean; allowNoBlobs?: boolean } = {}): Promise<RunTxResult> {
    if (tx.type === 3 || this.#stock()) return super.addTransaction(tx, options)
    const self = this.#internals()
    self.checkStatus()
    const { vm } = self
    if (!self.checkpointed) {
      await vm.evm.journal.checkpoint()
      self.checkpointed = true
    }
    const blockGasLimit = toType(self.headerData.gasLimit as bigint, TypeOutput.BigInt)
    if (tx.gasLimit > blockGasLimit - this.gasUsed) throw new Error('tx has a higher gas limit than the remaining gas in the block')
    this.#runHeader ??= new Block(createBlockHeader({ ...self.headerData, gasUsed: 0n }, self.blockOpts), [], [], undefined, { ...self.blockOpts, freeze: false })
    const result = await runTx(vm, { tx, block: this.#runHeader, skipHardForkValidation: options.skipHardForkValidation, blockGasUsed: this.gasUsed })
    self.transactions.push(tx)
    self.transactionResults.push(result)
    this.gasUsed += result.blockGasSpent
    self._minerValue += result.minerValue
    return result
  }

  /**
   * The header the block's transactions ran against, given the fields only the end of the block
   * knows, as the header `data` would make: it was made from the same header data (the extra data
   * set since, the rest unchanged), so the same hardfork and defaults, and the fields set here
   * are ones the builder made, of the lengths the constructor checks (the gas used within the
   * limit `addTransaction` keeps). A second header per block was a tenth of sealing a transfer.
   * Undefined on another `@ethereumjs/block`, or with no transaction run.
   */
  #completedRunHeader(data: HeaderData): BlockHeader | undefined {
    const header = this.#runHeader?.header as Writable<BlockHeader> | undefined
    if (header === undefined || BLOCK_VERSION !== CHECKED_BLOCK_VERSION || Object.isFrozen(header)) return undefined
    const common = header.common
    header.stateRoot = data.stateRoot as Uint8Array
    header.transactionsTrie = data.transactionsTrie as Uint8Array
    header.receiptTrie = data.receiptTrie as Uint8Array
    header.logsBloom = data.logsBloom as Uint8Array
    header.gasUsed = data.gasUsed as bigint
    header.extraData = toType(data.extraData, TypeOutput.Uint8Array) ?? new Uint8Array(0)
    header.withdrawalsRoot = (data.withdrawalsRoot as Uint8Array | undefined) ?? (common.isActivatedEIP(4895) ? KECCAK256_RLP : undefined)
    header.blobGasUsed = (data.blobGasUsed as bigint | undefined) ?? (common.isActivatedEIP(4844) ? 0n : undefined)
    return header as unknown as BlockHeader
  }

  override async transactionsTrie(): Promise<Uint8Array> {
    const self = this.#internals()
    return orderedTrieRoot(self.transactions.map((tx) => tx.serialize()), keccakOf(self.vm))
  }

  override async receiptTrie(): Promise<Uint8Array> {
    const self = this.#internals()
    if (self.transactionResults.length === 0) return KECCAK256_RLP
    return orderedTrieRoot(self.transactionResults.map((result, i) => encodeReceipt(result.receipt, self.transactions[i]!.type)), keccakOf(self.vm))
  }

  override async build(): ReturnType<BlockBuilder['build']> {
    const self = this.#internals()
    if (this.#stock() || (self.withdrawals !== undefined && self.withdrawals.length > 0)) return super.build()
    self.checkStatus()
    const { vm } = self
    const transactionsTrie = await this.transactionsTrie()
    const receiptTrie = await this.receiptTrie()
    const stateRoot = await vm.stateManager.getStateRoot()
    const data: HeaderData = {
      ...self.headerData,
      stateRoot,
      transactionsTrie,
      withdrawalsRoot: self.withdrawals ? KECCAK256_RLP : undefined,
      receiptTrie,
      logsBloom: this.logsBloom(),
      gasUsed: this.gasUsed,
      timestamp: self.headerData.timestamp ?? 0n,
      blobGasUsed: vm.common.isActivatedEIP(4844) ? this.blobGasUsed : undefined,
    }
    const header = this.#completedRunHeader(data) ?? createBlockHeader(data, self.blockOpts)
    const block = new Block(header, [...self.transactions], [], self.withdrawals ? [] : undefined, self.blockOpts)
    self.blockStatus = { status: 'build', block }
    if (self.checkpointed) {
      await vm.evm.journal.commit()
      self.checkpointed = false
    }
    return { block, requests: undefined, blockLevelAccessList: undefined }
  }
}

/** The chain's keccak (native when it loads), as ethereumjs' tries would use it. */
function keccakOf(vm: VM): (data: Uint8Array) => Uint8Array {
  return vm.common.customCrypto.keccak256 ?? keccak_256
}

/**
 * Sets a block's extra data once its transactions are in: BlockBuilder takes header fields when
 * it is created, and the extra data (the fee state after the block) depends on the gas used.
 */
export function setBuilderExtraData(builder: BlockBuilder, extraData: Uint8Array): void {
  ;(builder as unknown as BuilderInternals).headerData.extraData = extraData
}

/** The version of an installed package (its `package.json` is not among its exports). */
export function installedVersion(name: string): string | undefined {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve(name))
    while (dir !== dirname(dir)) {
      try {
        const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
        if (json.name === name) return json.version
      } catch {
        // no package.json at this level: keep walking up
      }
      dir = dirname(dir)
    }
  } catch {
    // not resolvable: treated as an unchecked version
  }
  return undefined
}

/** ethereumjs' `buildBlock`, with {@link SealingBlockBuilder} when the installed version is the one it was checked against. */
export async function startBlock(vm: VM, options: BuildBlockOpts): Promise<BlockBuilder> {
  const builder = VM_VERSION === CHECKED_VM_VERSION ? new SealingBlockBuilder(vm, options) : new BlockBuilder(vm, options)
  await builder.initState()
  return builder
}

/** Marks ethereumjs' `CheckpointDB` once {@link installDirectCommit} ran. */
const DIRECT = Symbol('l1sim.directCommit')

/** CheckpointDB's private fields and methods, as of {@link CHECKED_MPT_VERSION}. */
type CheckpointInternals = {
  checkpoints: { keyValueMap: Map<string, Uint8Array | undefined> }[]
  db: { batch(ops: BatchDBOp[]): Promise<void> }
  valueEncoding: string
  _stats: { db: { writes: number } }
}
type Commit = (this: CheckpointDB) => Promise<void>

/**
 * `CheckpointDB.commit` of the last checkpoint (a block's trie writes reaching the database)
 * without turning each hex key into bytes for `batch`, which turns it back into hex: the same
 * writes, in the same order, to the same database.
 */
function directCommit(stock: Commit): Commit {
  return async function commit(this: CheckpointDB) {
    const self = this as unknown as CheckpointInternals
    if (self.checkpoints.length !== 1) return stock.call(this)
    const { keyValueMap } = self.checkpoints.pop()!
    const ops: BatchDBOp[] = []
    const strings = self.valueEncoding === ValueEncoding.String
    for (const [key, value] of keyValueMap) {
      self._stats.db.writes += 1
      if (value === undefined) ops.push({ type: 'del', key: key as unknown as Uint8Array, opts: { valueEncoding: self.valueEncoding as ValueEncoding } })
      else ops.push({ type: 'put', key: key as unknown as Uint8Array, value: (strings ? bytesToUnprefixedHex(value) : value) as Uint8Array, opts: { valueEncoding: self.valueEncoding as ValueEncoding } })
    }
    await self.db.batch(ops)
  }
}

/**
 * Installs {@link directCommit} on ethereumjs' `CheckpointDB` (the node database the state
 * manager keeps code in), once, when the installed `@ethereumjs/mpt` is the version it was
 * checked against. Called when the first chain is made.
 */
export function installDirectCommit(): void {
  const db = CheckpointDB.prototype as unknown as { commit: Commit; [DIRECT]?: true }
  if (MPT_VERSION !== CHECKED_MPT_VERSION || db[DIRECT]) return
  db.commit = directCommit(db.commit)
  db[DIRECT] = true
}
