import { describe, expect, it } from 'vitest'
import { MerklePatriciaTrie, createMerkleProof, verifyMerkleProof } from '@ethereumjs/mpt'
import { bytesToHex, MapDB, ValueEncoding } from '@ethereumjs/util'
import { TrieNodeMap } from '../../src/evm/trieNodes.js'
import { StateTrie } from '../../src/evm/trie/stateTrie.js'
import { seededRandom } from '../helpers/seededRandom.js'


type KeyMode = 'hashed' | 'prefixed' | 'short' | 'many'

/**
 * Keys from a small pool, so writes overwrite and deletes hit: addresses under key hashing (the
 * state trie), 32-byte raw keys sharing 28-31 leading bytes (long extensions, branches that
 * collapse on delete, leaves short enough to be inlined), and 3-byte raw keys.
 */
function keyPool(mode: KeyMode, rng: ReturnType<typeof seededRandom>): Uint8Array[] {
  const pool: Uint8Array[] = []
  // 'many': hashed keys enough for leaves below the depth the live trie keeps decoded.
  for (let i = 0; i < (mode === 'many' ? 1500 : 48); i++) {
    if (mode === 'hashed' || mode === 'many') pool.push(rng.bytes(20))
    else if (mode === 'short') pool.push(Uint8Array.of(0x12, rng.int(4), rng.int(256)))
    else {
      const key = new Uint8Array(32).fill(0xab)
      const shared = 28 + rng.int(4)
      key.set(rng.bytes(32 - shared), shared)
      pool.push(key)
    }
  }
  return pool
}

function valueOf(rng: ReturnType<typeof seededRandom>): Uint8Array {
  const kind = rng.int(4)
  if (kind === 0) return Uint8Array.of(rng.int(0x80)) // a single byte under 0x80: its own RLP
  if (kind === 1) return rng.bytes(1 + rng.int(8)) // small: inlined leaves
  if (kind === 2) return rng.bytes(20 + rng.int(20))
  return rng.bytes(70 + rng.int(60)) // an account's size and more
}

async function proofsAgree(ours: StateTrie, stock: MerklePatriciaTrie, key: Uint8Array, hashed: boolean) {
  const a = await createMerkleProof(ours as unknown as MerklePatriciaTrie, key)
  const b = await createMerkleProof(stock, key)
  expect(a.map(bytesToHex)).toEqual(b.map(bytesToHex))
  // ethereumjs verifies proofs of state tries (hashed keys); with inlined nodes on the path it
  // refuses its own proofs too (the bytes above are equal).
  if (hashed && a.length > 0) expect(await verifyMerkleProof(key, a, { useKeyHashing: true, root: stock.root() })).toEqual(await stock.get(key))
}

/** Every key of `model` read back from the database alone (a stock trie on it): all nodes were written. */
async function databaseHolds(ours: StateTrie, model: Map<string, Uint8Array>, keys: Uint8Array[], hashed: boolean) {
  // (ethereumjs' get with throwIfMissing throws on its empty trie.)
  if (model.size === 0) return expect(bytesToHex(ours.root())).toBe(bytesToHex(ours.EMPTY_TRIE_ROOT))
  const reader = new MerklePatriciaTrie({ db: ours.database().db as MapDB<string, string | Uint8Array>, root: ours.root(), useKeyHashing: hashed })
  for (const key of keys) expect(await reader.get(key, true)).toEqual(model.get(bytesToHex(key)) ?? null)
}

async function run(seed: number, mode: KeyMode, steps: number) {
  const rng = seededRandom(seed)
  const hashed = mode === 'hashed' || mode === 'many'
  // Odd seeds: over the chain's TrieNodeMap (nodes put by their hash's bytes), even: a plain Map.
  const ours = new StateTrie(seed % 2 === 1 ? { useKeyHashing: hashed, db: new MapDB<string, string | Uint8Array>(new TrieNodeMap()), valueEncoding: ValueEncoding.Bytes } : { useKeyHashing: hashed })
  const stock = new MerklePatriciaTrie({ useKeyHashing: hashed })
  const keys = keyPool(mode, rng)
  let model = new Map<string, Uint8Array>()
  const saved: Map<string, Uint8Array>[] = []
  /** Roots taken with no checkpoint open (their nodes are in both databases), with their contents. */
  const old: { root: Uint8Array; model: Map<string, Uint8Array> }[] = []
  for (let step = 0; step < steps; step++) {
    const op = rng.int(100)
    const key = keys[rng.int(keys.length)]!
    if (op < 45) {
      const value = valueOf(rng)
      await ours.put(key, value)
      await stock.put(key, value)
      model.set(bytesToHex(key), value)
    } else if (op < 65) {
      await ours.del(key)
      await stock.del(key)
      model.delete(bytesToHex(key))
    } else if (op < 72) {
      ours.checkpoint()
      stock.checkpoint()
      saved.push(new Map(model))
    } else if (op < 77 && saved.length > 0) {
      await ours.commit()
      await stock.commit()
      saved.pop()
    } else if (op < 82 && saved.length > 0) {
      await ours.revert()
      await stock.revert()
      model = saved.pop()!
    } else if (op < 88) {
      expect(bytesToHex(ours.root())).toBe(bytesToHex(stock.root()))
      if (saved.length === 0) {
        old.push({ root: ours.root(), model: new Map(model) })
        await databaseHolds(ours, model, keys.length > 100 ? Array.from({ length: 64 }, () => keys[rng.int(keys.length)]!) : keys, hashed)
      }
    } else if (op < 91 && old.length > 0 && saved.length === 0) {
      const back = old[rng.int(old.length)]!
      ours.root(back.root)
      stock.root(back.root)
      model = new Map(back.model)
    } else if (op < 95) {
      await proofsAgree(ours, stock, key, hashed)
    } else {
      expect(await ours.checkRoot(stock.root())).toBe(await stock.checkRoot(stock.root()))
    }
    expect(await ours.get(key)).toEqual(await stock.get(key))
    expect(await ours.get(key)).toEqual(model.get(bytesToHex(key)) ?? null)
  }
  while (saved.length > 0) {
    await ours.commit()
    await stock.commit()
    saved.pop()
  }
  expect(bytesToHex(ours.root())).toBe(bytesToHex(stock.root()))
  for (const key of keys) await proofsAgree(ours, stock, key, hashed)
  await databaseHolds(ours, model, keys, hashed)
  // An old root read back after all the later writes.
  for (const back of old.slice(-5)) {
    ours.root(back.root)
    for (const key of keys) expect(await ours.get(key)).toEqual(back.model.get(bytesToHex(key)) ?? null)
    await databaseHolds(ours, back.model, keys, hashed)
  }
}

