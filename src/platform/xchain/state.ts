import { bytesToHex, hexToBytes, type Hex } from '../../core/hex.js'
import { idToString } from '../../core/ids.js'
import type { Id, ShortId, Utxo, XChainSignedTx } from '../txs.js'
import { hexKey } from './bytes.js'

/**
 * The X-chain's state: the UTXO set with an address index, the spent/exported history of every
 * UTXO the chain has seen, the assets, the accepted txs and the blocks. Plain data in Maps;
 * {@link XState.snapshot} / {@link XState.restore} share it copy-on-write and
 * {@link XState.serialize} writes it deterministically (equal states give equal strings).
 */

export type UtxoOrigin = {
  /** cb58 chain id the UTXO was created on. */
  chainId: string
  /** cb58 id of the creating tx (the asset id for genesis UTXOs). */
  txId: string
  /** Block height on that chain; `null` when not known (a UTXO imported from another chain). */
  height: number | null
  timestamp: number | null
}

export type UtxoConsumption = {
  /** cb58 chain id of the chain whose tx consumed it. */
  chainId: string
  txId: string
  height: number
  timestamp: number
}

export type UtxoEntry = {
  utxo: Utxo
  /** cb58 `InputID()`: the UTXO's key in state and shared memory. */
  utxoId: string
  created: UtxoOrigin
  /** Set once consumed by a tx on this chain, or (for exports) never: see `exportedTo`. */
  consumed?: UtxoConsumption
  /** cb58 chain id this UTXO was exported to (it lived in shared memory, never in this chain's set). */
  exportedTo?: string
  /** cb58 chain id this UTXO was imported from (it was consumed by the import). */
  importedFrom?: string
  /** Insertion order, for the newest-first address index (linkeddb order). */
  seq: number
}

export type AssetRecord = {
  assetId: string
  name: string
  symbol: string
  denomination: number
  /** Fx indices of the CreateAssetTx's initial states (0 = secp256k1fx). */
  fxIndices: number[]
  /** Height of the block that created it (0 for genesis assets). */
  height: number
}

export type StoredTx = {
  txId: string
  tx: XChainSignedTx
  bytes: Uint8Array
  blockId: string
  height: number
  timestamp: number
}

export type XBlock = {
  id: string
  parentId: string
  height: number
  /** Unix seconds. */
  timestamp: number
  txIds: string[]
  bytes: Uint8Array
}

type Data = {
  seq: number
  /** live UTXOs, key = input id hex */
  utxos: Map<Hex, UtxoEntry>
  /** consumed / exported / imported UTXOs, key = input id hex */
  history: Map<Hex, UtxoEntry>
  /** address hex → input id hex → seq */
  byAddress: Map<Hex, Map<Hex, number>>
  assets: Map<string, AssetRecord>
  /** upper-case symbol / alias → asset id (cb58), e.g. AVAX */
  aliases: Map<string, string>
  txs: Map<string, StoredTx>
  blocks: XBlock[]
  blocksById: Map<string, number>
}

export type XStateSnapshot = { readonly data: Data }

/** The containers of {@link Data} a snapshot shares with the live state until the next write to each. */
type Container = Exclude<keyof Data, 'seq'>
const CONTAINERS: readonly Container[] = ['utxos', 'history', 'byAddress', 'assets', 'aliases', 'txs', 'blocks', 'blocksById']

function emptyData(): Data {
  return {
    seq: 0,
    utxos: new Map(),
    history: new Map(),
    byAddress: new Map(),
    assets: new Map(),
    aliases: new Map(),
    txs: new Map(),
    blocks: [],
    blocksById: new Map(),
  }
}

export class XState {
  #d: Data = emptyData()
  /**
   * Containers the live state shares with a snapshot: a snapshot (and a restore) costs a shallow
   * copy of the record, and the first write to a shared container copies that container alone
   * (a shallow copy: entries are immutable values, replaced, never changed in place). Per-address
   * lists of `byAddress` are copied on their own first write, see {@link #ownedLists}.
   */
  #shared = new Set<Container>()
  /** The `byAddress` lists made or copied since the last snapshot or restore (the others may be shared). */
  #ownedLists = new WeakSet<Map<Hex, number>>()

