import { describe, expect, it } from 'vitest'
import { MerklePatriciaTrie, createMerkleProof } from '@ethereumjs/mpt'
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { installDirectFindPath } from '../../src/evm/ethereumjsInternals.js'

/** What a walk found, in a form that compares: node kind, remaining nibbles, the stack's node hashes. */
async function walk(trie: MerklePatriciaTrie, key: Uint8Array) {
  const { node, remaining, stack } = await trie.findPath(key)
  return { node: node === null ? null : bytesToHex(keccak_256(node.serialize())), remaining, stack: stack.map((n) => bytesToHex(keccak_256(n.serialize()))) }
}

describe('ethereumjs internals', () => {
  it('the direct findPath finds what ethereumjs finds (present, absent, prefix and diverging keys, proofs); the last checkpoint commit writes the same nodes', async () => {
    const trie = new MerklePatriciaTrie()
    const keys: Uint8Array[] = []
    for (let i = 0; i < 400; i++) {
      // Hashed keys (state tries) and short keys sharing prefixes (extension nodes, embedded nodes).
      const key = i % 2 === 0 ? keccak_256(Uint8Array.of(i >> 8, i & 0xff)) : Uint8Array.of(0x12, 0x34, i & 0xff, i >> 8)
      keys.push(key)
      await trie.put(key, i % 5 === 0 ? Uint8Array.of(i & 0xff) : new Uint8Array(40).fill(i & 0xff))
    }
    const probes = [...keys, Uint8Array.of(0x12), Uint8Array.of(0x12, 0x34), Uint8Array.of(0x12, 0x35, 1, 1), keccak_256(Uint8Array.of(9, 9, 9)), new Uint8Array(0)]
    const stock = await Promise.all(probes.map((key) => walk(trie, key)))
    const stockProofs = await Promise.all(keys.slice(0, 20).map((key) => createMerkleProof(trie, key)))
    const empty = await new MerklePatriciaTrie().findPath(keys[0]!)
    installDirectFindPath()
    expect(await Promise.all(probes.map((key) => walk(trie, key)))).toEqual(stock)
    expect(await Promise.all(keys.slice(0, 20).map((key) => createMerkleProof(trie, key)))).toEqual(stockProofs)
    expect(await new MerklePatriciaTrie().findPath(keys[0]!)).toEqual(empty)
    // Writes through it give the same root as writes through ethereumjs' walk.
    const before = trie.root()
    const copy = new MerklePatriciaTrie()
    for (const [i, key] of keys.entries()) await copy.put(key, i % 5 === 0 ? Uint8Array.of(i & 0xff) : new Uint8Array(40).fill(i & 0xff))
    expect(bytesToHex(copy.root())).toBe(bytesToHex(before))
    for (const key of keys.slice(0, 100)) await copy.del(key)
    expect(bytesToHex(copy.root())).not.toBe(bytesToHex(before))
    for (const [i, key] of keys.slice(0, 100).entries()) await copy.put(key, i % 5 === 0 ? Uint8Array.of(i & 0xff) : new Uint8Array(40).fill(i & 0xff))
    expect(bytesToHex(copy.root())).toBe(bytesToHex(before))
    // A checkpoint's writes reach the database on its last commit, readable under their keys.
    const checkpointed = new MerklePatriciaTrie()
    checkpointed.checkpoint()
    for (const [i, key] of keys.entries()) await checkpointed.put(key, i % 5 === 0 ? Uint8Array.of(i & 0xff) : new Uint8Array(40).fill(i & 0xff))
    await checkpointed.commit()
    expect(bytesToHex(checkpointed.root())).toBe(bytesToHex(before))
    const reopened = new MerklePatriciaTrie({ db: checkpointed.database().db, root: before })
    for (const [i, key] of keys.entries()) expect(await reopened.get(key)).toEqual(i % 5 === 0 ? Uint8Array.of(i & 0xff) : new Uint8Array(40).fill(i & 0xff))
  })
})
