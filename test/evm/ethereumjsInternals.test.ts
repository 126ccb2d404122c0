import { describe, expect, it } from 'vitest'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { installDirectCommit } from '../../src/evm/ethereumjsInternals.js'

describe('ethereumjs internals', () => {
  it('the last checkpoint commit writes the nodes ethereumjs writes (the same root, readable under their keys)', async () => {
    const keys = Array.from({ length: 400 }, (_, i) =>
      // Hashed keys (state tries) and short keys sharing prefixes (extension nodes, embedded nodes).
      i % 2 === 0 ? keccak_256(Uint8Array.of(i >> 8, i & 0xff)) : Uint8Array.of(0x12, 0x34, i & 0xff, i >> 8),
    )
    const value = (i: number) => (i % 5 === 0 ? Uint8Array.of(i & 0xff) : new Uint8Array(40).fill(i & 0xff))
    const plain = new MerklePatriciaTrie()
    for (const [i, key] of keys.entries()) await plain.put(key, value(i))
    installDirectCommit()
    const checkpointed = new MerklePatriciaTrie()
    checkpointed.checkpoint()
    for (const [i, key] of keys.entries()) await checkpointed.put(key, value(i))
    await checkpointed.commit()
    expect(bytesToHex(checkpointed.root())).toBe(bytesToHex(plain.root()))
    const reopened = new MerklePatriciaTrie({ db: checkpointed.database().db, root: plain.root() })
    for (const [i, key] of keys.entries()) expect(await reopened.get(key)).toEqual(value(i))
  })
})
