import { compactPath } from '../orderedTrie.js'

/**
 * The state trie's nodes as live objects (see `stateTrie.ts`): a node never changes once made
 * (an update makes new nodes along the path), so a version of the trie is just its root object.
 * A child is a node or, until first read, the 32-byte hash it is stored under in the node
 * database. `ref` is what a parent holds once the node is hashed: its hash when its encoding is
 * 32 bytes or more, else the encoding itself (inlined in the parent, as the Yellow Paper says).
 */

/**
 * How deep the live trie keeps decoded nodes: the root is at depth 0, and nodes from this depth
 * down are dropped once hashed (their parent keeps their hash) and not kept when read. The top
 * of a trie, which every block changes, stays decoded; a large state (a hundred thousand
 * accounts) costs no more heap than its database entries, each deep node read being decoded
 * from its bytes again, as ethereumjs decodes every node.
 */
export const KEEP_DEPTH = 3

/** A child slot: a node, or the hash of a node not read from the database yet. */
export type Child = TrieNode | Uint8Array

export class Leaf {
  ref: Uint8Array | undefined
  /** `key`: the rest of the path in nibbles. */
  constructor(
    readonly key: Uint8Array,
    readonly value: Uint8Array,
    ref?: Uint8Array,
  ) {
    this.ref = ref
  }

  /** The node's RLP, as a proof carries it (ethereumjs' `serialize`). */
  serialize(): Uint8Array {
    return encodeNode(this)
  }
}

export class Extension {
  ref: Uint8Array | undefined
  /** `child` is replaced by the node itself when first read (same node, no change). */
  constructor(
    readonly key: Uint8Array,
    public child: Child,
    ref?: Uint8Array,
  ) {
    this.ref = ref
  }

  serialize(): Uint8Array {
    return encodeNode(this)
  }
}

export class Branch {
  ref: Uint8Array | undefined
  /** `children`: 16 slots; a hash in a slot is replaced by its node when first read. */
  constructor(
    readonly children: (Child | null)[],
    readonly value: Uint8Array | null,
    ref?: Uint8Array,
  ) {
    this.ref = ref
  }

  serialize(): Uint8Array {
    return encodeNode(this)
  }
}

export type TrieNode = Leaf | Extension | Branch

/** A child's reference once hashed: a node's `ref`, or the hash in an unread slot. */
function childRef(child: Child): Uint8Array {
  if (child instanceof Uint8Array) return child
  if (child.ref === undefined) throw new Error('state trie: child node not hashed')
  return child.ref
}

/** Length of the RLP header of a string or list of `length` bytes. */
function headerLength(length: number): number {
  return length <= 55 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : 4
}

function writeHeader(out: Uint8Array, at: number, length: number, short: number): number {
  if (length <= 55) {
    out[at] = short + length
    return at + 1
  }
  const bytes = length < 0x100 ? 1 : length < 0x10000 ? 2 : 3
  out[at++] = short + 55 + bytes
  for (let i = bytes - 1; i >= 0; i--) out[at++] = (length >> (8 * i)) & 0xff
  return at
}

/** Encoded length of `bytes` as an RLP string. */
function stringLength(bytes: Uint8Array): number {
  return bytes.length === 1 && bytes[0]! < 0x80 ? 1 : headerLength(bytes.length) + bytes.length
}

/** Copies `bytes` into `out` at `at`: a loop, faster than `set` for the few bytes of a node's parts. */
function copy(out: Uint8Array, at: number, bytes: Uint8Array): number {
  const n = bytes.length
  if (n > 64) {
    out.set(bytes, at)
    return at + n
  }
  for (let i = 0; i < n; i++) out[at + i] = bytes[i]!
  return at + n
}

function writeString(out: Uint8Array, at: number, bytes: Uint8Array): number {
  if (bytes.length === 1 && bytes[0]! < 0x80) {
    out[at] = bytes[0]!
    return at + 1
  }
  return copy(out, writeHeader(out, at, bytes.length, 0x80), bytes)
}

/** Encoded length of a child reference: a hash as a string, an inlined node as itself. */
function refLength(ref: Uint8Array): number {
  return ref.length === 32 ? 33 : ref.length
}

function writeRef(out: Uint8Array, at: number, ref: Uint8Array): number {
  if (ref.length === 32) out[at++] = 0xa0
  return copy(out, at, ref)
}


