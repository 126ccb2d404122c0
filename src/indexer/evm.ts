import { bytesToHex } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import type { ChainEvents, StoredBlock } from '../evm/types.js'
import { decodeTeleporterLog, decodeTeleporterOutcome, type TeleporterEvent, type TeleporterOutcome } from './teleporter.js'

/**
 * The EVM indexer: a pure function of one chain's history. It consumes stored blocks in order,
 * appends compact records to indexes keyed for each query, drops what lies above a height when the
 * chain truncates, and rebuilds from blocks. It knows chain events, not the network.
 *
 * Every list is ordered by a position key (block number, then the transaction or log index in the
 * block); a page's cursor is the position of its last item, and the next page starts strictly
 * below it, so blocks appended later never shift pages already handed out.
 */

/** Keccak-256 of `Transfer(address,address,uint256)` (ERC-20 with 3 topics, ERC-721 with 4). */
export const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** Keccak-256 of `TransferSingle(address,address,address,uint256,uint256)`. */
export const TRANSFER_SINGLE_TOPIC: Hex = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
/** Keccak-256 of `TransferBatch(address,address,address,uint256[],uint256[])`. */
export const TRANSFER_BATCH_TOPIC: Hex = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'

const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000'

/** Positions: block number × 2^21 + index in the block (exact in a double for blocks below 2^32). */
const INDEX_BITS = 2 ** 21
const position = (block: number, index: number): number => block * INDEX_BITS + index
const blockOf = (pos: number): number => Math.floor(pos / INDEX_BITS)

export class InvalidCursorError extends Error {
  constructor(cursor: string) {
    super(`invalid cursor: ${cursor}`)
    this.name = 'InvalidCursorError'
  }
}

/**
 * A well-formed cursor whose block is no longer in the chain as it was (a revert dropped it, and
 * perhaps other blocks took its height): continuing would mix two histories.
 */
export class StaleCursorError extends InvalidCursorError {
  constructor(cursor: string) {
    super(cursor)
    this.name = 'StaleCursorError'
  }
}

export type BlockRecord = {
  number: number
  hash: Hex
  parentHash: Hex
  timestamp: number
  miner: Hex
  gasUsed: bigint
  gasLimit: bigint
  baseFeePerGas: bigint
  txCount: number
}

export type TxRecord = {
  blockNumber: number
  blockHash: Hex
  timestamp: number
  index: number
  hash: Hex
  /** The EIP-2718 type (0 legacy, 1 access list, 2 dynamic fee). */
  type: number
  from: Hex
  /** Null for a contract creation. */
  to: Hex | null
  nonce: bigint
  value: bigint
  gasLimit: bigint
  gasUsed: bigint
  effectiveGasPrice: bigint
  status: 0 | 1
  /** The 4-byte selector of a call with at least 4 bytes of input, else null (plain transfers, creations). */
  methodId: Hex | null
  /** The contract a creation made, else null. */
  contractAddress: Hex | null
}

type TransferBase = {
  blockNumber: number
  blockHash: Hex
  timestamp: number
  txHash: Hex
  txIndex: number
  logIndex: number
  /** The token contract (the log's address). */
  token: Hex
  from: Hex
  to: Hex
}
export type Erc20Transfer = TransferBase & { value: bigint }
export type Erc721Transfer = TransferBase & { tokenId: bigint }
export type Erc1155Transfer = TransferBase & {
  kind: 'single' | 'batch'
  operator: Hex
  /** One id and one value for `TransferSingle`; the arrays of `TransferBatch`. */
  ids: bigint[]
  values: bigint[]
}

export type DeploymentRecord = {
  blockNumber: number
  blockHash: Hex
  timestamp: number
  txHash: Hex
  txIndex: number
  deployer: Hex
  address: Hex
  status: 0 | 1
}

type LogPlace = { blockNumber: number; blockHash: Hex; timestamp: number; txHash: Hex; txIndex: number; logIndex: number }
/** A Teleporter message sent or received in a transaction (see `teleporter.ts`). */
export type TeleporterRecord = TeleporterEvent & LogPlace
/** A Teleporter message's execution or returned receipt, where it was logged. */
export type TeleporterOutcomeRecord = TeleporterOutcome & LogPlace

