import { MapDB } from '@ethereumjs/util'
import type { EvmChain } from '../evm/chain.js'
import { isUnsignedTx } from '../evm/unsignedTx.js'
import type { Network, NetworkOptions } from '../network/network.js'
import type { ValidatorEntry } from '../network/validators.js'
import { L1SIM_VERSION } from '../network/version.js'
import { SnapshotFileError } from './errors.js'
import type { StoredBlock } from '../evm/types.js'
import type { TrieKey } from './codec.js'
import { blockStateRoot } from './codec.js'
import { reachableNodes } from './prune.js'
import { RECENT_STATES, type SavedChain, type SavedNetwork, type SavedNode, type SavedValidator, type SnapshotHeader, type StateHistory } from './state.js'

/** The whole network as plain data, and the header describing it. */
export async function captureNetwork(network: Network, path: string, history: StateHistory): Promise<{ state: SavedNetwork; blocks: StoredBlock[][]; tries: Iterable<[TrieKey, string | Uint8Array]>[]; header: SnapshotHeader }> {
  const chains: SavedChain[] = []
  const blocks: StoredBlock[][] = []
  const tries: Iterable<[TrieKey, string | Uint8Array]>[] = []
  for (const chain of network.chains) {
    const captured = await captureChain(chain, path, history)
    chains.push(captured.saved)
    blocks.push(captured.blocks)
    tries.push(captured.trie)
  }
  const optionL1s = new Set((network.options.l1s ?? []).map((l) => l.name))
  const state: SavedNetwork = {
    options: storableOptions(network.options),
    clock: network.clock.snapshot(),
    random: network.random.positions(),
    methods: network.methods.signatures(),
    l1s: network.l1s.map((l) => ({ name: l.name, subnetId: l.subnetId, blockchainId: l.blockchainId, fromPChain: !optionL1s.has(l.name) })),
    chains,
    validators: network.validators.subnetIds().map((id) => [id, network.validators.current(id).map(saveValidator)]),
    uptime: network.uptime.snapshot(),
    primary: network.primary.snapshot(),
    faults: network.faults.list(),
    nodes: network.nodes.map(captureNode),
  }
  const { pchain, xchain } = network.primary
  const xHead = xchain.lastBlock()
  const header: SnapshotHeader = {
    format: 'l1sim-snapshot',
    l1simVersion: L1SIM_VERSION,
    created: network.clock.nowMs() / 1000,
    preset: network.presetName,
    networkId: network.preset.networkId,
    nodes: network.nodes.length,
    chains: [
      { name: 'P', kind: 'platform', blockchainId: network.preset.pChainId, height: pchain.height, hash: pchain.state.lastBlockId },
      { name: 'X', kind: 'avm', blockchainId: network.preset.xChainId, height: xHead.height, hash: xHead.id },
      ...network.chains.map((chain, i) => ({
        name: chain.alias,
        kind: 'evm' as const,
        blockchainId: i === 0 ? network.preset.cChainId : network.l1s[i - 1]!.blockchainId,
        height: blocks[i]!.length,
        hash: blocks[i]!.at(-1)?.hash ?? chains[i]!.genesisHash,
      })),
    ],
    encoding: 'v8',
    history,
  }
  return { state, blocks, tries, header }
}

/**
 * A chain at its snapshot: the blocks up to the snapshot's height, read right after it (blocks
 * below the head never change; a revert in between is caught) and the trie database, which only
 * grows (content-addressed nodes, no pruning), so reading it later still holds the snapshot's root.
 * The blocks and the trie's nodes are written later, as they are read (see `writeBlocks` and
 * `writeTrie`); the saved chain's own `blocks` stay empty.
 */
