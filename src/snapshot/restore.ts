import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import type { PoolTx } from '../evm/pool.js'
import type { Network } from '../network/network.js'
import { nodeValidatorEntry, type ValidatorEntry } from '../network/validators.js'
import { RouteConflictError } from '../network/aliases.js'
import { trieDatabase } from './capture.js'
import { blockFromRecord, unsignedCopy } from './codec.js'
import type { LoadedHistory } from './index.js'
import { TrieNodeMap } from '../evm/trieNodes.js'
import type { SavedChain, SavedNetwork, SavedNode } from './state.js'

/** A saved state that does not fit the network recreated from its options. */
export class SnapshotMismatch extends Error {}

/**
 * Puts a saved state into a network freshly created from the saved options. Runs before anyone
 * else sees the network; on a throw the caller closes it, so nothing is ever half-loaded.
 */
export async function restoreNetwork(network: Network, state: SavedNetwork, histories: readonly LoadedHistory[]): Promise<void> {
  network.clock.restore({ ...state.clock, mode: 'manual' })
  network.primary.restore(state.primary)
  for (const saved of state.l1s.filter((l) => l.fromPChain)) {
    const l1 = await network.startChainFromP(saved.blockchainId)
    if (l1?.name !== saved.name) throw new SnapshotMismatch(`the P-chain's chain ${saved.blockchainId} did not start as ${saved.name}`)
  }
  const live = network.l1s.map((l) => `${l.name}/${l.subnetId}/${l.blockchainId}`).join(',')
  if (live !== state.l1s.map((l) => `${l.name}/${l.subnetId}/${l.blockchainId}`).join(','))
    throw new SnapshotMismatch(`the L1s recreated (${network.l1s.map((l) => l.name).join(', ')}) are not the saved ones (${state.l1s.map((l) => l.name).join(', ')})`)
  const chains = network.chains
  if (chains.length !== state.chains.length) throw new SnapshotMismatch(`${state.chains.length} EVM chains saved, ${chains.length} recreated`)
  for (const [i, chain] of chains.entries()) await restoreChain(chain, state.chains[i]!, histories[i]!)
  network.validators.restore(new Map(state.validators.map(([subnetId, entries]) => [subnetId, entries.map((v) => restoreValidator(network, v))])))
  // A fault change re-links uptime; the saved uptime then replaces what that did.
  network.faults.restore(state.faults)
  network.uptime.restore(state.uptime)
  network.random.restorePositions(state.random)
  network.methods.registerSignatures(state.methods)
  if (network.nodes.length !== state.nodes.length) throw new SnapshotMismatch(`${state.nodes.length} nodes saved, ${network.nodes.length} recreated`)
  for (const [i, node] of network.nodes.entries()) restoreNode(node, state.nodes[i]!)
}

