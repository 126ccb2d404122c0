/**
 * The one place that reaches into @ethereumjs/statemanager's internals (its caches' maps and
 * diff stacks, the checkpoint depth). Written against @ethereumjs/statemanager 10.1.x;
 * `assertInternals` checks at creation that the fields used here still exist, so an upgrade
 * that moves them fails loudly at start instead of caching wrong values.
 */
import { type AccountCache, CacheType, Caches, CODEHASH_PREFIX, type CodeCache, MerkleStateManager, type MerkleStateManagerOpts, type StorageCache } from '@ethereumjs/statemanager'
import { RLP } from '@ethereumjs/rlp'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Account, type Address, bytesToUnprefixedHex, concatBytes, createAccountFromRLP, createAddressFromString, equalsBytes, hexToBytes, unpadBytes, unprefixedHexToBytes } from '@ethereumjs/util'
import { StateTrie } from '../trie/stateTrie.js'
import { installedVersion } from './sealing.js'

/** What the caches keep per key: the account's RLP, the code, or an address's slot map. */
type CacheMaps<T> = {
  _lruCache?: { get(key: string): T | undefined; set(key: string, value: T): unknown }
  _orderedMapCache?: { getElementByKey(key: string): T | undefined; setElement(key: string, value: T): unknown }
  _diffCache: Map<string, unknown>[]
  _checkpoints: number
}
type AccountElement = { accountRLP: Uint8Array | undefined }
type CodeElement = { code: Uint8Array | undefined }

function maps<T>(cache: AccountCache | CodeCache | StorageCache): CacheMaps<T> {
  return cache as unknown as CacheMaps<T>
}

function assertInternals(caches: Caches): void {
  for (const cache of [caches.account, caches.code, caches.storage]) {
    const m = cache && maps(cache)
    if (!m || !Array.isArray(m._diffCache) || typeof m._checkpoints !== 'number' || (m._lruCache === undefined && m._orderedMapCache === undefined))
      throw new Error('@ethereumjs/statemanager caches changed shape: update src/evm/ethereumjsInternals.ts')
  }
}

function cacheGet<T>(m: CacheMaps<T>, key: string): T | undefined {
  return m._lruCache ? m._lruCache.get(key) : m._orderedMapCache!.getElementByKey(key)
}

/** Puts a value into a cache without a pre-state in its diff: neither flushed nor reverted. */
function cacheSetClean<T>(m: CacheMaps<T>, key: string, value: T): void {
  if (m._lruCache) m._lruCache.set(key, value)
  else m._orderedMapCache!.setElement(key, value)
}

/**
 * A MerkleStateManager whose caches keep what was read as clean. ethereumjs caches a value read
 * from the trie like a write: the read goes into the checkpoint's diff, so a revert forgets it
 * (each eth_call, itself a checkpoint and a revert, started with cold caches) and a flush writes
 * it back into the trie (every block re-put each account, code and slot its transactions read).
 * Here a read value goes into the cache with no diff entry, which is right only when it is the
 * value every checkpoint below holds too: the trie holds the last flushed state, so an account
 * read is, and a slot or code read is when the account's storage root or code hash is the one
 * it had below the first checkpoint (not cleared, replaced or recreated in a checkpoint). Any
 * other read, and every read while a flush inside a checkpoint left the trie ahead of the base
 * state, is cached as ethereumjs caches it.
 */
export class CleanReadStateManager extends MerkleStateManager {
  #caches: Caches
  /** A flush ran inside a checkpoint: the trie holds state a revert can undo. */
  #trieAhead = false

  constructor(opts: MerkleStateManagerOpts & { caches: Caches }) {
    super(opts)
    assertInternals(opts.caches)
    this.#caches = opts.caches
  }

