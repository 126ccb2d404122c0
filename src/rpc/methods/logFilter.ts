/**
 * Log filters as coreth reads and applies them (`eth/filters`): the `FilterCriteria` parser shared
 * by eth_getLogs, eth_newFilter and logs subscriptions, the per-log match, and the block range.
 */
import type { Hex } from '../../core/hex.js'
import type { EvmChain } from '../../evm/chain.js'
import { blockLogs, matchLog, queryLogs, type LogCriteria } from '../../evm/logs.js'
import type { LogEntry } from '../../evm/types.js'
import { InvalidParamsError, RpcServerError } from '../errors.js'
import { any, array, blockNumber, createParser, hash32, object, optional, type BlockNumber } from '../params.js'

/** coreth's `maxTopics`: checked by the filter API calls, not by the parser. */
const MAX_TOPICS = 4

/** The criteria of a parsed filter, with the topic limit eth_getLogs and eth_newFilter apply. */
export function toLogCriteria(filter: LogFilter): LogCriteria {
  if (filter.criteria.topics.length > MAX_TOPICS) throw new RpcServerError('exceed max topics')
  return filter.criteria
}


/** A decoded `filters.FilterCriteria`: the block range and what a log must match. */
export type LogFilter = {
  blockHash?: Hex
  fromBlock?: BlockNumber
  toBlock?: BlockNumber
  criteria: LogCriteria
}

/** coreth's `maxAddresses`. */
const MAX_ADDRESSES = 1000

const filterInput = object('filters.input', {
  blockHash: optional(hash32),
  fromBlock: optional(blockNumber),
  toBlock: optional(blockNumber),
  address: any,
  topics: array(any),
})

/**
 * `filters.FilterCriteria.UnmarshalJSON`, with its messages: a single address or a list, topics
 * as a list of `null` (any), a hash, or a list of hashes where a `null` member makes the whole
 * position match anything.
 */
export const logFilter = createParser<LogFilter>('filters.FilterCriteria', (raw) => {
  const input = filterInput(raw)
  const addresses: Hex[] = []
  const topics: (Hex[] | null)[] = []
  const out: LogFilter = { criteria: { addresses, topics } }
  if (input.blockHash !== undefined) {
    if (input.fromBlock !== undefined || input.toBlock !== undefined)
      throw new InvalidParamsError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    out.blockHash = input.blockHash
  } else {
    out.fromBlock = input.fromBlock
    out.toBlock = input.toBlock
  }
  const address = input.address
  if (Array.isArray(address)) {
    if (address.length > MAX_ADDRESSES) throw new InvalidParamsError('exceed max addresses')
    for (const [i, item] of address.entries()) {
      if (typeof item !== 'string') throw new InvalidParamsError(`non-string address at index ${i}`)
      addresses.push(decodeFixedHex(item, 20, 'address', (m) => `invalid address at index ${i}: ${m}`))
    }
  } else if (typeof address === 'string') {
    addresses.push(decodeFixedHex(address, 20, 'address', (m) => `invalid address: ${m}`))
  } else if (address !== undefined && address !== null) {
    throw new InvalidParamsError('invalid addresses in query')
  }
  for (const topic of input.topics ?? []) {
    if (topic === null) topics.push(null)
    else if (typeof topic === 'string') topics.push([decodeFixedHex(topic, 32, 'topic', (m) => m)])
    else if (Array.isArray(topic)) topics.push(topicAlternatives(topic))
    else throw new InvalidParamsError('invalid topic(s)')
  }
  return out
})

function topicAlternatives(list: unknown[]): Hex[] | null {
  const hashes: Hex[] = []
  for (const item of list) {
    // geth breaks out of the loop at the first null: the position matches anything.
    if (item === null) return null
    if (typeof item !== 'string') throw new InvalidParamsError('invalid topic(s)')
    hashes.push(decodeFixedHex(item, 32, 'topic', (m) => m))
  }
  return hashes
}