async function restoreChain(chain: EvmChain, saved: SavedChain, history: LoadedHistory): Promise<void> {
  if (chain.alias !== saved.alias) throw new SnapshotMismatch(`chain ${saved.alias} was recreated as ${chain.alias}`)
  const genesis = chain.store.byNumber(0n)!.hash
  if (genesis !== saved.genesisHash) throw new SnapshotMismatch(`chain ${chain.alias}: genesis ${genesis} recreated, ${saved.genesisHash} saved`)
  const { trie, blocks } = history
  if (saved.trieNodes !== undefined && trie.size !== saved.trieNodes) throw new SnapshotMismatch(`chain ${chain.alias}: ${trie.size} trie nodes read, ${saved.trieNodes} saved`)
  if (blocks !== undefined) {
    // Built when read; the head now, whose hash is checked (the chain reads it at once).
    chain.store.attachSource(blocks.bind(chain))
    if (blocks.count > 0) {
      const head = chain.store.head
      const built = `0x${Buffer.from(head.block.hash()).toString('hex')}`
      if (built !== head.hash || head.block.header.number !== head.number) throw new SnapshotMismatch(`chain ${chain.alias}: block ${head.number} decodes to ${built}, saved as ${head.hash}`)
    }
  } else {
    const last = saved.blocks.length
    for (const [i, record] of saved.blocks.entries()) chain.store.append(blockFromRecord(chain, record, BigInt(i + 1), i + 1 === last))
  }
  // Under the fresh database, which holds the genesis state (a `recent` file may not).
  const db = trieDatabase(chain)
  if (trie instanceof Map) for (const [key, value] of trie) db.set(key, value)
  else if (db instanceof TrieNodeMap) db.attachBase(trie)
  else throw new TypeError(`chain ${chain.alias}: the trie database takes no base`)
  if (saved.coinbase !== undefined) chain.coinbase = saved.coinbase
  for (const [hash, reason] of saved.dropped) chain.miner.dropped.set(hash, reason)
  const pool: PoolTx[] = saved.snapshot.pool.map((p) => ({ tx: decodeTx(chain, p.raw, p.from, p.unsigned), hash: p.hash, from: p.from, nonce: p.nonce, seq: p.seq }))
  // The chain's own revert puts back the state root, pool, timing and mining rules and refreshes
  // the L1 rules from the head's state; the blocks are already in place, so nothing is dropped.
  await chain.revert({ ...saved.snapshot, pool })
}

function decodeTx(chain: EvmChain, raw: Uint8Array, from: Hex, unsigned: true | undefined): TypedTransaction {
  const tx = createTxFromRLP(raw, { common: chain.common })
  return unsigned ? unsignedCopy(chain, tx, from) : tx
}

function restoreValidator(network: Network, v: SavedNetwork['validators'][number][1][number]): ValidatorEntry {
  if (v.blsPublicKey === 'node') {
    const node = network.node(v.nodeId)
    if (!node) throw new SnapshotMismatch(`validator ${v.nodeId} was a simulated node, which the recreated network does not have`)
    const entry = nodeValidatorEntry(node.identity, v.weight, v.startTime)
    if (v.validationId !== undefined) Object.defineProperty(entry, 'validationId', { value: v.validationId, enumerable: true })
    if (v.isActive === false) Object.defineProperty(entry, 'isActive', { value: false, enumerable: true })
    return entry
  }
  return {
    nodeId: v.nodeId, weight: v.weight, blsPublicKey: v.blsPublicKey, startTime: v.startTime,
    ...(v.validationId !== undefined ? { validationId: v.validationId } : {}),
    ...(v.isActive === false ? { isActive: false } : {}),
  }
}

function restoreNode(node: Network['nodes'][number], saved: SavedNode): void {
  const { chains, router } = node.aliases
  for (const [id, aliases] of saved.chainAliases) {
    const have = new Set(chains.aliases(id) ?? [])
    for (const alias of aliases) if (!have.has(alias)) chains.alias(id, alias)
  }
  const routed = new Map(router.aliasList())
  for (const [base, aliases] of saved.httpAliases) {
    const have = new Set(routed.get(base) ?? [])
    const missing = aliases.filter((a) => !have.has(a))
    if (missing.length === 0) continue
    // admin.alias can leave a partly routed alias behind (a route conflict after the alias was
    // reserved); replaying it reproduces the same state and the same conflict, which is expected.
    try {
      router.addAliases(base, ...missing)
    } catch (error) {
      if (!(error instanceof RouteConflictError)) throw error
    }
  }
  for (const [name, logLevel, displayLevel] of saved.loggers) {
    if (!node.loggers.has(name)) node.loggers.make(name)
    node.loggers.setLogLevel(name, logLevel)
    node.loggers.setDisplayLevel(name, displayLevel)
  }
  for (const vm of saved.vms) if (!node.vms.has(vm.id)) node.vms.register(vm.id, vm.aliases.filter((a) => a !== vm.id), 'snapshot')
  node.health.importState(saved.health)
}
