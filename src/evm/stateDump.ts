import { gunzipSync, gzipSync } from 'node:zlib'
import {
  BranchMPTNode,
  decodeMPTNode,
  decodeRawMPTNode,
  ExtensionMPTNode,
  isRawMPTNode,
  type MerklePatriciaTrie,
  type MPTNode,
} from '@ethereumjs/mpt'
import { CODEHASH_PREFIX, type MerkleStateManager } from '@ethereumjs/statemanager'
import { bytesToHex, concatBytes, createAccountFromRLP, equalsBytes, hexToBytes, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { InvalidArgumentError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from './chain.js'

/**
 * The JSON inside a state dump (before gzip). The state is stored as what it is on disk: every
 * trie node reachable from the state root (the account trie and each account's storage trie)
 * and every contract's code. The state manager keys accounts and slots by their keccak hash, so
 * the trie holds no addresses; copying its nodes is exact and complete without them, and a
 * loaded dump has the very same state root.
 */
export type StateDumpJson = {
  version: 1
  /** EVM chain id of the chain dumped; a dump loads only into a chain with the same id. */
  chainId: Hex
  /** Root of the account trie. */
  stateRoot: Hex
  /** Head block when dumped: informative only, never loaded. */
  blockNumber: Hex
  timestamp: Hex
  /** Number of accounts in the state. */
  accounts: number
  /** RLP of each trie node; its key is its keccak hash. */
  nodes: Hex[]
  /** Each distinct contract code; its key is its keccak hash. */
  code: Hex[]
}

export const STATE_DUMP_VERSION = 1
/** Upper bound of an inflated dump: refuses gzip bombs long before memory runs out. */
const MAX_INFLATED_BYTES = 512 * 1024 * 1024

type Lookup = (hash: Uint8Array) => Promise<Uint8Array | undefined> | Uint8Array | undefined
type Ref = Uint8Array | Uint8Array[]

/** Internals of ethereumjs' MerkleStateManager that a dump has to reach: the trie and its key layout. */
type StateManagerInternals = {
  _trie: MerklePatriciaTrie
  _prefixCodeHashes: boolean
  _prefixStorageTrieKeys: boolean
}

function internals(state: MerkleStateManager): StateManagerInternals {
  const inner = state as unknown as StateManagerInternals
  // Storage tries under per-account key prefixes would need the prefix next to each node.
  if (inner._prefixStorageTrieKeys) throw new Error('state dumps need storage trie nodes stored without key prefixes')
  return inner
}

class MissingNodeError extends Error {}

/**
 * Visits every node of the trie at `root` once, depth first: `onNode` gets each node stored
 * under its hash (embedded nodes are part of their parent), `onValue` each leaf value.
 */
async function walkTrie(
  root: Uint8Array,
  lookup: Lookup,
  seen: Set<string>,
  onNode: (hash: Uint8Array, node: Uint8Array) => void,
  onValue: (value: Uint8Array) => Promise<void> | void,
): Promise<void> {
  if (equalsBytes(root, KECCAK256_RLP)) return
  const stack: Ref[] = [root]
  while (stack.length > 0) {
    const ref = stack.pop()!
    let node: MPTNode
    if (isRawMPTNode(ref)) {
      node = decodeRawMPTNode(ref)
    } else {
      const key = bytesToHex(ref)
      if (seen.has(key)) continue
      seen.add(key)
      const bytes = await lookup(ref)
      if (bytes === undefined) throw new MissingNodeError(`missing trie node ${key}`)
      onNode(ref, bytes)
      node = decodeMPTNode(bytes)
    }
    if (node instanceof BranchMPTNode) {
      for (const [, child] of node.getChildren()) stack.push(child as Ref)
      const value = node.value()
      if (value !== null && value.length > 0) await onValue(value)
    } else if (node instanceof ExtensionMPTNode) {
      stack.push(node.value() as Ref)
    } else {
      await onValue(node.value())
    }
  }
}

/**
 * Collects the state at `root`: its trie nodes, the storage tries of its accounts and their
 * code. Throws {@link MissingNodeError} when a node or code is not found.
 */
async function collectState(
  root: Uint8Array,
  lookupNode: Lookup,
  lookupCode: Lookup,
): Promise<{ nodes: Map<string, Uint8Array>; code: Map<string, Uint8Array>; accounts: number }> {
  const nodes = new Map<string, Uint8Array>()
  const code = new Map<string, Uint8Array>()
  const onNode = (hash: Uint8Array, node: Uint8Array) => void nodes.set(bytesToHex(hash), node)
  const accounts: Uint8Array[] = []
  await walkTrie(root, lookupNode, new Set(), onNode, (value) => void accounts.push(value))
  const storageSeen = new Set<string>()
  for (const rlp of accounts) {
    const account = createAccountFromRLP(rlp)
    await walkTrie(account.storageRoot, lookupNode, storageSeen, onNode, () => undefined)
    if (!equalsBytes(account.codeHash, KECCAK256_NULL)) {
      const key = bytesToHex(account.codeHash)
      if (code.has(key)) continue
      const bytes = await lookupCode(account.codeHash)
      if (bytes === undefined) throw new MissingNodeError(`missing code ${key}`)
      code.set(key, bytes)
    }
  }
  return { nodes, code, accounts: accounts.length }
}

/**
 * Dumps the chain's live state (every account: balance, nonce, code, storage) as gzip of
 * {@link StateDumpJson}, as anvil's `anvil_dumpState` returns gzip of its JSON. Blocks,
 * transactions, the pool and cheat settings are not part of it.
 */
export async function dumpState(chain: EvmChain): Promise<Uint8Array> {
  return chain.lock.run(async () => {
    const state = chain.stateManager
    const root = await state.getStateRoot()
    const { _trie: trie, _prefixCodeHashes: prefixCode } = internals(state)
    const db = trie.database()
    const collected = await collectState(
      root,
      (hash) => db.get(hash),
      (hash) => db.get(prefixCode ? concatBytes(CODEHASH_PREFIX, hash) : hash),
    )
    const head = chain.head.block.header
    const json: StateDumpJson = {
      version: STATE_DUMP_VERSION,
      chainId: `0x${chain.chainId.toString(16)}`,
      stateRoot: bytesToHex(root) as Hex,
      blockNumber: `0x${head.number.toString(16)}`,
      timestamp: `0x${head.timestamp.toString(16)}`,
      accounts: collected.accounts,
      nodes: [...collected.nodes.values()].map((n) => bytesToHex(n) as Hex),
      code: [...collected.code.values()].map((c) => bytesToHex(c) as Hex),
    }
    return gzipSync(JSON.stringify(json))
  })
}

const HEX = /^0x(?:[0-9a-fA-F]{2})*$/

function invalid(reason: string): InvalidArgumentError {
  return new InvalidArgumentError(`invalid state dump: ${reason}`)
}

/** Reads and checks a dump completely, before anything of the chain is touched. */
async function readDump(chain: EvmChain, dump: Uint8Array) {
  let text: string
  try {
    text = gunzipSync(dump, { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8')
  } catch {
    throw invalid('not gzip data')
  }
  let json: Partial<StateDumpJson>
  try {
    json = JSON.parse(text) as Partial<StateDumpJson>
  } catch {
    throw invalid('not JSON')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw invalid('not a JSON object')
  if (json.version !== STATE_DUMP_VERSION) throw invalid(`unsupported version ${JSON.stringify(json.version ?? null)}, expected ${STATE_DUMP_VERSION}`)
  if (typeof json.chainId !== 'string' || !/^0x[0-9a-fA-F]+$/.test(json.chainId)) throw invalid('chainId missing')
  if (BigInt(json.chainId) !== chain.chainId)
    throw invalid(`dumped from chain id ${BigInt(json.chainId)}, this chain is ${chain.chainId}`)
  if (typeof json.stateRoot !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(json.stateRoot)) throw invalid('stateRoot missing')
  if (!Array.isArray(json.nodes) || !json.nodes.every((n) => typeof n === 'string' && HEX.test(n))) throw invalid('nodes must be hex strings')
  if (!Array.isArray(json.code) || !json.code.every((c) => typeof c === 'string' && HEX.test(c))) throw invalid('code must be hex strings')

  const nodes = new Map<string, Uint8Array>()
  for (const n of json.nodes) {
    const bytes = hexToBytes(n)
    nodes.set(bytesToHex(keccak_256(bytes)), bytes)
  }
  const code = new Map<string, Uint8Array>()
  for (const c of json.code) {
    const bytes = hexToBytes(c)
    code.set(bytesToHex(keccak_256(bytes)), bytes)
  }
  const root = hexToBytes(json.stateRoot as Hex)
  try {
    // The walk proves the dump complete: every node reachable from the root, every storage
    // trie and every code hash is present (each stored under the hash of its bytes). Only what
    // it reaches is loaded.
    const reached = await collectState(root, (hash) => nodes.get(bytesToHex(hash)), (hash) => code.get(bytesToHex(hash)))
    return { root, nodes: reached.nodes, code: reached.code }
  } catch (error) {
    throw invalid(error instanceof MissingNodeError ? error.message : 'malformed trie node')
  }
}

/**
 * Replaces the chain's live state with a dump made by {@link dumpState} (anvil_loadState).
 * Only the state is loaded: the chain keeps its blocks, and the next block builds on the loaded
 * state (the head block keeps its own state root, as after any cheat code). Pool transactions
 * whose nonce the loaded state has passed are dropped. A corrupt dump, or one from another
 * chain id, throws {@link InvalidArgumentError} and changes nothing.
 */
export async function loadState(chain: EvmChain, dump: Uint8Array): Promise<void> {
  const { root, nodes, code } = await readDump(chain, dump)
  await chain.lock.run(async () => {
    const state = chain.stateManager
    const { _trie: trie, _prefixCodeHashes: prefixCode } = internals(state)
    const db = trie.database()
    // Content-addressed: adding nodes and code never changes any other root's state.
    for (const [hash, node] of nodes) await db.put(hexToBytes(hash as Hex), node)
    for (const [hash, bytes] of code) {
      const key = hexToBytes(hash as Hex)
      await db.put(prefixCode ? concatBytes(CODEHASH_PREFIX, key) : key, bytes)
    }
    await state.setStateRoot(root)
    const nonces = new Map<Hex, bigint>()
    for (const { from } of chain.pool.all()) if (!nonces.has(from)) nonces.set(from, await chain.liveNonce(from))
    chain.pool.prune((from) => nonces.get(from) ?? 0n)
  })
}