  get #depth(): number {
    return this._checkpointCount
  }

  /** The account as it is below the first checkpoint, if the caches know it; `null` if unknown. */
  #baseAccount(addressHex: string, current: Account): Account | undefined | null {
    const diffs = maps<AccountElement>(this.#caches.account!)._diffCache
    for (let level = 1; level < diffs.length; level++) {
      const diff = diffs[level]!
      if (!diff.has(addressHex)) continue
      const before = diff.get(addressHex) as AccountElement | undefined
      if (before === undefined) return null
      return before.accountRLP === undefined ? undefined : createAccountFromRLP(before.accountRLP)
    }
    return current
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const cache = maps<AccountElement>(this.#caches.account!)
    const addressHex = bytesToUnprefixedHex(address.bytes)
    const elem = cacheGet(cache, addressHex)
    if (elem !== undefined) return elem.accountRLP !== undefined ? this.#accountOf(elem.accountRLP) : undefined
    const rlp = await this._trie.get(address.bytes)
    const account = rlp !== null ? this.#accountOf(rlp) : undefined
    if (this.#trieAhead) this.#caches.account!.put(address, account)
    else cacheSetClean(cache, addressHex, { accountRLP: rlp ?? undefined })
    return account
  }

  /**
   * Each cached account's fields, decoded once per encoding the cache holds: a transaction
   * reads its sender, recipient and the coinbase some twenty times, and ethereumjs decoded the
   * account's RLP on each read. Keyed by the encoding's object (the cache makes a new one per
   * write), so an entry goes with it.
   */
  readonly #decoded = new WeakMap<Uint8Array, Account>()

  /** A fresh `Account` (callers change and keep theirs) with the fields `rlp` encodes. */
  #accountOf(rlp: Uint8Array): Account {
    let fields = this.#decoded.get(rlp)
    if (fields === undefined) {
      fields = createAccountFromRLP(rlp)
      this.#decoded.set(rlp, fields)
    }
    return new Account(fields.nonce, fields.balance, fields.storageRoot, fields.codeHash)
  }

  /** ethereumjs' `putAccount`; the encoding it caches is known decoded (the account's fields as put). */
  override async putAccount(address: Address, account: Account | undefined): Promise<void> {
    await super.putAccount(address, account)
    if (account === undefined) return
    const rlp = cacheGet(maps<AccountElement>(this.#caches.account!), bytesToUnprefixedHex(address.bytes))?.accountRLP
    if (rlp !== undefined) this.#decoded.set(rlp, new Account(account.nonce, account.balance, account.storageRoot, account.codeHash))
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const cache = maps<CodeElement>(this.#caches.code!)
    const addressHex = bytesToUnprefixedHex(address.bytes)
    const elem = cacheGet(cache, addressHex)
    if (elem !== undefined) return elem.code ?? new Uint8Array(0)
    const account = await this.getAccount(address)
    if (!account || !account.isContract()) return new Uint8Array(0)
    const recorded = cache._diffCache[cache._checkpoints]!.has(addressHex)
    const code = await super.getCode(address)
    // super cached it as a change: take that back when the code hash is the base state's.
    if (!recorded && !this.#trieAhead) {
      const base = this.#depth > 0 ? this.#baseAccount(addressHex, account) : account
      if (base && equalsBytes(base.codeHash, account.codeHash)) cache._diffCache[cache._checkpoints]!.delete(addressHex)
    }
    return code
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const cache = maps<Map<string, Uint8Array>>(this.#caches.storage!)
    const addressHex = bytesToUnprefixedHex(address.bytes)
    const keyHex = bytesToUnprefixedHex(key)
    const cached = cacheGet(cache, addressHex)?.get(keyHex)
    // A cached slot: what ethereumjs' getStorage returns for it, without looking it up again.
    if (cached !== undefined && key.length === 32) return RLP.decode(cached) as Uint8Array
    if (key.length !== 32) return super.getStorage(address, key)
    const account = await this.getAccount(address)
    if (!account) return new Uint8Array()
    let clean = !this.#trieAhead
    if (clean && this.#depth > 0) {
      const base = this.#baseAccount(addressHex, account)
      clean = !!base && equalsBytes(base.storageRoot, this._getStorageTrie(address, account).root())
    }
    if (!clean) return super.getStorage(address, key)
    const value = (await this._getStorageTrie(address, account).get(key)) ?? EMPTY_SLOT
    let slots = cacheGet(cache, addressHex)
    if (!slots) cacheSetClean(cache, addressHex, (slots = new Map()))
    slots.set(keyHex, value)
    return RLP.decode(value) as Uint8Array
  }

  /**
   * Inside a checkpoint (a block's transactions, an eth_call), a slot written goes into the
   * storage cache only, as ethereumjs means it to: its `putStorage` writes the cache and then,
   * because the cache's `put` returns nothing, the storage trie too, re-hashing the storage root
   * and re-encoding the account on every SSTORE, for a trie the last commit's flush writes
   * again (and a revert throws away). Outside checkpoints (cheat codes, genesis) it still
   * writes through, so the account's storage root moves at once as before. Same checks, same
   * cached value; the flush writes the same slots.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (this.#depth === 0 || key.length !== 32 || value.length > 32) return super.putStorage(address, key, value)
    if ((await this.getAccount(address)) === undefined) return super.putStorage(address, key, value)
    this.#caches.storage!.put(address, key, RLP.encode(unpadBytes(value)))
  }

  /**
   * ethereumjs' flush (code, then slots, then accounts: the same writes in the same order), with
   * an account's slots written to its storage trie together and its storage root hashed once,
   * where ethereumjs hashed the root and re-encoded the account after every slot.
   */
  override async flush(): Promise<void> {
    if (this.#depth > 0) this.#trieAhead = true
    for (const [addressHex, element] of this.#caches.code!.flush()) {
      const code = element.code
      if (code === undefined) continue
      const address = createAddressFromString(`0x${addressHex}`)
      const codeHash = (this as unknown as { keccakFunction(data: Uint8Array): Uint8Array }).keccakFunction(code)
      await this._getCodeDB().put(this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, code)
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account())
      await this.modifyAccountFields(address, { codeHash })
    }
    const slots = this.#caches.storage!.flush()
    for (let i = 0; i < slots.length; ) {
      const addressHex = slots[i]![0]
      let end = i + 1
      while (end < slots.length && slots[end]![0] === addressHex) end++
      const address = createAddressFromString(`0x${addressHex}`)
      const account = await this.getAccount(address)
      if (account !== undefined) {
        const trie = this._getStorageTrie(address, account)
        for (let j = i; j < end; j++) {
          const [, keyHex, stored] = slots[j]!
          const value = RLP.decode(stored ?? new Uint8Array(0)) as Uint8Array
          if (value.length > 0) await trie.put(unprefixedHexToBytes(keyHex), RLP.encode(value))
          else await trie.del(unprefixedHexToBytes(keyHex))
        }
        account.storageRoot = trie.root()
        await this.putAccount(address, account)
      }
      i = end
    }
    for (const [addressHex, element] of this.#caches.account!.flush()) {
      if (element.accountRLP === undefined) await this._trie.del(unprefixedHexToBytes(addressHex))
      else await this._trie.put(unprefixedHexToBytes(addressHex), element.accountRLP)
    }
  }

  override async commit(): Promise<void> {
    await super.commit()
    if (this.#depth === 0) this.#trieAhead = false
  }

  override async revert(): Promise<void> {
    await super.revert()
    if (this.#depth === 0) this.#trieAhead = false
  }

  override async setStateRoot(stateRoot: Uint8Array, clearCache?: boolean): Promise<void> {
    await super.setStateRoot(stateRoot, clearCache)
    if (this.#depth === 0) this.#trieAhead = false
  }
}

const EMPTY_SLOT = hexToBytes('0x80')

/**
 * The `@ethereumjs/statemanager` whose use of its trie {@link StateTrie} provides: get, put, del,
 * `root`, checkpoints, `checkRoot`, `database()`, `shallowCopy(false, { keyPrefix | cacheSize })`
 * with `_opts.cacheSize`, `flushCheckpoints`, `appliedKey`, and `findPath` for its proofs.
 */
export const CHECKED_STATEMANAGER_VERSION = '10.1.3'
const STATEMANAGER_VERSION = installedVersion('@ethereumjs/statemanager')

/**
 * The chain's state manager: LRU caches in front of the trie that keep reads as clean, over
 * l1sim's {@link StateTrie} when the installed state manager is the one it was checked against
 * (else over ethereumjs' own trie: slower, same state).
 */
export function createStateManager(opts: MerkleStateManagerOpts, sizes: { account: number; storage: number; code: number }): MerkleStateManager {
  const lru = (size: number) => ({ type: CacheType.LRU, size })
  const caches = new Caches({ account: lru(sizes.account), storage: lru(sizes.storage), code: lru(sizes.code) })
  const trie = opts.trie ?? (STATEMANAGER_VERSION === CHECKED_STATEMANAGER_VERSION ? (new StateTrie({ useKeyHashing: true, common: opts.common }) as unknown as MerklePatriciaTrie) : undefined)
  return new CleanReadStateManager({ ...opts, caches, ...(trie ? { trie } : {}) })
}
