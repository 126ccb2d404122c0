import type { Hex } from '../../core/hex.js'
import type { EvmChain } from '../../evm/chain.js'
import type { LogCriteria } from '../../evm/logs.js'
import { RpcServerError } from '../errors.js'
import { address, array, blockNumber, createParser, hash32, jsonKind, object, optional, UnmarshalTypeError, type BlockNumber } from '../params.js'

const oneOrMany = <T>(parser: (raw: unknown) => T, goType: string) =>
  createParser(goType, (raw): T[] => {
    if (raw === null || raw === undefined) return []
    if (Array.isArray(raw)) return raw.map((r) => parser(r))
    return [parser(raw)]
  })

const topicPosition = createParser('[]common.Hash', (raw): Hex[] | null => {
  if (raw === null) return null
  if (Array.isArray(raw)) return raw.map((t) => (t === null ? null : hash32(t))).filter((t): t is Hex => t !== null)
  if (typeof raw !== 'string') throw new UnmarshalTypeError(jsonKind(raw), 'common.Hash')
  return [hash32(raw)]
})

/** geth's `filters.FilterCriteria` JSON. */
export const filterCriteria = object('filters.FilterCriteria', {
  blockHash: optional(hash32),
  fromBlock: optional(blockNumber),
  toBlock: optional(blockNumber),
  address: optional(oneOrMany(address, 'interface {}')),
  topics: optional(array(topicPosition, '[][]common.Hash')),
})

export type ParsedFilter = ReturnType<typeof filterCriteria>

/** Criteria and (resolved lazily) range of a parsed filter, with coreth's limits and messages. */
export function toLogCriteria(filter: ParsedFilter): LogCriteria {
  const topics = filter.topics ?? []
  if (topics.length > 4) throw new RpcServerError('exceed max topics')
  const addresses = (filter.address ?? []).map((a) => a.toLowerCase() as Hex)
  if (addresses.length > 1000) throw new RpcServerError('exceed max addresses')
  return { addresses, topics }
}

/** Resolves `fromBlock`/`toBlock` to numbers as coreth's filter does (latest/pending/safe = head). */
export function resolveRange(chain: EvmChain, filter: ParsedFilter): { from: bigint; to: bigint } | undefined {
  if (filter.blockHash !== undefined && (filter.fromBlock !== undefined || filter.toBlock !== undefined))
    throw new RpcServerError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
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
