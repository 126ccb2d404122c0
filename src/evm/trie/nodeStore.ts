import { CheckpointDB } from '@ethereumjs/mpt'
import type { MapDB } from '@ethereumjs/util'
import { type Child, decodeNode, type TrieNode } from './nodes.js'

/** The database map: ethereumjs' `MapDB` map, in a chain l1sim's `TrieNodeMap`. */
type NodeMap = Map<string, string | Uint8Array>

/** A database that is not a {@link MapDB} (a level database): the state trie reads maps only. */
function mapOf(db: CheckpointDB): NodeMap {
  const map = (db.db as MapDB<string, string | Uint8Array>)._database
  if (!(map instanceof Map)) throw new TypeError('the state trie needs an in-memory node database (MapDB)')
  return map
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/**
 * The state trie's reads and writes of nodes in ethereumjs' `CheckpointDB` (which the state
 * manager also uses for code, and l1sim's snapshots and state dumps read): the same keys (hex of
 * the hash, after an optional key prefix) and bytes ethereumjs writes. While the database has
 * checkpoints, writes go into the newest one's map as ethereumjs' do (a revert drops them, the
 * last commit writes them). Synchronous: the database is an in-memory map.
 */
export class NodeStore {
  constructor(
    readonly db: CheckpointDB,
    readonly keyPrefix: Uint8Array | undefined,
  ) {}

  #key(hash: Uint8Array): string {
    return this.keyPrefix === undefined ? hex(hash) : hex(this.keyPrefix) + hex(hash)
  }

  /** The bytes stored under `hash`, or undefined. */
  read(hash: Uint8Array): Uint8Array | undefined {
    const key = this.#key(hash)
    const checkpoints = this.db.checkpoints
    for (let i = checkpoints.length - 1; i >= 0; i--) {
      const map = checkpoints[i]!.keyValueMap
      if (map.has(key)) return map.get(key)
    }
    const value = mapOf(this.db).get(key)
    // A copy, not a view of Buffer's shared pool (decoded nodes keep views of what they read).
    return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'hex')) : value
  }

  write(hash: Uint8Array, encoded: Uint8Array): void {
    const key = this.#key(hash)
    const checkpoints = this.db.checkpoints
    if (checkpoints.length > 0) checkpoints[checkpoints.length - 1]!.keyValueMap.set(key, encoded)
    else mapOf(this.db).set(key, encoded)
  }

  /** The node a child slot names; throws ethereumjs' "Missing node in DB" when it is not stored. */
  resolve(child: Child): TrieNode {
    if (!(child instanceof Uint8Array)) return child
    const bytes = this.read(child)
    if (bytes === undefined) throw new Error('Missing node in DB')
    return decodeNode(bytes, child)
  }
}
