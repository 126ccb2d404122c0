import type { MerkleStateManager } from '@ethereumjs/statemanager'

/** A cache's LRU map (lru-cache 11, as @ethereumjs/statemanager 10.1.x holds it), if it has one. */
type LruInternals = { _lruCache?: { readonly size: number; readonly max: number; keys(): IterableIterator<string>; delete(key: string): boolean; set(key: string, value: unknown): unknown } }
type CachesInternals = { _caches?: { account?: LruInternals; storage?: LruInternals; code?: LruInternals } }

/**
 * A key no cache is ever asked for (theirs are hex), left in a cache being emptied: lru-cache
 * clears the whole capacity when its last entry is deleted, so the last one never is.
 */
const KEEPER = 'l1sim:emptied'
const KEEPER_VALUE = Object.freeze({})

/**
 * `setStateRoot` with the caches emptied by what they hold. The stock call empties each LRU
 * cache with lru-cache's `clear`, which fills its key and value arrays over the whole capacity
 * (45,000 slots a revert for the chain's three caches) even when a few entries are in it, as
 * after a snapshot, one transaction and a revert. Same state, same empty caches afterwards.
 */
export async function setStateRootEmptyingCaches(stateManager: MerkleStateManager, stateRoot: Uint8Array): Promise<void> {
  await stateManager.setStateRoot(stateRoot, false)
  const caches = (stateManager as unknown as CachesInternals)._caches
  for (const cache of [caches?.account, caches?.storage, caches?.code]) {
    if (cache === undefined) continue
    const lru = cache._lruCache
    // Past an eighth of the capacity (or on a cache of another shape), the stock clear.
    if (lru === undefined || typeof lru.size !== 'number' || typeof lru.max !== 'number' || lru.size * 8 > lru.max) (cache as unknown as { clear(): void }).clear()
    else if (lru.size > 0) {
      lru.set(KEEPER, KEEPER_VALUE)
      for (const key of [...lru.keys()]) if (key !== KEEPER) lru.delete(key)
    }
  }
}