  /** The live container `k`, copied first when a snapshot shares it. */
  #own<K extends Container>(k: K): Data[K] {
    if (this.#shared.delete(k)) {
      const c = this.#d[k]
      this.#d[k] = (Array.isArray(c) ? c.slice() : new Map(c as Map<unknown, unknown>)) as Data[K]
    }
    return this.#d[k]
  }

  /** The live `byAddress` list of an address, created or copied (when shared with a snapshot) for a write. */
  #ownList(a: Hex): Map<Hex, number> {
    const byAddress = this.#own('byAddress')
    let list = byAddress.get(a)
    if (list && this.#ownedLists.has(list)) return list
    list = new Map(list)
    this.#ownedLists.add(list)
    byAddress.set(a, list)
    return list
  }

  // --- UTXOs ---

  getUtxo(key: Uint8Array | Hex): UtxoEntry | undefined {
    return this.#d.utxos.get(typeof key === 'string' ? key : hexKey(key))
  }

  /** Any UTXO this chain knows, live or historical. */
  findUtxo(key: Uint8Array | Hex): UtxoEntry | undefined {
    const k = typeof key === 'string' ? key : hexKey(key)
    return this.#d.utxos.get(k) ?? this.#d.history.get(k)
  }

  addUtxo(key: Uint8Array, utxo: Utxo, created: UtxoOrigin): void {
    const k = hexKey(key)
    const seq = ++this.#d.seq
    this.#own('utxos').set(k, { utxo, utxoId: idToString(key), created, seq })
    for (const addr of ownerAddrs(utxo)) this.#ownList(hexKey(addr)).set(k, seq)
  }

  consumeUtxo(key: Uint8Array, consumed: UtxoConsumption): void {
    const k = hexKey(key)
    const entry = this.#d.utxos.get(k)
    if (!entry) throw new Error(`state corruption: consuming missing UTXO ${k}`)
    this.#own('utxos').delete(k)
    for (const addr of ownerAddrs(entry.utxo)) {
      const a = hexKey(addr)
      if (!this.#d.byAddress.has(a)) continue
      const list = this.#ownList(a)
      list.delete(k)
      if (list.size === 0) this.#own('byAddress').delete(a)
    }
    this.#own('history').set(k, { ...entry, consumed })
  }

  /** Records a UTXO that left through shared memory (exported) or arrived and was spent (imported). */
  recordHistory(key: Uint8Array, entry: Omit<UtxoEntry, 'seq' | 'utxoId'>): void {
    this.#own('history').set(hexKey(key), { ...entry, utxoId: idToString(key), seq: ++this.#d.seq })
  }

  /** Live UTXO ids (hex) owned by `addr`, newest first (the real linkeddb index order). */
  utxoKeysOf(addr: ShortId): Hex[] {
    const list = this.#d.byAddress.get(hexKey(addr))
    if (!list) return []
    return [...list.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k)
  }

  allUtxos(): UtxoEntry[] {
    return [...this.#d.utxos.values()].sort((a, b) => a.seq - b.seq)
  }

  history(): UtxoEntry[] {
    return [...this.#d.history.values()].sort((a, b) => a.seq - b.seq)
  }

  // --- assets ---

  addAsset(asset: AssetRecord): void {
    this.#own('assets').set(asset.assetId, asset)
  }

  getAsset(assetId: string): AssetRecord | undefined {
    return this.#d.assets.get(assetId)
  }

  assets(): AssetRecord[] {
    return [...this.#d.assets.values()]
  }

  setAlias(alias: string, assetId: string): void {
    this.#own('aliases').set(alias, assetId)
  }

  resolveAlias(alias: string): string | undefined {
    return this.#d.aliases.get(alias)
  }

  // --- txs and blocks ---

  addTx(tx: StoredTx): void {
    this.#own('txs').set(tx.txId, tx)
  }

  getTx(txId: string): StoredTx | undefined {
    return this.#d.txs.get(txId)
  }

  addBlock(block: XBlock): void {
    if (block.height !== this.#d.blocks.length)
      throw new Error(`state corruption: block height ${block.height} after ${this.#d.blocks.length} blocks`)
    this.#own('blocks').push(block)
    this.#own('blocksById').set(block.id, block.height)
  }

  lastBlock(): XBlock | undefined {
    return this.#d.blocks[this.#d.blocks.length - 1]
  }

  getBlockByHeight(height: number): XBlock | undefined {
    return this.#d.blocks[height]
  }

  getBlock(id: string): XBlock | undefined {
    const h = this.#d.blocksById.get(id)
    return h === undefined ? undefined : this.#d.blocks[h]
  }

  get height(): number {
    return this.#d.blocks.length - 1
  }

  // --- snapshots ---

  /** The state as it is now, sharing every container with the live state (copy-on-write): read-only. */
  snapshot(): XStateSnapshot {
    this.#shareAll()
    return { data: { ...this.#d } }
  }

  /** Back to a snapshot's state; its containers stay shared with it (the snapshot may be restored again). */
  restore(snapshot: XStateSnapshot): void {
    this.#d = { ...snapshot.data }
    this.#shareAll()
  }

  #shareAll(): void {
    this.#shared = new Set(CONTAINERS)
    this.#ownedLists = new WeakSet()
  }

  /** Deterministic JSON: maps as key-sorted arrays, bigint as decimal strings, bytes as hex. */
  serialize(): string {
    const d = this.#d
    const sorted = <V>(m: Map<string, V>) => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    return JSON.stringify(
      {
        seq: d.seq,
        utxos: sorted(d.utxos),
        history: sorted(d.history),
        byAddress: sorted(d.byAddress).map(([a, m]) => [a, sorted(m)]),
        assets: sorted(d.assets),
        aliases: sorted(d.aliases),
        txs: sorted(d.txs),
        blocks: d.blocks,
      },
      jsonReplacer,
    )
  }
}

/** JSON replacer: bigint → decimal string, Uint8Array → 0x hex. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return bytesToHex(value)
  return value
}

function ownerAddrs(utxo: Utxo): ShortId[] {
  const out = utxo.output
  return out.type === 'StakeableLockOut' ? out.output.owners.addrs : out.owners.addrs
}

/** `0x…` → bytes; kept here so state users need not import hex helpers. */
export const keyBytes = (k: Hex): Uint8Array => hexToBytes(k)

export type { Id }
