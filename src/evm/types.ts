import type { Block } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Hex } from '../core/hex.js'

/** One log as stored with its receipt: positions are filled in when the block is sealed. */
export type LogEntry = {
  address: Hex
  topics: Hex[]
  data: Hex
  /** Index of the log in its block. */
  logIndex: number
  transactionIndex: number
  transactionHash: Hex
  blockHash: Hex
  blockNumber: bigint
}

export type Receipt = {
  status: 0 | 1
  gasUsed: bigint
  cumulativeGasUsed: bigint
  effectiveGasPrice: bigint
  logs: LogEntry[]
  logsBloom: Uint8Array
  contractAddress: Hex | null
  /** The revert data or the EVM error of a failed transaction, kept for tracing and debugging. */
  error?: string
  returnValue: Uint8Array
}

/** A transaction as mined: the signed tx, its sender and its place in the chain. */
export type MinedTx = {
  tx: TypedTransaction
  hash: Hex
  from: Hex
  index: number
  blockNumber: bigint
  blockHash: Hex
  receipt: Receipt
  /**
   * Messages the transaction's execution sent below its own call (calls, creations, precompile
   * calls), counted by the miner; 0 means there is nothing to trace for internal transactions.
   * Absent for transactions mined without the count (none today; kept optional for replays).
   */
  innerCalls?: number
}

export type StoredBlock = {
  block: Block
  hash: Hex
  number: bigint
  txs: MinedTx[]
  /**
   * The state the block was built on: the parent's root plus any cheat-code edits made between
   * the two blocks (replays and traces start here, not at the parent's header root).
   */
  preStateRoot?: Uint8Array
  /** Rule-specific header fields beyond Ethereum's (`blockGasCost`, `minDelayExcess`…), from the fee rules. */
  extras?: Record<string, bigint>
}

/** Events a chain emits; the indexer and subscriptions listen, nobody polls. */
export type ChainEvents = {
  block: StoredBlock
  logs: LogEntry[]
  pendingTransaction: { hash: Hex; tx: TypedTransaction; from: Hex }
  /** The chain dropped blocks above `height` (revert, reset). */
  truncate: { height: bigint }
}

/** Block reference as JSON-RPC callers give it. */
export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized' | bigint | { hash: Hex; requireCanonical?: boolean }