export type Erc1155Balance = { token: Hex; tokenId: bigint; balance: bigint }

export type ListQuery = {
  /** Restricts to one address (meaning per list: a party, a token or a deployer). */
  address?: string
  /** Inclusive lower block bound. */
  startBlock?: number | bigint
  /** Exclusive upper block bound. */
  endBlock?: number | bigint
  /** The `nextCursor` of the previous page of the same query. */
  cursor?: string
  pageSize: number
}
export type Page<T> = { items: T[]; nextCursor?: string }

/** A growable array of doubles (position keys) or of 32-bit record numbers. */
class Grow<A extends Float64Array | Uint32Array> {
  length = 0
  constructor(
    public data: A,
    private readonly make: (n: number) => A,
  ) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(Math.max(16, this.data.length * 2))
      next.set(this.data)
      this.data = next
    }
    this.data[this.length++] = v
  }
}
const positions = () => new Grow(new Float64Array(0), (n) => new Float64Array(n))
const refs = () => new Grow(new Uint32Array(0), (n) => new Uint32Array(n))

/**
 * Records in position order, with secondary lists (by address, by token…) holding record numbers.
 * Everything is appended in order, so truncation pops from the ends.
 */
class Series<T> {
  readonly items: T[] = []
  readonly keys = positions()
  readonly #lists = new Map<string, Grow<Uint32Array>>()

  /** `hashOf(n)`: the indexed hash of block n; cursors carry it, so a cursor outlives no revert. */
  constructor(private readonly hashOf: (block: number) => Hex | undefined) {}

  append(pos: number, item: T, listKeys: Iterable<string>): void {
    const n = this.items.length
    this.items.push(item)
    this.keys.push(pos)
    for (const k of new Set(listKeys)) {
      let list = this.#lists.get(k)
      if (!list) this.#lists.set(k, (list = refs()))
      list.push(n)
    }
  }

  /** Drops the records with a block above `height`; `listKeys` names the lists each was put in. */
  truncate(height: number, listKeys: (item: T) => Iterable<string>, onDrop?: (item: T) => void): void {
    const limit = position(height + 1, 0)
    while (this.items.length > 0 && this.keys.data[this.keys.length - 1]! >= limit) {
      const item = this.items.pop()!
      this.keys.length--
      for (const k of new Set(listKeys(item))) {
        const list = this.#lists.get(k)!
        list.length--
        if (list.length === 0) this.#lists.delete(k)
      }
      onDrop?.(item)
    }
  }

  /** The records of `list` (or all) with keys in [lower, upper), newest first or oldest first. */
  *walk(list: string | undefined, desc: boolean, lower: number, upper: number): Generator<T> {
    const keys = this.keys.data
    let refsList: Uint32Array | undefined
    let length = this.items.length
    if (list !== undefined) {
      const l = this.#lists.get(list)
      if (!l) return
      refsList = l.data
      length = l.length
    }
    const keyAt = refsList ? (i: number) => keys[refsList[i]!]! : (i: number) => keys[i]!
    const firstAtLeast = (bound: number) => {
      let lo = 0
      let hi = length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (keyAt(mid) < bound) lo = mid + 1
        else hi = mid
      }
      return lo
    }
    const from = firstAtLeast(lower)
    const to = firstAtLeast(upper)
    if (desc) for (let i = to - 1; i >= from; i--) yield this.items[refsList ? refsList[i]! : i]!
    else for (let i = from; i < to; i++) yield this.items[refsList ? refsList[i]! : i]!
  }

  /** Newest first, below the cursor, within [startBlock, endBlock). */
  page(list: string | undefined, query: ListQuery): Page<T> {
    const pageSize = Math.max(1, Math.floor(query.pageSize))
    const keys = this.keys.data
    let refsList: Uint32Array | undefined
    let length: number
    if (list === undefined) length = this.items.length
    else {
      const l = this.#lists.get(list)
      if (!l) return { items: [] }
      refsList = l.data
      length = l.length
    }
    const keyAt = refsList ? (i: number) => keys[refsList[i]!]! : (i: number) => keys[i]!
    let upper = Infinity
    if (query.endBlock !== undefined) upper = position(Number(query.endBlock), 0)
    if (query.cursor !== undefined) upper = Math.min(upper, parseCursor(query.cursor, this.hashOf))
    const lower = query.startBlock !== undefined ? position(Number(query.startBlock), 0) : -Infinity
    // First index whose key is >= upper: the page starts just before it.
    let lo = 0
    let hi = length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (keyAt(mid) < upper) lo = mid + 1
      else hi = mid
    }
    const items: T[] = []
    let i = lo - 1
    for (; i >= 0 && items.length < pageSize; i--) {
      if (keyAt(i) < lower) return { items }
      items.push(this.items[refsList ? refsList[i]! : i]!)
    }
    if (i >= 0 && keyAt(i) >= lower) return { items, nextCursor: formatCursor(keyAt(i + 1), this.hashOf) }
    return { items }
  }
}

