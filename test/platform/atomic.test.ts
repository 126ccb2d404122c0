import { describe, expect, it } from 'vitest'
import { EMPTY_ID } from '../../src/core/ids.js'
import { NETWORK_PRESETS } from '../../src/network/presets.js'
import { SharedMemory, SharedMemoryError, type AtomicElement } from '../../src/platform/atomic.js'

const X = NETWORK_PRESETS.local.xChainId
const C = NETWORK_PRESETS.local.cChainId
const P = EMPTY_ID

const key = (n: number) => new Uint8Array(32).fill(n)
const addr = (n: number) => new Uint8Array(20).fill(n)
const elem = (n: number, ...owners: number[]): AtomicElement => ({ key: key(n), value: new Uint8Array([n, n]), traits: owners.map(addr) })

describe('SharedMemory', () => {
  it('keeps each direction separate: put by the exporter, get/remove by the importer', () => {
    const sm = new SharedMemory()
    sm.put(X, P, [elem(1, 1), elem(2, 1)])
    expect(sm.get(X, P, [key(1), key(2)])).toEqual([new Uint8Array([1, 1]), new Uint8Array([2, 2])])
    expect(() => sm.get(X, C, [key(1)])).toThrow('not found')
    expect(() => sm.get(P, X, [key(1)])).toThrow('not found')
    sm.remove(X, P, [key(1)])
    expect(sm.has(X, P, key(1))).toBe(false)
    expect(sm.has(X, P, key(2))).toBe(true)
    const err = (() => {
      try {
        sm.remove(X, P, [key(1)])
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(SharedMemoryError)
    expect((err as Error).message).toBe('not found')
  })

  it('refuses a duplicate put with the real message', () => {
    const sm = new SharedMemory()
    sm.put(X, P, [elem(1, 1)])
    expect(() => sm.put(X, P, [elem(1, 1)])).toThrow(`duplicate put: Key=0x${'01'.repeat(32)} Value=0x0101`)
  })

  it('apply is all-or-nothing', () => {
    const sm = new SharedMemory()
    sm.put(C, X, [elem(5, 1)])
    const before = sm.serialize()
    // X removes 5 (fine) and 6 (missing), puts 7: nothing must change
    expect(() =>
      sm.apply(X, new Map([[C, { removeRequests: [key(5), key(6)] }], [P, { putRequests: [elem(7, 2)] }]])),
    ).toThrow('not found')
    expect(sm.serialize()).toBe(before)
    expect(() => sm.apply(X, { [X]: { putRequests: [elem(8)] } })).toThrow('same chainID')
  })

  it('indexed: traits in byte order, newest first per trait, de-duplicated, resumable', () => {
    const sm = new SharedMemory()
    sm.put(X, P, [elem(1, 2), elem(2, 1, 2), elem(3, 1)])
    sm.put(X, P, [elem(4, 2)])
    const all = sm.indexed(X, P, [addr(2), addr(1)], new Uint8Array(), new Uint8Array(), 100)
    // trait 1: newest first → 3, 2; trait 2: 4, 2 (dup, skipped), 1
    expect(all.keys).toEqual([key(3), key(2), key(4), key(1)])
    expect(all.lastTrait).toEqual(addr(2))
    expect(all.lastKey).toEqual(key(1))
    const page = sm.indexed(X, P, [addr(1), addr(2)], new Uint8Array(), new Uint8Array(), 2)
    expect(page.keys).toEqual([key(3), key(2)])
    expect(page.lastTrait).toEqual(addr(1))
    expect(page.lastKey).toEqual(key(2))
    // the real iterator includes its start key, so a resumed page repeats the last element
    const next = sm.indexed(X, P, [addr(1), addr(2)], page.lastTrait, page.lastKey, 10)
    expect(next.keys).toEqual([key(2), key(4), key(1)])
    const none = sm.indexed(X, C, [addr(1)], new Uint8Array(), new Uint8Array(), 10)
    expect(none.values).toEqual([])
  })

  it('snapshot / restore / serialize are exact and independent', () => {
    const sm = new SharedMemory()
    sm.put(X, P, [elem(1, 1)])
    const snap = sm.snapshot()
    const text = sm.serialize()
    sm.put(X, P, [elem(2, 1)])
    sm.remove(X, P, [key(1)])
    expect(sm.serialize()).not.toBe(text)
    sm.restore(snap)
    expect(sm.serialize()).toBe(text)
    expect(sm.get(X, P, [key(1)])).toEqual([new Uint8Array([1, 1])])
    const other = new SharedMemory()
    other.restore(JSON.parse(JSON.stringify(snap)))
    expect(other.serialize()).toBe(text)
    expect(other.indexed(X, P, [addr(1)], new Uint8Array(), new Uint8Array(), 10).keys).toEqual([key(1)])
  })
})
