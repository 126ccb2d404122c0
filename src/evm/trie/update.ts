import { equalsBytes } from '@ethereumjs/util'
import { Branch, type Child, Extension, KEEP_DEPTH, Leaf, type TrieNode } from './nodes.js'

/**
 * Reads a child slot: the node in it, or the node its hash names, read from the database. Above
 * {@link KEEP_DEPTH} the node read is put in the slot, so the next walk finds it (the same node:
 * no version changes).
 */
export type Resolver = (child: Child) => TrieNode

/** How many nibbles `key` and `path` (from `at`) share, at most `key.length`. */
function shared(key: Uint8Array, path: Uint8Array, at: number): number {
  const n = Math.min(key.length, path.length - at)
  let i = 0
  while (i < n && key[i] === path[at + i]) i++
  return i
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** A branch holding `a` (what the old node keeps past the split) and the new value. */
function split(old: { rest: Uint8Array; place: (branch: (Child | null)[], nibble: number, rest: Uint8Array) => void; endValue: Uint8Array | null }, path: Uint8Array, at: number, value: Uint8Array): Branch {
  const children = new Array<Child | null>(16).fill(null)
  let branchValue: Uint8Array | null = null
  if (old.rest.length === 0) branchValue = old.endValue
  else old.place(children, old.rest[0]!, old.rest.subarray(1))
  if (at === path.length) branchValue = value
  else children[path[at]!] = new Leaf(path.subarray(at + 1), value)
  return new Branch(children, branchValue)
}

/**
 * The node that holds what `node` holds plus `path[at…]` → `value`: new nodes along the path,
 * every other node shared. Returns `node` itself when the value is already there.
 */
export function insert(node: TrieNode | null, path: Uint8Array, at: number, value: Uint8Array, resolve: Resolver, depth = 0): TrieNode {
  if (node === null) return new Leaf(path.subarray(at), value)
  if (node instanceof Branch) {
    if (at === path.length) return node.value !== null && equalsBytes(node.value, value) ? node : new Branch(node.children.slice(), value)
    const nibble = path[at]!
    const slot = node.children[nibble]
    const child = slot === null || slot === undefined ? null : resolve(slot)
    if (child !== null && depth + 1 < KEEP_DEPTH) node.children[nibble] = child
    const updated = insert(child, path, at + 1, value, resolve, depth + 1)
    if (updated === child) return node
    const children = node.children.slice()
    children[nibble] = updated
    return new Branch(children, node.value)
  }
  const common = shared(node.key, path, at)
  if (node instanceof Leaf) {
    if (common === node.key.length && at + common === path.length) return equalsBytes(node.value, value) ? node : new Leaf(node.key, value)
    const branch = split(
      { rest: node.key.subarray(common), endValue: node.value, place: (children, nibble, rest) => (children[nibble] = new Leaf(rest, node.value)) },
      path,
      at + common,
      value,
    )
    return common > 0 ? new Extension(node.key.subarray(0, common), branch) : branch
  }
  if (common === node.key.length) {
    const child = resolve(node.child)
    if (depth + 1 < KEEP_DEPTH) node.child = child
    const updated = insert(child, path, at + common, value, resolve, depth + 1)
    return updated === child ? node : new Extension(node.key, updated)
  }
  const ext = node
  const branch = split(
    {
      rest: ext.key.subarray(common),
      endValue: null,
      place: (children, nibble, rest) => (children[nibble] = rest.length === 0 ? ext.child : new Extension(rest, ext.child)),
    },
    path,
    at + common,
    value,
  )
  return common > 0 ? new Extension(ext.key.subarray(0, common), branch) : branch
}

/** `key` ++ `child`'s path: what an extension over `child` becomes (nodes merge into their parent path). */
function join(key: Uint8Array, child: TrieNode): TrieNode {
  if (child instanceof Leaf) return new Leaf(concat(key, child.key), child.value)
  if (child instanceof Extension) return new Extension(concat(key, child.key), child.child)
  return new Extension(key, child)
}

/** A branch left with one child or only a value becomes a leaf or an extension. */
function collapse(children: (Child | null)[], value: Uint8Array | null, resolve: Resolver): TrieNode | null {
  let count = 0
  let only = -1
  for (let i = 0; i < 16; i++) {
    if (children[i] !== null && children[i] !== undefined) {
      count++
      only = i
    }
  }
  if (count + (value !== null ? 1 : 0) >= 2) return new Branch(children, value)
  if (count === 0) return value === null ? null : new Leaf(new Uint8Array(0), value)
  return join(Uint8Array.of(only), resolve(children[only]!))
}

/**
 * The node that holds what `node` holds without `path[at…]`: `node` itself when the key is not
 * there, null when nothing is left. Branches left with a single entry collapse into their child.
 */
export function remove(node: TrieNode, path: Uint8Array, at: number, resolve: Resolver, depth = 0): TrieNode | null {
  if (node instanceof Leaf) return node.key.length === path.length - at && shared(node.key, path, at) === node.key.length ? null : node
  if (node instanceof Extension) {
    if (shared(node.key, path, at) !== node.key.length) return node
    const child = resolve(node.child)
    if (depth + 1 < KEEP_DEPTH) node.child = child
    const updated = remove(child, path, at + node.key.length, resolve, depth + 1)
    if (updated === child) return node
    return updated === null ? null : join(node.key, updated)
  }
  if (at === path.length) return node.value === null ? node : collapse(node.children.slice(), null, resolve)
  const nibble = path[at]!
  const slot = node.children[nibble]
  if (slot === null || slot === undefined) return node
  const child = resolve(slot)
  if (depth + 1 < KEEP_DEPTH) node.children[nibble] = child
  const updated = remove(child, path, at + 1, resolve, depth + 1)
  if (updated === child) return node
  const children = node.children.slice()
  children[nibble] = updated
  return collapse(children, node.value, resolve)
}
