import type { Common } from '@ethereumjs/common'
import { CheckpointDB } from '@ethereumjs/mpt'
import { type BatchDBOp, equalsBytes, MapDB, ValueEncoding } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { nibbles } from '../orderedTrie.js'
import { NodeStore } from './nodeStore.js'
import { Branch, type Child, encodeNode, Extension, KEEP_DEPTH, Leaf, type TrieNode } from './nodes.js'
import { RecentRoots } from './recentRoots.js'
import { insert, remove } from './update.js'

export type StateTrieOptions = {
  /** Its keccak (`customCrypto.keccak256`) hashes nodes and keys. */
  common?: Common
  /** Keys are the keccak of what `get`/`put` are given (a state trie's addresses and slots). */
  useKeyHashing?: boolean
  useKeyHashingFunction?: (data: Uint8Array) => Uint8Array
  /** Before every node's key in the database (ethereumjs' storage tries can have one). */
  keyPrefix?: Uint8Array
  db?: MapDB<string, string | Uint8Array>
  root?: Uint8Array
  valueEncoding?: ValueEncoding
  /** Kept for ethereumjs' `MerkleStateManager.shallowCopy`, which reads it; no cache here. */
  cacheSize?: number
}

/** What ethereumjs' proof code reads of a path walk (`createMerkleProof`: `stack`). */
export type FindPathResult = { node: TrieNode | null; remaining: number[]; stack: TrieNode[] }

type Checkpoint = { root: Child | null; hash: Uint8Array; roots: [string, TrieNode][] }

const MISSING = 'Missing node in DB'


/**
 * l1sim's Merkle-Patricia state trie, with the surface ethereumjs' `MerkleStateManager` and
 * l1sim use of `@ethereumjs/mpt`'s `MerklePatriciaTrie` (get/put/del with key hashing, `root`,
 * checkpoints, `shallowCopy`, `database()`, `checkRoot`, `findPath` for proofs), and the same
 * roots, nodes and database entries. ethereumjs decoded every node of a path from the database's
 * bytes on each read and write, and re-encoded and re-hashed the whole path on every put, so the
 * top of the account trie was hashed once per changed account. Here the live trie is decoded
 * nodes (a child is read from the database once, then kept), an update copies the path (nodes
 * never change, so a checkpoint is its root object), and hashing waits for `root()`: the nodes
 * made since the last `root()` are hashed once, bottom-up, and written to the database under
 * their hash, as ethereumjs writes them.
 */
export class StateTrie {
  /** ethereumjs' option names: `MerkleStateManager` reads `cacheSize`, proofs `keyPrefix`. */
  readonly _opts: Required<Pick<StateTrieOptions, 'useKeyHashing' | 'useKeyHashingFunction' | 'cacheSize' | 'valueEncoding'>> &
    Pick<StateTrieOptions, 'keyPrefix' | 'common'>
  readonly EMPTY_TRIE_ROOT: Uint8Array
  #db!: CheckpointDB
  #store!: NodeStore
  /** The live version: a node, the hash of one not read yet, or null for the empty trie. */
  #root: Child | null = null
  /** The last root node hashed and its hash (a root under 32 bytes is stored by hash too). */
  #hashed: { node: TrieNode; hash: Uint8Array } | undefined
  #checkpoints: Checkpoint[] = []
  readonly #recent: RecentRoots

  constructor(opts: StateTrieOptions = {}, recent?: RecentRoots) {
    const hashing = opts.common?.customCrypto.keccak256 ?? opts.useKeyHashingFunction ?? keccak_256
    this._opts = {
      useKeyHashing: opts.useKeyHashing ?? false,
      useKeyHashingFunction: hashing,
      keyPrefix: opts.keyPrefix,
      cacheSize: opts.cacheSize ?? 0,
      valueEncoding: opts.valueEncoding ?? ValueEncoding.String,
      common: opts.common,
    }
    this.#recent = recent ?? new RecentRoots()
    // ethereumjs: a database given keeps its values as hex strings unless told otherwise.
    this.database(opts.db ?? new MapDB(), opts.db !== undefined ? this._opts.valueEncoding : ValueEncoding.Bytes)
    this.EMPTY_TRIE_ROOT = this.hash(Uint8Array.of(0x80))
    if (opts.root !== undefined) this.root(opts.root)
  }

