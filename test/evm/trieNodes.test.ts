import { describe, expect, it } from 'vitest'
import { TrieNodeMap, type TrieNodeSource } from '../../src/evm/trieNodes.js'

const key = (n: number): string => n.toString(16).padStart(64, '0')

/** A base over a plain map (what a snapshot file's `FrozenTrie` is to the map). */
function base(entries: [string, Uint8Array][]): TrieNodeSource {
  const nodes = new Map(entries)
  return { size: nodes.size, get: (k) => nodes.get(k), entries: () => nodes.entries() }
}

describe('TrieNodeMap', () => {
  it('stores a hex string value as its bytes, and copies byte values (nodes are never shared with the writer)', () => {
    const map = new TrieNodeMap()
    map.set(key(1), 'c0ffee')
    expect(map.get(key(1))).toEqual(Uint8Array.from([0xc0, 0xff, 0xee]))
    const value = Uint8Array.from([1, 2, 3])
    map.set(key(2), value)
    value[0] = 9
    expect(map.get(key(2))).toEqual(Uint8Array.from([1, 2, 3]))
    // Not hex: kept as it was given.
    map.set(key(3), 'not hex')
    expect(map.get(key(3))).toBe('not hex')
    const large = new Uint8Array(5000).fill(7)
    map.set(key(4), large)
    expect(map.get(key(4))).toEqual(large)
    expect(map.size).toBe(4)
  })

  it('keys built by concatenation are found by any equal string', () => {
    const map = new TrieNodeMap()
    let rope = ''
    for (const c of key(5)) rope += c
    map.set(rope, 'aa')
    expect(map.get(key(5))).toEqual(Uint8Array.of(0xaa))
    expect(map.has(key(5))).toBe(true)
  })

  it('stands on a base: its own entries answer first; size and iteration cover both, each key once', () => {
    const map = new TrieNodeMap()
    map.set(key(1), '01')
    map.set(key(2), '02')
    map.attachBase(base([[key(2), Uint8Array.of(2)], [key(3), Uint8Array.of(3)]]))
    expect(map.get(key(3))).toEqual(Uint8Array.of(3))
    expect(map.has(key(3))).toBe(true)
    expect(map.get(key(4))).toBeUndefined()
    expect(map.has(key(4))).toBe(false)
    expect(map.size).toBe(3)
    expect([...map.keys()].sort()).toEqual([key(1), key(2), key(3)])
    expect(new Map(map)).toEqual(new Map([[key(1), Uint8Array.of(1)], [key(2), Uint8Array.of(2)], [key(3), Uint8Array.of(3)]]))
    expect(() => map.attachBase(base([]))).toThrow('the trie database already has a base')
  })

  it('a deleted base node stays deleted until it is set again', () => {
    const map = new TrieNodeMap()
    map.attachBase(base([[key(1), Uint8Array.of(1)], [key(2), Uint8Array.of(2)]]))
    expect(map.delete(key(1))).toBe(true)
    expect(map.delete(key(1))).toBe(false)
    expect(map.get(key(1))).toBeUndefined()
    expect(map.size).toBe(1)
    expect([...map.keys()]).toEqual([key(2)])
    map.set(key(1), '0101')
    expect(map.get(key(1))).toEqual(Uint8Array.of(1, 1))
    expect(map.size).toBe(2)
    map.clear()
    expect(map.size).toBe(0)
    expect(map.get(key(2))).toBeUndefined()
  })
})

describe('TrieNodeMap with many nodes', () => {
  it('holds thousands of hash-keyed nodes across growth, with deletes, and iterates each once', () => {
    const map = new TrieNodeMap()
    const value = (n: number) => Uint8Array.from({ length: 1 + (n % 600) }, (_, i) => (n + i) & 0xff)
    for (let n = 0; n < 5000; n++) map.set(key(n * 2654435761), value(n))
    // The same node again is a no-op; a code entry (another key shape) sits beside them.
    map.set(key(0), value(0))
    map.set(`63${key(1)}`, Uint8Array.of(0x60))
    expect(map.size).toBe(5001)
    for (let n = 0; n < 5000; n += 7) expect(map.get(key(n * 2654435761))).toEqual(value(n))
    for (let n = 0; n < 5000; n += 2) expect(map.delete(key(n * 2654435761))).toBe(true)
    expect(map.size).toBe(2501)
    expect(map.get(key(2 * 2654435761))).toBeUndefined()
    map.set(key(2 * 2654435761), value(2))
    expect(map.get(key(2 * 2654435761))).toEqual(value(2))
    const keys = [...map.keys()]
    expect(keys.length).toBe(2502)
    expect(new Set(keys).size).toBe(2502)
    // 64 characters that are not hex are an ordinary key.
    const odd = 'z'.repeat(64)
    expect(map.get(odd)).toBeUndefined()
    map.set(odd, 'text')
    expect(map.get(odd)).toBe('text')
    expect(map.delete(odd)).toBe(true)
  })
})

describe('TrieNodeMap.walker', () => {
  it('answers a node the first time its key is met, null after, undefined for keys it does not hold', () => {
    const map = new TrieNodeMap()
    map.set(key(1), '0a')
    map.attachBase(base([[key(2), Uint8Array.of(2)]]))
    const walk = map.walker()
    const at = (n: number) => Buffer.concat([Buffer.alloc(3), Buffer.from(key(n), 'hex')])
    expect(walk(at(1), 3)).toEqual(Uint8Array.of(0x0a))
    expect(walk(at(1), 3)).toBeNull()
    expect(walk(at(2), 3)).toBeUndefined()
    expect(map.getHashed(at(2), 3)).toEqual(Uint8Array.of(2))
    expect(map.getHashed(at(3), 3)).toBeUndefined()
    // Another walk starts afresh.
    expect(map.walker()(at(1), 3)).toEqual(Uint8Array.of(0x0a))
  })
})