/** The node's RLP; its children must be hashed (their `ref` set). */
export function encodeNode(node: TrieNode): Uint8Array {
  if (node instanceof Branch) {
    let payload = node.value === null ? 1 : stringLength(node.value)
    for (let i = 0; i < 16; i++) {
      const child = node.children[i]
      payload += child === null || child === undefined ? 1 : refLength(childRef(child))
    }
    const out = new Uint8Array(headerLength(payload) + payload)
    let at = writeHeader(out, 0, payload, 0xc0)
    for (let i = 0; i < 16; i++) {
      const child = node.children[i]
      if (child === null || child === undefined) out[at++] = 0x80
      else at = writeRef(out, at, childRef(child))
    }
    if (node.value === null) out[at] = 0x80
    else writeString(out, at, node.value)
    return out
  }
  const path = compactPath(node.key, node instanceof Leaf)
  const second = node instanceof Leaf ? node.value : childRef(node.child)
  const secondLength = node instanceof Leaf ? stringLength(second) : refLength(second)
  const payload = stringLength(path) + secondLength
  const out = new Uint8Array(headerLength(payload) + payload)
  let at = writeHeader(out, 0, payload, 0xc0)
  at = writeString(out, at, path)
  if (node instanceof Leaf) writeString(out, at, second)
  else writeRef(out, at, second)
  return out
}

/** An RLP item of `bytes` at `at`: its payload `[start, end)` and whether it is a list. */
type Item = { list: boolean; start: number; end: number }

function readItem(bytes: Uint8Array, at: number, limit: number, item: Item): void {
  const b = bytes[at]
  if (b === undefined || at >= limit) throw new Error('state trie: truncated node')
  let length: number
  let start: number
  if (b < 0x80) {
    item.list = false
    item.start = at
    item.end = at + 1
    return
  }
  if (b <= 0xb7) {
    item.list = false
    start = at + 1
    length = b - 0x80
  } else if (b < 0xc0) {
    item.list = false
    const n = b - 0xb7
    length = 0
    for (let i = 1; i <= n; i++) length = length * 256 + bytes[at + i]!
    start = at + 1 + n
  } else if (b <= 0xf7) {
    item.list = true
    start = at + 1
    length = b - 0xc0
  } else {
    item.list = true
    const n = b - 0xf7
    length = 0
    for (let i = 1; i <= n; i++) length = length * 256 + bytes[at + i]!
    start = at + 1 + n
  }
  if (start + length > limit) throw new Error('state trie: truncated node')
  item.start = start
  item.end = start + length
}

/** A child slot read from an encoding: empty, a hash, or an inlined node. */
function decodeChild(bytes: Uint8Array, at: number, item: Item): Child | null {
  if (item.list) return decodeNodeAt(bytes, at, item.end)
  const length = item.end - item.start
  if (length === 0) return null
  if (length !== 32) throw new Error('state trie: malformed child reference')
  return bytes.subarray(item.start, item.end)
}

function nibblesOf(path: Uint8Array): { key: Uint8Array; leaf: boolean } {
  const flag = path[0]! >> 4
  const odd = (flag & 1) === 1
  const key = new Uint8Array((path.length - 1) * 2 + (odd ? 1 : 0))
  let k = 0
  if (odd) key[k++] = path[0]! & 15
  for (let i = 1; i < path.length; i++) {
    key[k++] = path[i]! >> 4
    key[k++] = path[i]! & 15
  }
  return { key, leaf: flag >= 2 }
}

/** The node encoded at `bytes[at…end)`; its `ref` is that encoding if under 32 bytes. */
function decodeNodeAt(bytes: Uint8Array, at: number, end: number, ref?: Uint8Array): TrieNode {
  const item: Item = { list: false, start: 0, end: 0 }
  readItem(bytes, at, end, item)
  if (!item.list) throw new Error('state trie: a node is not a list')
  const payloadEnd = item.end
  // Under 32 bytes a node is referenced by its encoding (a small root too: it is hashed anew).
  const own = end - at < 32 ? bytes.subarray(at, end) : ref
  const starts: number[] = []
  const items: Item[] = []
  for (let p = item.start; p < payloadEnd; ) {
    const next: Item = { list: false, start: 0, end: 0 }
    readItem(bytes, p, payloadEnd, next)
    starts.push(p)
    items.push(next)
    p = next.end
  }
  if (items.length === 17) {
    const children = new Array<Child | null>(16)
    for (let i = 0; i < 16; i++) children[i] = decodeChild(bytes, starts[i]!, items[i]!)
    const v = items[16]!
    if (v.list) throw new Error('state trie: malformed branch value')
    return new Branch(children, v.end > v.start ? bytes.subarray(v.start, v.end) : null, own)
  }
  if (items.length !== 2 || items[0]!.list) throw new Error('state trie: malformed node')
  const { key, leaf } = nibblesOf(bytes.subarray(items[0]!.start, items[0]!.end))
  const second = items[1]!
  if (leaf) {
    if (second.list) throw new Error('state trie: malformed leaf value')
    return new Leaf(key, bytes.subarray(second.start, second.end), own)
  }
  const child = decodeChild(bytes, starts[1]!, second)
  if (child === null) throw new Error('state trie: extension without a child')
  return new Extension(key, child, own)
}

/** The node stored under `hash` as `bytes`. */
export function decodeNode(bytes: Uint8Array, hash: Uint8Array): TrieNode {
  return decodeNodeAt(bytes, 0, bytes.length, hash)
}