  /** The node database (ethereumjs' `CheckpointDB`: code lives there too); replaces it when given one. */
  database(db?: MapDB<string, string | Uint8Array>, valueEncoding?: ValueEncoding): CheckpointDB {
    if (db !== undefined) {
      this.#db = new CheckpointDB({ db, cacheSize: 0, valueEncoding: valueEncoding ?? ValueEncoding.String })
      this.#store = new NodeStore(this.#db, this._opts.keyPrefix)
    }
    return this.#db
  }

  hash(data: Uint8Array): Uint8Array {
    return Uint8Array.from(this._opts.useKeyHashingFunction(data))
  }

  appliedKey(key: Uint8Array): Uint8Array {
    return this._opts.useKeyHashing ? this.hash(key) : key
  }

  /** The root hash (hashing what changed since the last call), or sets the live version to `value`'s. */
  root(value?: Uint8Array | null): Uint8Array {
    if (value === undefined) return this.#hashRoot()
    if (value === null) value = this.EMPTY_TRIE_ROOT
    if (value.length !== 32) throw new Error(`Invalid root length. Roots are 32 bytes, got ${value.length} bytes`)
    if (equalsBytes(value, this.EMPTY_TRIE_ROOT)) {
      this.#root = null
      return value
    }
    const node = this.#hashed !== undefined && equalsBytes(this.#hashed.hash, value) ? this.#hashed.node : this.#recent.get(this.#dbKey(value))
    this.#root = node ?? value
    this.#hashed = node === undefined ? undefined : { node, hash: value }
    return value
  }

