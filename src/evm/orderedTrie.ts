import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'

type Node = Uint8Array | Node[]

/**
 * The root of the Merkle-Patricia trie that maps `RLP(i)` to `values[i]`: a block's transactions
 * and receipts tries. Built in one pass over the sorted keys, without a node database or node
 * objects: ethereumjs' `MerklePatriciaTrie` looked each key up in a fresh in-memory database and
 * re-encoded the path on every put, a tenth of a one-transaction block's sealing. Same bytes as
 * that trie (the test compares them for every count up to a few hundred).
 */
export function orderedTrieRoot(values: readonly Uint8Array[], keccak256: (data: Uint8Array) => Uint8Array): Uint8Array {
  if (values.length === 0) return KECCAK256_RLP
  const entries = values.map((value, i) => ({ key: nibbles(RLP.encode(i)), value }))
  entries.sort((a, b) => compareNibbles(a.key, b.key))
  return keccak256(RLP.encode(node(entries, 0, entries.length, 0, keccak256)))
}

type Entry = { key: Uint8Array; value: Uint8Array }

/** The node holding `entries[from…to)`, whose keys all share their first `depth` nibbles. */
function node(entries: readonly Entry[], from: number, to: number, depth: number, keccak256: (data: Uint8Array) => Uint8Array): Node {
  const first = entries[from]!
  if (to - from === 1) return [compactPath(first.key.subarray(depth), true), first.value]
  // The nibbles every key shares past `depth` (keys are sorted: the first and last bound them).
  const last = entries[to - 1]!
  let shared = depth
  while (shared < first.key.length && shared < last.key.length && first.key[shared] === last.key[shared]) shared++
  if (shared > depth) return [compactPath(first.key.subarray(depth, shared), false), reference(node(entries, from, to, shared, keccak256), keccak256)]
  const branch: Node[] = new Array(17).fill(new Uint8Array(0))
  let i = from
  // A key that ends here is the branch's value (sorted first: it is a prefix of the others).
  if (first.key.length === depth) {
    branch[16] = first.value
    i++
  }
  while (i < to) {
    const nibble = entries[i]!.key[depth]!
    let j = i + 1
    while (j < to && entries[j]!.key[depth] === nibble) j++
    branch[nibble] = reference(node(entries, i, j, depth + 1, keccak256), keccak256)
    i = j
  }
  return branch
}

/** How a parent holds a child: inline when its encoding is under 32 bytes, else by its hash. */
function reference(child: Node, keccak256: (data: Uint8Array) => Uint8Array): Node {
  const encoded = RLP.encode(child)
  return encoded.length < 32 ? child : keccak256(encoded)
}

/** A key's nibbles, high half of each byte first. */
export function nibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 15
  }
  return out
}

function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** Hex-prefix encoding of a path (Yellow Paper appendix C): flags for leaf and odd length. */
export function compactPath(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2 === 1
  const out = new Uint8Array(Math.floor(path.length / 2) + 1)
  out[0] = ((leaf ? 2 : 0) + (odd ? 1 : 0)) << 4
  let p = 0
  if (odd) out[0]! |= path[p++]!
  for (let i = 1; i < out.length; i++, p += 2) out[i] = (path[p]! << 4) | path[p + 1]!
  return out
}