/** A cursor: `block.index.anchor`, the anchor being the first 8 bytes of the block's hash (hex). */
const ANCHOR_CHARS = 16
function formatCursor(pos: number, hashOf: (block: number) => Hex | undefined): string {
  const block = blockOf(pos)
  return `${block}.${pos - block * INDEX_BITS}.${(hashOf(block) ?? '0x').slice(2, 2 + ANCHOR_CHARS)}`
}
function parseCursor(cursor: string, hashOf: (block: number) => Hex | undefined): number {
  const m = /^(0|[1-9][0-9]{0,9})\.(0|[1-9][0-9]{0,6})\.([0-9a-f]{16})$/.exec(cursor)
  if (!m) throw new InvalidCursorError(cursor)
  const block = Number(m[1])
  const index = Number(m[2])
  if (block >= 2 ** 32 || index >= INDEX_BITS) throw new InvalidCursorError(cursor)
  if (hashOf(block)?.slice(2, 2 + ANCHOR_CHARS) !== m[3]) throw new StaleCursorError(cursor)
  return position(block, index)
}

const lower = (h: string): Hex => h.toLowerCase() as Hex
const topicAddress = (topic: Hex): Hex => `0x${topic.slice(26).toLowerCase()}` as Hex
const word = (data: Hex, i: number): bigint => {
  const w = data.slice(2 + i * 64, 2 + (i + 1) * 64)
  if (w.length !== 64) throw new RangeError('short data')
  return BigInt(`0x${w}`)
}
function wordArray(data: Hex, offsetWord: number): bigint[] {
  const offset = word(data, offsetWord)
  if (offset % 32n !== 0n || offset > BigInt(data.length)) throw new RangeError('bad offset')
  const at = Number(offset / 32n)
  const n = word(data, at)
  if (n > BigInt(data.length)) throw new RangeError('bad length')
  return Array.from({ length: Number(n) }, (_, i) => word(data, at + 1 + i))
}

const balanceKey = (holder: Hex, token: Hex, id: bigint) => `${holder}|${token}|${id.toString(16)}`
type BalanceHistory = { holder: Hex; token: Hex; id: bigint; keys: number[]; balances: bigint[] }

/** A generator's values through `f`, as a bare iterator. */
function mapWalk<T>(walk: Generator<T>, f: (item: T) => number): { next: () => IteratorResult<number> } {
  return {
    next: () => {
      const r = walk.next()
      return r.done ? r : { done: false, value: f(r.value) }
    },
  }
}

export type EvmIndexer = ReturnType<typeof createEvmIndexer>