async function captureChain(chain: EvmChain, path: string, history: StateHistory): Promise<{ saved: SavedChain; blocks: StoredBlock[]; trie: Iterable<[TrieKey, string | Uint8Array]> }> {
  const snapshot = await chain.snapshot()
  if (chain.store.height < snapshot.height) throw new SnapshotFileError(path, `chain ${chain.alias} was reverted while it was being saved`)
  const blocks = [...chain.store.range(1n, snapshot.height)]
  const hooked = chain.hooks.coinbase?.(chain)
  const db = trieDatabase(chain)
  // Both are read as the trie is written: the database only grows, at its end (content-addressed
  // nodes), and whatever the kept roots reach never changes.
  const trie = history === 'full' ? firstEntries(db, db.size) : reachableNodes(db, keptRoots(snapshot.stateRoot, blocks))
  const saved: SavedChain = {
    alias: chain.alias,
    genesisHash: chain.store.byNumber(0n)!.hash,
    snapshot: {
      ...snapshot,
      pool: snapshot.pool.map((p) => ({ raw: p.tx.serialize(), hash: p.hash, from: p.from, nonce: p.nonce, seq: p.seq, ...(isUnsignedTx(p.tx) ? { unsigned: true as const } : {}) })),
    },
    blocks: [],
    coinbase: hooked === undefined ? chain.coinbase : undefined,
    dropped: new Map(chain.miner.dropped),
  }
  return { saved, blocks, trie }
}

/**
 * The states a `recent` snapshot keeps: the live one, those of the last {@link RECENT_STATES}
 * blocks (before and after each), and the state before every block whose transactions made inner
 * calls (the data API's internal transactions replay those blocks).
 */
function keptRoots(live: Uint8Array, blocks: readonly StoredBlock[]): Set<string> {
  const roots = new Set([Buffer.from(live).toString('hex')])
  blocks.forEach((block, i) => {
    const recent = i >= blocks.length - RECENT_STATES
    if (recent) roots.add(blockStateRoot(block))
    // A transaction whose inner calls were not counted (`undefined`) may have made some.
    if (recent || block.txs.some((t) => t.innerCalls !== 0)) {
      const before = block.preStateRoot ? Buffer.from(block.preStateRoot).toString('hex') : i > 0 ? blockStateRoot(blocks[i - 1]!) : undefined
      if (before !== undefined) roots.add(before)
    }
  })
  return roots
}

function* firstEntries<K, V>(map: ReadonlyMap<K, V>, count: number): Generator<[K, V]> {
  if (count === 0) return
  let n = 0
  for (const entry of map) {
    yield entry
    if (++n === count) return
  }
}

/** The map behind the chain's trie database (every account, storage and code node, keyed by hash). */
export function trieDatabase(chain: EvmChain): Map<string, string | Uint8Array> {
  // `_getCodeDB` is the account trie's database, which storage tries and code share.
  const db = (chain.stateManager as unknown as { _getCodeDB(): { db: unknown } })._getCodeDB().db
  if (!(db instanceof MapDB)) throw new TypeError(`chain ${chain.alias}: the state trie is not in memory`)
  return db._database as Map<string, string | Uint8Array>
}

function saveValidator(v: ValidatorEntry): SavedValidator {
  // A simulated node's entry derives its BLS key on first read (~10 ms each): keep it lazy.
  const lazy = typeof Object.getOwnPropertyDescriptor(v, 'blsPublicKey')?.get === 'function'
  return {
    nodeId: v.nodeId,
    weight: v.weight,
    blsPublicKey: lazy ? 'node' : v.blsPublicKey,
    startTime: v.startTime,
    ...(v.validationId !== undefined ? { validationId: v.validationId } : {}),
    ...(v.isActive === false ? { isActive: false } : {}),
  }
}

function captureNode(node: Network['nodes'][number]): SavedNode {
  const chains = node.aliases.chains
  return {
    chainAliases: chains.ids().map((id) => [id, chains.aliases(id) ?? []]),
    httpAliases: node.aliases.router.aliasList(),
    loggers: node.loggers.names().map((name) => [name, node.loggers.getLogLevel(name), node.loggers.getDisplayLevel(name)]),
    vms: node.vms.entries(),
    health: node.health.exportState(),
  }
}

/** The creation options without what cannot be stored (the display stream, an injected wall clock). */
function storableOptions(options: NetworkOptions): NetworkOptions {
  const { display: _display, ...node } = options.node ?? {}
  const { wallNow: _wallNow, ...clock } = options.clock ?? {}
  return { ...options, node, clock }
}