/** hexutil.Decode plus the length check of filters' `decodeAddress` / `decodeTopic`. */
function decodeFixedHex(text: string, bytes: number, what: string, wrap: (message: string) => string): Hex {
  const fail = (message: string) => new InvalidParamsError(wrap(message))
  if (text === '') throw fail('empty hex string')
  if (text[0] !== '0' || (text[1] !== 'x' && text[1] !== 'X')) throw fail('hex string without 0x prefix')
  const digits = text.slice(2)
  // Go's hex.Decode reports a bad character before an odd length.
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw fail('invalid hex string')
  if (digits.length % 2 !== 0) throw fail('hex string of odd length')
  if (digits.length !== bytes * 2)
    throw fail(`hex has invalid length ${digits.length / 2} after decoding; expected ${bytes} for ${what}`)
  return `0x${digits.toLowerCase()}`
}

/** rpc.BlockNumber as an int64, as the event system compares them. */
export function blockNumberValue(n: BlockNumber | undefined): bigint {
  switch (n) {
    case undefined:
    case 'latest':
      return -2n
    case 'safe':
      return -4n
    case 'finalized':
      return -3n
    case 'pending':
      return -1n
    default:
      return n
  }
}

/** filters' `filterLogs` for one log: the block range (numbers only), then addresses and topics. */
export function matchesLogFilter(filter: LogFilter, log: LogEntry): boolean {
  const from = blockNumberValue(filter.fromBlock)
  const to = blockNumberValue(filter.toBlock)
  if (filter.fromBlock !== undefined && from >= 0n && from > log.blockNumber) return false
  if (filter.toBlock !== undefined && to >= 0n && to < log.blockNumber) return false
  return matchLog(log, filter.criteria)
}


/** Resolves `fromBlock`/`toBlock` to numbers as coreth's filter does (latest/pending/safe = head). */
export function resolveRange(chain: EvmChain, filter: LogFilter): { from: bigint; to: bigint } | undefined {
  const head = chain.store.height
  const num = (b: BlockNumber | undefined) => (b === undefined || typeof b === 'string' ? head : b)
  if (filter.fromBlock === 'pending' && filter.toBlock === 'pending') return undefined
  if (filter.fromBlock === 'pending') throw new RpcServerError('invalid block range params')
  const from = num(filter.fromBlock)
  const to = num(filter.toBlock)
  if (from > head) throw new RpcServerError(`requested from block ${from} after last accepted block ${head}`)
  if (to > head) throw new RpcServerError(`requested to block ${to} after last accepted block ${head}`)
  if (from > to) throw new RpcServerError(`begin block ${from} is greater than end block ${to}`)
  return { from, to }
}

/**
 * `SubscribeAcceptedLogs`' check of the from/to combinations a logs subscription or a log
 * filter (eth_newFilter) accepts.
 */
export function checkAcceptedLogsRange(filter: LogFilter): void {
  const from = blockNumberValue(filter.fromBlock)
  const to = blockNumberValue(filter.toBlock)
  const pending = -1n
  const latest = -2n
  const ok =
    (from === pending && to === pending) ||
    (from === latest && to === latest) ||
    (from >= 0n && to >= 0n && to >= from) ||
    (from >= latest && to === pending) ||
    (from >= 0n && to === latest)
  if (!ok) throw new RpcServerError('invalid from and to block combination: from > to')
}

/**
 * The logs a filter asks for, as coreth's `Filter.Logs` finds them: the block a `blockHash`
 * names, or the blocks of its range (latest when a bound is absent), oldest first. eth_getLogs
 * and eth_getFilterLogs both read through it.
 */
export function findLogs(chain: EvmChain, filter: LogFilter): LogEntry[] {
  const criteria = toLogCriteria(filter)
  if (filter.blockHash !== undefined) {
    const block = chain.store.byHash(filter.blockHash)
    if (!block) throw new RpcServerError('unknown block')
    return blockLogs(block, criteria)
  }
  const range = resolveRange(chain, filter)
  return range ? queryLogs(chain, range.from, range.to, criteria) : []
}