export function createEvmIndexer(options: { chainId: bigint | number }) {
  const chainId = BigInt(options.chainId)
  let height = -1
  const hashOf = (n: number): Hex | undefined => (n <= height ? blocks.items[n]?.hash : undefined)
  const blocks: Series<BlockRecord> = new Series<BlockRecord>(hashOf)
  /** Record number of each block's first transaction: transactions by block are a slice. */
  const firstTx = refs()
  const blockByHash = new Map<Hex, number>()
  const txs = new Series<TxRecord>(hashOf)
  const txByHash = new Map<Hex, number>()
  const erc20 = new Series<Erc20Transfer>(hashOf)
  const erc721 = new Series<Erc721Transfer>(hashOf)
  const erc1155 = new Series<Erc1155Transfer>(hashOf)
  const deployments = new Series<DeploymentRecord>(hashOf)
  const deploymentByAddress = new Map<Hex, number>()
  const teleporter = new Series<TeleporterRecord>(hashOf)
  const teleporterOutcomes = new Series<TeleporterOutcomeRecord>(hashOf)
  const balances = new Map<string, BalanceHistory>()
  /** Holder → the balance keys they ever held, for the per-address balance query. */
  const holdings = new Map<Hex, Set<string>>()

  const txLists = (t: TxRecord) => (t.to ? [t.from, t.to] : [t.from])
  const transferLists = (t: TransferBase) => [`a:${t.from}`, `a:${t.to}`, `t:${t.token}`]
  const deploymentLists = (d: DeploymentRecord) => [d.deployer]
  const teleporterLists = (m: TeleporterRecord) => [m.txHash, `m:${m.messageId}`]
  const outcomeLists = (m: TeleporterOutcomeRecord) => [`m:${m.messageId}`]

  function moveBalance(pos: number, holder: Hex, token: Hex, id: bigint, delta: bigint): void {
    if (holder === ZERO_ADDRESS) return
    const key = balanceKey(holder, token, id)
    let h = balances.get(key)
    if (!h) {
      balances.set(key, (h = { holder, token, id, keys: [], balances: [] }))
      let set = holdings.get(holder)
      if (!set) holdings.set(holder, (set = new Set()))
      set.add(key)
    }
    const prev = h.balances.length > 0 ? h.balances[h.balances.length - 1]! : 0n
    h.keys.push(pos)
    h.balances.push(prev + delta)
  }
  function unmoveBalance(holder: Hex, token: Hex, id: bigint): void {
    if (holder === ZERO_ADDRESS) return
    const key = balanceKey(holder, token, id)
    const h = balances.get(key)!
    h.keys.pop()
    h.balances.pop()
    if (h.keys.length === 0) {
      balances.delete(key)
      const set = holdings.get(holder)!
      set.delete(key)
      if (set.size === 0) holdings.delete(holder)
    }
  }
  function apply1155(t: Erc1155Transfer, sign: 1 | -1): void {
    const pos = position(t.blockNumber, t.logIndex)
    // Undo in the reverse order of doing, so each history pops its own last entry.
    const order = t.ids.map((_, i) => i)
    if (sign < 0) order.reverse()
    for (const i of order) {
      const id = t.ids[i]!
      const v = t.values[i]!
      if (sign > 0) {
        moveBalance(pos, t.from, t.token, id, -v)
        moveBalance(pos, t.to, t.token, id, v)
      } else {
        unmoveBalance(t.to, t.token, id)
        unmoveBalance(t.from, t.token, id)
      }
    }
  }

  function truncate(to: number | bigint): void {
    const h = Number(to)
    if (h >= height) return
    blocks.truncate(h, () => [], (b) => blockByHash.delete(b.hash))
    firstTx.length = Math.min(firstTx.length, Math.max(0, h + 1))
    txs.truncate(h, txLists, (t) => txByHash.delete(t.hash))
    erc20.truncate(h, transferLists)
    erc721.truncate(h, transferLists)
    erc1155.truncate(h, transferLists, (t) => apply1155(t, -1))
    deployments.truncate(h, deploymentLists, (d) => deploymentByAddress.delete(d.address))
    teleporter.truncate(h, teleporterLists)
    teleporterOutcomes.truncate(h, outcomeLists)
    height = Math.max(-1, h)
  }

  function onBlock(stored: StoredBlock): void {
    const number = Number(stored.number)
    // A block at or below the head replaces what was there (a reorg without a truncate event).
    if (number <= height) truncate(number - 1)
    if (number !== height + 1) throw new Error(`indexer at height ${height} got block ${number}`)
    const header = stored.block.header
    const timestamp = Number(header.timestamp)
    blocks.append(position(number, 0), {
      number,
      hash: stored.hash,
      parentHash: bytesToHex(header.parentHash) as Hex,
      timestamp,
      miner: lower(header.coinbase.toString()),
      gasUsed: header.gasUsed,
      gasLimit: header.gasLimit,
      baseFeePerGas: header.baseFeePerGas ?? 0n,
      txCount: stored.txs.length,
    }, [])
    blockByHash.set(stored.hash, number)
    firstTx.push(txs.items.length)
    for (const mined of stored.txs) {
      const { tx, receipt } = mined
      const to = tx.to ? lower(tx.to.toString()) : null
      const input = tx.data
      const record: TxRecord = {
        blockNumber: number,
        blockHash: stored.hash,
        timestamp,
        index: mined.index,
        hash: mined.hash,
        type: tx.type,
        from: lower(mined.from),
        to,
        nonce: tx.nonce,
        value: tx.value,
        gasLimit: tx.gasLimit,
        gasUsed: receipt.gasUsed,
        effectiveGasPrice: receipt.effectiveGasPrice,
        status: receipt.status,
        methodId: to !== null && input.length >= 4 ? (bytesToHex(input.subarray(0, 4)) as Hex) : null,
        contractAddress: receipt.contractAddress ? lower(receipt.contractAddress) : null,
      }
      txByHash.set(record.hash, txs.items.length)
      txs.append(position(number, mined.index), record, txLists(record))
      if (record.contractAddress && to === null && receipt.status === 1) {
        const d: DeploymentRecord = {
          blockNumber: number,
          blockHash: stored.hash,
          timestamp,
          txHash: record.hash,
          txIndex: record.index,
          deployer: record.from,
          address: record.contractAddress,
          status: receipt.status,
        }
        deploymentByAddress.set(d.address, deployments.items.length)
        deployments.append(position(number, mined.index), d, deploymentLists(d))
      }
      for (const log of receipt.logs) {
        const topic0 = log.topics[0]
        if (topic0 === undefined) continue
        const base = { blockNumber: number, blockHash: stored.hash, timestamp, txHash: mined.hash, txIndex: mined.index, logIndex: log.logIndex, token: lower(log.address) }
        const pos = position(number, log.logIndex)
        const place: LogPlace = { blockNumber: number, blockHash: stored.hash, timestamp, txHash: mined.hash, txIndex: mined.index, logIndex: log.logIndex }
        const message = decodeTeleporterLog(log)
        if (message) {
          const m: TeleporterRecord = { ...message, ...place }
          teleporter.append(pos, m, teleporterLists(m))
          continue
        }
        const outcome = decodeTeleporterOutcome(log)
        if (outcome) {
          const o: TeleporterOutcomeRecord = { ...outcome, ...place }
          teleporterOutcomes.append(pos, o, outcomeLists(o))
          continue
        }
        try {
          if (topic0 === TRANSFER_TOPIC && log.topics.length === 3) {
            const t: Erc20Transfer = { ...base, from: topicAddress(log.topics[1]!), to: topicAddress(log.topics[2]!), value: word(log.data, 0) }
            erc20.append(pos, t, transferLists(t))
          } else if (topic0 === TRANSFER_TOPIC && log.topics.length === 4) {
            const t: Erc721Transfer = { ...base, from: topicAddress(log.topics[1]!), to: topicAddress(log.topics[2]!), tokenId: BigInt(log.topics[3]!) }
            erc721.append(pos, t, transferLists(t))
          } else if ((topic0 === TRANSFER_SINGLE_TOPIC || topic0 === TRANSFER_BATCH_TOPIC) && log.topics.length === 4) {
            const single = topic0 === TRANSFER_SINGLE_TOPIC
            const ids = single ? [word(log.data, 0)] : wordArray(log.data, 0)
            const values = single ? [word(log.data, 1)] : wordArray(log.data, 1)
            if (ids.length !== values.length) continue
            const t: Erc1155Transfer = {
              ...base,
              kind: single ? 'single' : 'batch',
              operator: topicAddress(log.topics[1]!),
              from: topicAddress(log.topics[2]!),
              to: topicAddress(log.topics[3]!),
              ids,
              values,
            }
            erc1155.append(pos, t, transferLists(t))
            apply1155(t, 1)
          }
        } catch (e) {
          // A log that claims a standard event but does not decode as one is not a transfer.
          if (!(e instanceof RangeError)) throw e
        }
      }
    }
    height = number
  }

  function reset(): void {
    truncate(-1)
  }

  function rebuild(from: Iterable<StoredBlock>): void {
    reset()
    for (const b of from) onBlock(b)
  }

  const addr = (q: ListQuery) => (q.address === undefined ? undefined : lower(q.address))
  const tokenParty = (q: ListQuery) => (q.address === undefined ? undefined : `a:${lower(q.address)}`)
  const tokenContract = (token: string) => `t:${lower(token)}`

  return {
    chainId,
    /** The highest indexed block, -1 before genesis. */
    get height(): number {
      return height
    },
    onBlock,
    truncate,
    rebuild,
    /**
     * Indexes `chain`'s stored blocks, then follows its `block` and `truncate` events. Returns the
     * function that stops following.
     */
    follow(chain: {
      events: { on<K extends keyof ChainEvents & string>(event: K, listener: (payload: ChainEvents[K]) => void): () => void }
      store: { height: bigint; scan(from: bigint, to: bigint): Iterable<StoredBlock> }
    }): () => void {
      rebuild(chain.store.scan(0n, chain.store.height))
      const offBlock = chain.events.on('block', onBlock)
      const offTruncate = chain.events.on('truncate', ({ height: h }) => truncate(h))
      return () => {
        offBlock()
        offTruncate()
      }
    },

    /** Blocks, newest first (`address` is ignored). */
    blocks: (q: ListQuery): Page<BlockRecord> => blocks.page(undefined, q),
    block: (number: number | bigint): BlockRecord | undefined => {
      const n = Number(number)
      return n >= 0 && n <= height ? blocks.items[n] : undefined
    },
    blockByHash: (hash: string): BlockRecord | undefined => {
      const n = blockByHash.get(lower(hash))
      return n === undefined ? undefined : blocks.items[n]
    },
    /** Native transactions, newest first; with `address`, those it sent or received. */
    transactions: (q: ListQuery): Page<TxRecord> => txs.page(addr(q), q),
    transaction: (hash: string): TxRecord | undefined => {
      const n = txByHash.get(lower(hash))
      return n === undefined ? undefined : txs.items[n]
    },
    /** The transactions of a block in block order; undefined for an unknown block. */
    transactionsOfBlock: (number: number | bigint): TxRecord[] | undefined => {
      const n = Number(number)
      if (!(n >= 0 && n <= height)) return undefined
      const start = firstTx.data[n]!
      return txs.items.slice(start, start + blocks.items[n]!.txCount)
    },
    /** ERC-20 transfers, newest first; with `address`, those it sent or received. */
    erc20Transfers: (q: ListQuery): Page<Erc20Transfer> => erc20.page(tokenParty(q), q),
    erc721Transfers: (q: ListQuery): Page<Erc721Transfer> => erc721.page(tokenParty(q), q),
    erc1155Transfers: (q: ListQuery): Page<Erc1155Transfer> => erc1155.page(tokenParty(q), q),
    /** Transfers of one token contract (`address` is the token), newest first. */
    tokenTransfers: {
      erc20: (q: ListQuery & { address: string }): Page<Erc20Transfer> => erc20.page(tokenContract(q.address), q),
      erc721: (q: ListQuery & { address: string }): Page<Erc721Transfer> => erc721.page(tokenContract(q.address), q),
      erc1155: (q: ListQuery & { address: string }): Page<Erc1155Transfer> => erc1155.page(tokenContract(q.address), q),
    },
    /**
     * Every transaction `address` sent or received, or in which it sent or received a token (the
     * transaction list and the three transfer lists merged by position, each transaction once),
     * newest first or, with `order: 'asc'`, oldest first; paged by a cursor like every list.
     */
    addressActivity: (q: ListQuery & { address: string; order?: 'asc' | 'desc' }): Page<TxRecord> => {
      const desc = q.order !== 'asc'
      const party = lower(q.address)
      let lowerKey = q.startBlock !== undefined ? position(Number(q.startBlock), 0) : -Infinity
      let upperKey = q.endBlock !== undefined ? position(Number(q.endBlock), 0) : Infinity
      const cursorKey = q.cursor === undefined ? undefined : parseCursor(q.cursor, hashOf)
      // Transfers are keyed by log index: bound them by whole blocks, then compare transaction keys.
      if (cursorKey !== undefined && desc) upperKey = Math.min(upperKey, position(blockOf(cursorKey) + 1, 0))
      if (cursorKey !== undefined && !desc) lowerKey = Math.max(lowerKey, position(blockOf(cursorKey), 0))
      const txKey = (t: { blockNumber: number; txIndex: number }) => position(t.blockNumber, t.txIndex)
      const heads: { next: () => IteratorResult<number> }[] = [
        mapWalk(txs.walk(party, desc, lowerKey, upperKey), (t) => position(t.blockNumber, t.index)),
        mapWalk(erc20.walk(`a:${party}`, desc, lowerKey, upperKey), txKey),
        mapWalk(erc721.walk(`a:${party}`, desc, lowerKey, upperKey), txKey),
        mapWalk(erc1155.walk(`a:${party}`, desc, lowerKey, upperKey), txKey),
      ]
      const current = heads.map((h) => h.next())
      const beyondCursor = (key: number) => cursorKey !== undefined && (desc ? key >= cursorKey : key <= cursorKey)
      const pageSize = Math.max(1, Math.floor(q.pageSize))
      const keys: number[] = []
      while (keys.length <= pageSize) {
        let best = -1
        for (let i = 0; i < current.length; i++) {
          const c = current[i]!
          if (c.done) continue
          if (best < 0 || (desc ? c.value > (current[best]!.value as number) : c.value < (current[best]!.value as number))) best = i
        }
        if (best < 0) break
        const key = current[best]!.value as number
        current[best] = heads[best]!.next()
        if (beyondCursor(key) || key === keys[keys.length - 1]) continue
        keys.push(key)
      }
      const more = keys.length > pageSize
      if (more) keys.pop()
      const items = keys.map((key) => {
        const block = blockOf(key)
        return txs.items[firstTx.data[block]! + (key - position(block, 0))]!
      })
      return more ? { items, nextCursor: formatCursor(keys[keys.length - 1]!, hashOf) } : { items }
    },
    /** Contracts created by transactions, newest first; with `address`, those it deployed. */
    deployments: (q: ListQuery): Page<DeploymentRecord> => deployments.page(addr(q), q),
    /** The Teleporter messages a transaction sent or received, in log order. */
    teleporterMessages: (txHash: string): TeleporterRecord[] => [...teleporter.walk(lower(txHash), false, -Infinity, Infinity)],
    /** Every Teleporter message sent or received on this chain, oldest first (a live view: do not keep it across blocks). */
    allTeleporterMessages: (): readonly TeleporterRecord[] => teleporter.items,
    /** The sends and receives of one message id (`0x` hex) on this chain, oldest first. */
    teleporterMessagesById: (messageId: string): TeleporterRecord[] => [...teleporter.walk(`m:${lower(messageId)}`, false, -Infinity, Infinity)],
    /** The executions and returned receipts of one message id on this chain, oldest first. */
    teleporterOutcomes: (messageId: string): TeleporterOutcomeRecord[] => [...teleporterOutcomes.walk(`m:${lower(messageId)}`, false, -Infinity, Infinity)],
    deployment: (contract: string): DeploymentRecord | undefined => {
      const n = deploymentByAddress.get(lower(contract))
      return n === undefined ? undefined : deployments.items[n]
    },
    /**
     * ERC-1155 balances of `address` after block `blockNumber` (default: the head), from the
     * transfer history; only non-zero balances, ordered by token then id.
     */
    erc1155Balances: (address: string, blockNumber?: number | bigint): Erc1155Balance[] => {
      const keys = holdings.get(lower(address))
      if (!keys) return []
      const limit = blockNumber === undefined ? Infinity : position(Number(blockNumber) + 1, 0)
      const out: Erc1155Balance[] = []
      for (const k of keys) {
        const h = balances.get(k)!
        let lo = 0
        let hi = h.keys.length
        while (lo < hi) {
          const mid = (lo + hi) >>> 1
          if (h.keys[mid]! < limit) lo = mid + 1
          else hi = mid
        }
        const balance = lo === 0 ? 0n : h.balances[lo - 1]!
        if (balance !== 0n) out.push({ token: h.token, tokenId: h.id, balance })
      }
      return out.sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0))
    },
  }
}
