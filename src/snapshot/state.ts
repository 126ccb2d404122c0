import type { ClockSnapshot } from '../core/clock.js'
import type { Hex } from '../core/hex.js'
import type { ChainSnapshot } from '../evm/chain.js'
import type { BlockRecord } from './codec.js'
import type { Fault } from '../network/faults.js'
import type { HealthWorkerName, HealthWorkerState } from '../network/health.js'
import type { NetworkOptions } from '../network/network.js'
import type { PrimarySnapshot } from '../network/primary.js'
import type { NetworkUptimeSnapshot } from '../network/uptime.js'

/**
 * Everything a file snapshot holds, as plain data `v8.serialize` writes (Maps, Sets, bigints and
 * byte arrays included). Class instances are converted: blocks and transactions to their RLP
 * bytes, lazily keyed validator entries to a marker. Format versions 1 and 2 (version 2 writes the
 * chains' blocks and trie nodes in sections of their own).
 */
export type SavedNetwork = {
  /** The options the network was created with (clock start resolved; streams and functions dropped). */
  options: NetworkOptions
  clock: ClockSnapshot
  /** Positions of the seeded random streams (new validator identities). */
  random: Map<string, number>
  /** ABI signatures registered for the data API's method names. */
  methods: string[]
  /** Every L1 in the network's order; those the P-chain started are started again from its state. */
  l1s: { name: string; subnetId: string; blockchainId: string; fromPChain: boolean }[]
  chains: SavedChain[]
  validators: [string, SavedValidator[]][]
  uptime: NetworkUptimeSnapshot
  primary: PrimarySnapshot
  faults: Fault[]
  nodes: SavedNode[]
}

export type SavedChain = {
  alias: string
  /** The genesis block's hash: the recreated chain must start from the same block. */
  genesisHash: Hex
  /** The chain's snapshot with its pool's transactions as bytes. */
  snapshot: Omit<ChainSnapshot, 'pool'> & { pool: SavedPoolTx[] }
  /** Blocks 1…height (format version 2 writes them in their own section: empty here in the file). */
  blocks: BlockRecord[]
  /** Format version 1: how many nodes its trie section holds (version 2 counts them in the section). */
  trieNodes?: number
  /** The coinbase set by a cheat code, when no L1 rule decides it. */
  coinbase: Hex | undefined
  /** Why transactions were dropped instead of mined, by hash. */
  dropped: Map<Hex, string>
}

export type SavedPoolTx = { raw: Uint8Array; hash: Hex; from: Hex; nonce: bigint; seq: number; unsigned?: true }

/** A validator entry; a simulated node's lazily derived BLS key is saved as `node`; `isActive` only when false (older files have none). */
export type SavedValidator = { nodeId: string; weight: bigint; blsPublicKey: Uint8Array | undefined | 'node'; startTime: bigint; validationId?: string; isActive?: false }

export type SavedNode = {
  chainAliases: [string, string[]][]
  httpAliases: [string, string[]][]
  loggers: [string, number, number][]
  vms: { id: string; aliases: string[] }[]
  health: Record<HealthWorkerName, HealthWorkerState>
}

/** The header: readable without decoding the payload (`inspectSnapshot`). */
export type SnapshotHeader = {
  format: 'l1sim-snapshot'
  l1simVersion: string
  /** Network time when saved, unix seconds. */
  created: number
  preset: string
  networkId: number
  nodes: number
  chains: { name: string; kind: 'evm' | 'platform' | 'avm'; blockchainId: string; height: number; hash: string }[]
  encoding: 'v8'
  /** Which states of the past the file holds: see {@link StateHistory}. */
  history: StateHistory
}

/**
 * `recent` (the default): the live state, the states around the last {@link RECENT_STATES} blocks
 * and before every block the data API's internal transactions replay, as a pruning node keeps
 * them; older states are not written, so a call at an older block fails after a load. `full`: the
 * whole trie database, every block's state (much larger and slower on long histories).
 */
export type StateHistory = 'recent' | 'full'

/** How many blocks back a `recent` snapshot keeps states for (coreth's in-memory tries: 128). */
export const RECENT_STATES = 128
