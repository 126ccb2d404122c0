import type { CheckpointDB } from '@ethereumjs/mpt'
import type { MapDB } from '@ethereumjs/util'
import { TrieNodeMap } from '../trieNodes.js'
import { type Child, decodeNode, type TrieNode } from './nodes.js'

/** The database map: ethereumjs' `MapDB` map, in a chain l1sim's `TrieNodeMap`. */
type NodeMap = Map<string, string | Uint8Array>

/**
 * The writes of one open checkpoint (made on its first write): each node's hash and bytes, by
 * the hash's first four bytes (a key without building a hex string; the hash is compared whole).
 */
type Level = Map<number, [Uint8Array, Uint8Array][]> | undefined

function bucketOf(hash: Uint8Array): number {
  return hash[0]! | (hash[1]! << 8) | (hash[2]! << 16) | (hash[3]! << 24)
}

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false
  return true
}

function find(level: Level, hash: Uint8Array): [Uint8Array, Uint8Array] | undefined {
  const bucket = level?.get(bucketOf(hash))
  if (bucket !== undefined) for (const write of bucket) if (sameHash(write[0], hash)) return write
  return undefined
}

function record(level: Map<number, [Uint8Array, Uint8Array][]>, write: [Uint8Array, Uint8Array]): void {
  const key = bucketOf(write[0])
  const bucket = level.get(key)
  if (bucket === undefined) level.set(key, [write])
  else if (!bucket.some((other) => sameHash(other[0], write[0]))) bucket.push(write)
}

function mapOf(db: CheckpointDB): NodeMap {
  const map = (db.db as MapDB<string, string | Uint8Array>)._database
  if (!(map instanceof Map)) throw new TypeError('the state trie needs an in-memory node database (MapDB)')
  return map
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/**
 * The state trie's reads and writes of nodes in the map behind ethereumjs' `CheckpointDB` (which
 * the state manager uses for code, and l1sim's snapshots and state dumps read): the same keys
 * (hex of the hash, after an optional key prefix) and bytes ethereumjs writes. While the trie has
 * checkpoints its writes wait in the newest one, as ethereumjs' do in the database's checkpoints
 * (a revert drops them, the last commit writes them). Nodes go into l1sim's `TrieNodeMap` by
 * their hash's bytes, without the hex key ethereumjs builds and the map parses back.
 * Synchronous: the database is an in-memory map.
 */
export class NodeStore {
  #levels: Level[] = []

  constructor(
    readonly db: CheckpointDB,
    readonly keyPrefix: Uint8Array | undefined,
  ) {}

  /** The database key of the node under `hash` (ethereumjs': the key prefix's hex, then the hash's). */
  key(hash: Uint8Array): string {
    return this.keyPrefix === undefined ? hex(hash) : hex(this.keyPrefix) + hex(hash)
  }

  /** The bytes stored under `hash`, or undefined. */
  read(hash: Uint8Array): Uint8Array | undefined {
    const levels = this.#levels
    for (let i = levels.length - 1; i >= 0; i--) {
      const found = find(levels[i], hash)
      if (found !== undefined) return found[1]
    }
    const map = mapOf(this.db)
    const value = map instanceof TrieNodeMap && this.keyPrefix === undefined ? map.getHashed(Buffer.from(hash.buffer, hash.byteOffset, 32), 0) : map.get(this.key(hash))
    // A copy, not a view of Buffer's shared pool (decoded nodes keep views of what they read).
    return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'hex')) : value
  }

  write(hash: Uint8Array, encoded: Uint8Array): void {
    const top = this.#levels.length - 1
    if (top < 0) return this.#put(hash, encoded)
    let level = this.#levels[top]
    if (level === undefined) this.#levels[top] = level = new Map()
    record(level, [hash, encoded])
  }

  #put(hash: Uint8Array, encoded: Uint8Array): void {
    const map = mapOf(this.db)
    if (map instanceof TrieNodeMap && this.keyPrefix === undefined) map.setHashed(hash, encoded)
    else map.set(this.key(hash), encoded)
  }

  checkpoint(): void {
    this.#levels.push(undefined)
  }

  /** The newest checkpoint's writes go to the one below, or to the database from the last. */
  commit(): void {
    const level = this.#levels.pop()
    if (level === undefined) return
    const top = this.#levels.length - 1
    if (top < 0) {
      for (const bucket of level.values()) for (const [hash, encoded] of bucket) this.#put(hash, encoded)
      return
    }
    const below = this.#levels[top]
    if (below === undefined) this.#levels[top] = level
    else for (const bucket of level.values()) for (const write of bucket) record(below, write)
  }

  revert(): void {
    this.#levels.pop()
  }

  /** Drops every checkpoint and its writes. */
  clear(): void {
    this.#levels = []
  }

  /** Takes `other`'s open checkpoints (a copy of a trie that can revert to them). */
  copyCheckpoints(other: NodeStore): void {
    this.#levels = other.#levels.map((level) => (level === undefined ? undefined : new Map([...level].map(([key, bucket]) => [key, [...bucket]]))))
  }

  /** The node a child slot names; throws ethereumjs' "Missing node in DB" when it is not stored. */
  resolve(child: Child): TrieNode {
    if (!(child instanceof Uint8Array)) return child
    const bytes = this.read(child)
    if (bytes === undefined) throw new Error('Missing node in DB')
    return decodeNode(bytes, child)
  }
}