  async checkRoot(root: Uint8Array): Promise<boolean> {
    // The live version is in the database (as ethereumjs' always is) once hashed.
    if (equalsBytes(root, this.EMPTY_TRIE_ROOT) || equalsBytes(root, this.#hashRoot())) return true
    if (this.#recent.get(this.#dbKey(root)) !== undefined) return true
    return this.#store.read(root) !== undefined
  }

  async get(key: Uint8Array, throwIfMissing = false): Promise<Uint8Array | null> {
    try {
      return this.#lookup(nibbles(this.appliedKey(key)))
    } catch (error) {
      if ((error as Error).message === MISSING && !throwIfMissing) return null
      throw error
    }
  }

  /** Sets `key` to `value`; an empty value deletes it (as ethereumjs does). */
  async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    if (value === null || value.length === 0) return this.del(key, skipKeyTransform)
    const path = nibbles(skipKeyTransform ? key : this.appliedKey(key))
    this.#root = insert(this.#rootNode(), path, 0, value, this.#resolve)
  }

  async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
    const root = this.#rootNode()
    if (root === null) return
    this.#root = remove(root, nibbles(skipKeyTransform ? key : this.appliedKey(key)), 0, this.#resolve)
  }

  async batch(ops: BatchDBOp[], skipKeyTransform?: boolean): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') await this.put(op.key as Uint8Array, op.value as Uint8Array, skipKeyTransform)
      else await this.del(op.key as Uint8Array, skipKeyTransform)
    }
  }

  /**
   * The nodes from the root towards `key` (already hashed: a proof serializes them), as
   * ethereumjs' `findPath`: the node holding the key if found, and the nibbles not matched.
   */
  async findPath(key: Uint8Array, throwIfMissing = false): Promise<FindPathResult> {
    this.root()
    const target = nibbles(key)
    const stack: TrieNode[] = []
    const result = (node: TrieNode | null, at: number): FindPathResult => ({ node, remaining: Array.from(target.subarray(at)), stack })
    try {
      let node = this.#rootNode()
      let at = 0
      while (node !== null) {
        stack.push(node)
        if (node instanceof Branch) {
          if (at === target.length) return result(node, at)
          const slot = node.children[target[at]!]
          if (slot === null || slot === undefined) return result(null, at)
          node = this.#resolve(slot)
          at++
        } else if (node instanceof Leaf) {
          const matches = node.key.length === target.length - at && node.key.every((n, i) => n === target[at + i])
          return matches ? result(node, target.length) : result(null, at)
        } else {
          if (!node.key.every((n, i) => n === target[at + i])) return result(null, at)
          at += node.key.length
          node = this.#resolve(node.child)
        }
      }
      return { node: null, remaining: [], stack }
    } catch (error) {
      if ((error as Error).message !== MISSING || throwIfMissing) throw error
      return { node: null, remaining: [], stack }
    }
  }

  hasCheckpoints(): boolean {
    return this.#checkpoints.length > 0
  }

  /**
   * Saves the live version for `revert`. What is not hashed yet is hashed first, so its nodes are
   * written below the checkpoint: a node first hashed inside it would be written into the
   * checkpoint's writes, which a revert drops, while the node stays in the version kept.
   */
  checkpoint(): void {
    const hash = this.#hashRoot()
    this.#checkpoints.push({ root: this.#root, hash, roots: [] })
    this.#store.checkpoint()
    this.#db.checkpoint(hash)
  }

  async commit(): Promise<void> {
    const done = this.#checkpoints.pop()
    if (done === undefined) throw new Error('trying to commit when not checkpointed')
    const below = this.#checkpoints[this.#checkpoints.length - 1]
    if (below !== undefined) below.roots.push(...done.roots)
    else for (const [key, node] of done.roots) this.#recent.add(key, node)
    this.#store.commit()
    await this.#db.commit()
  }

  async revert(): Promise<void> {
    const saved = this.#checkpoints.pop()
    if (saved === undefined) throw new Error('trying to revert when not checkpointed')
    this.#root = saved.root
    // The last root hashed may have been hashed inside the checkpoint, its nodes in the writes
    // the revert drops: forget it unless it is the saved version itself.
    this.#hashed = saved.root !== null && !(saved.root instanceof Uint8Array) ? { node: saved.root, hash: saved.hash } : undefined
    this.#store.revert()
    await this.#db.revert()
  }

  flushCheckpoints(): void {
    this.#checkpoints = []
    this.#store.clear()
    this.#db.checkpoints = []
  }

  /**
   * A trie on the same database at the same version (the same nodes: none ever changes). With
   * `includeCheckpoints`, it can also revert to this trie's checkpoints.
   */
  shallowCopy(includeCheckpoints = true, opts?: Partial<StateTrieOptions>): StateTrie {
    const options = { ...this._opts, cacheSize: 0, ...opts }
    const copy = new StateTrie({ ...options, db: this.#db.db.shallowCopy() as MapDB<string, string | Uint8Array> }, this.#recent)
    const samePrefix = options.keyPrefix === this._opts.keyPrefix || (options.keyPrefix !== undefined && this._opts.keyPrefix !== undefined && equalsBytes(options.keyPrefix, this._opts.keyPrefix))
    if (opts?.root === undefined) {
      if (samePrefix) copy.#adopt(this.#root, this.#hashed)
      else copy.root(this.root())
    }
    if (includeCheckpoints && this.hasCheckpoints()) {
      copy.#checkpoints = this.#checkpoints.map((c) => ({ ...c, roots: [...c.roots] }))
      copy.#db.setCheckpoints(this.#db.checkpoints)
      copy.#store.copyCheckpoints(this.#store)
    }
    return copy
  }

  #adopt(root: Child | null, hashed: { node: TrieNode; hash: Uint8Array } | undefined): void {
    this.#root = root
    this.#hashed = hashed
  }

  #dbKey(hash: Uint8Array): string {
    return this.#store.key(hash)
  }

  readonly #resolve = (child: Child): TrieNode => this.#store.resolve(child)

  /** The live root node, read from the database if only its hash is known yet. */
  #rootNode(): TrieNode | null {
    const root = this.#root
    if (!(root instanceof Uint8Array)) return root
    const node = this.#store.resolve(root)
    this.#root = node
    this.#hashed = { node, hash: root }
    return node
  }

  #lookup(path: Uint8Array): Uint8Array | null {
    let node = this.#rootNode()
    let at = 0
    // The depth of the next node: kept in its parent when read above KEEP_DEPTH.
    let depth = 1
    while (node !== null) {
      if (node instanceof Branch) {
        if (at === path.length) return node.value
        const i = path[at++]!
        const slot = node.children[i]
        if (slot === null || slot === undefined) return null
        if (slot instanceof Uint8Array) {
          const read = this.#store.resolve(slot)
          if (depth < KEEP_DEPTH) node.children[i] = read
          node = read
        } else node = slot
        depth++
      } else if (node instanceof Leaf) {
        const key = node.key
        if (key.length !== path.length - at) return null
        for (let k = 0; k < key.length; k++) if (key[k] !== path[at + k]) return null
        return node.value
      } else {
        const key = node.key
        if (key.length > path.length - at) return null
        for (let k = 0; k < key.length; k++) if (key[k] !== path[at + k]) return null
        at += key.length
        const child = node.child
        if (child instanceof Uint8Array) {
          const read = this.#store.resolve(child)
          if (depth < KEEP_DEPTH) node.child = read
          node = read
        } else node = child
        depth++
      }
    }
    return null
  }

  /** Hashes the live version's new nodes (writing each to the database) and returns its root hash. */
  #hashRoot(): Uint8Array {
    const root = this.#root
    if (root === null) return this.EMPTY_TRIE_ROOT
    if (root instanceof Uint8Array) return root
    if (this.#hashed !== undefined && this.#hashed.node === root) return this.#hashed.hash
    let hash = this.#hashNode(root, 0)
    // The root is stored under its hash even when a parent would inline it.
    if (hash.length < 32) {
      const encoded = hash
      hash = this.hash(encoded)
      this.#store.write(hash, encoded)
    }
    this.#hashed = { node: root, hash }
    const entry: [string, TrieNode] = [this.#dbKey(hash), root]
    const open = this.#checkpoints[this.#checkpoints.length - 1]
    // A root hashed inside a checkpoint is known only once its nodes reach the database.
    if (open !== undefined) open.roots.push(entry)
    else this.#recent.add(entry[0], entry[1])
    return hash
  }

  /**
   * The node's reference (its hash, or its encoding under 32 bytes), hashing new children first.
   * Children from {@link KEEP_DEPTH} down are left as their hash once stored.
   */
  #hashNode(node: TrieNode, depth: number): Uint8Array {
    if (node.ref !== undefined) return node.ref
    const drop = depth + 1 >= KEEP_DEPTH
    if (node instanceof Branch) {
      const children = node.children
      for (let i = 0; i < 16; i++) {
        const child = children[i]
        if (child === null || child === undefined || child instanceof Uint8Array) continue
        const ref = this.#hashNode(child, depth + 1)
        if (drop && ref.length === 32) children[i] = ref
      }
    } else if (node instanceof Extension && !(node.child instanceof Uint8Array)) {
      const ref = this.#hashNode(node.child, depth + 1)
      if (drop && ref.length === 32) node.child = ref
    }
    const encoded = encodeNode(node)
    if (encoded.length < 32) return (node.ref = encoded)
    const hash = this.hash(encoded)
    this.#store.write(hash, encoded)
    return (node.ref = hash)
  }
}