describe("l1sim's state trie against @ethereumjs/mpt", () => {
  for (const mode of ['hashed', 'prefixed', 'short', 'many'] as const) {
    it(`same roots, values and proofs over random put/del/checkpoint/commit/revert/root(old) sequences (${mode} keys)`, async () => {
      if (mode === 'many') for (let seed = 1; seed <= 2; seed++) await run(seed * 104729, mode, 6000)
      else for (let seed = 1; seed <= 12; seed++) await run(seed * 7919 + mode.length, mode, 600)
    })
  }

  it('the empty trie: its root, absent keys, an empty proof, and deleting the last key', async () => {
    const ours = new StateTrie({ useKeyHashing: true })
    const stock = new MerklePatriciaTrie({ useKeyHashing: true })
    expect(bytesToHex(ours.root())).toBe(bytesToHex(stock.root()))
    expect(await ours.get(Uint8Array.of(1))).toBeNull()
    expect(await createMerkleProof(ours as unknown as MerklePatriciaTrie, Uint8Array.of(1))).toEqual([])
    expect(await ours.checkRoot(ours.root())).toBe(true)
    await ours.put(Uint8Array.of(1), Uint8Array.of(2))
    await ours.del(Uint8Array.of(1))
    expect(bytesToHex(ours.root())).toBe(bytesToHex(stock.root()))
  })

  it('a root under 32 bytes is stored by its hash, and an unknown root is reported missing', async () => {
    const ours = new StateTrie()
    const stock = new MerklePatriciaTrie()
    await ours.put(Uint8Array.of(1), Uint8Array.of(2))
    await stock.put(Uint8Array.of(1), Uint8Array.of(2))
    const root = ours.root()
    expect(bytesToHex(root)).toBe(bytesToHex(stock.root()))
    const reader = new MerklePatriciaTrie({ db: ours.database().db as MapDB<string, string | Uint8Array>, root })
    expect(await reader.get(Uint8Array.of(1))).toEqual(Uint8Array.of(2))
    expect(await ours.checkRoot(new Uint8Array(32).fill(7))).toBe(false)
    ours.root(new Uint8Array(32).fill(7))
    expect(await ours.get(Uint8Array.of(1))).toBeNull()
    await expect(ours.get(Uint8Array.of(1), true)).rejects.toThrow('Missing node in DB')
  })

  it('a root hashed inside a reverted checkpoint is gone with it, as in ethereumjs (from an empty trie too)', async () => {
    const ours = new StateTrie()
    const stock = new MerklePatriciaTrie()
    for (const trie of [ours, stock]) {
      trie.checkpoint()
      await trie.put(Uint8Array.of(1), new Uint8Array(40).fill(1))
    }
    const inside = ours.root()
    expect(bytesToHex(inside)).toBe(bytesToHex(stock.root()))
    await ours.revert()
    await stock.revert()
    expect(await ours.checkRoot(inside)).toBe(await stock.checkRoot(inside))
    ours.root(inside)
    stock.root(inside)
    expect(await ours.get(Uint8Array.of(1))).toEqual(await stock.get(Uint8Array.of(1)))
  })

  it('a shallow copy shares the database and the version, and diverges on its own writes', async () => {
    const ours = new StateTrie({ useKeyHashing: true })
    for (let i = 0; i < 50; i++) await ours.put(Uint8Array.of(i), new Uint8Array(40).fill(i))
    const copy = ours.shallowCopy(false)
    await copy.put(Uint8Array.of(1), Uint8Array.of(9))
    expect(await ours.get(Uint8Array.of(1))).toEqual(new Uint8Array(40).fill(1))
    expect(await copy.get(Uint8Array.of(1))).toEqual(Uint8Array.of(9))
    const fresh = ours.shallowCopy(false)
    fresh.root(copy.root())
    expect(await fresh.get(Uint8Array.of(1))).toEqual(Uint8Array.of(9))
  })
})
