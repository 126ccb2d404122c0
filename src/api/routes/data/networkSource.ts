import type { EvmChain } from '../../../evm/chain.js'
import { createEvmIndexer, InvalidCursorError, StaleCursorError, type EvmIndexer, type ListQuery, type Page } from '../../../indexer/index.js'
import type { Network } from '../../../network/network.js'
import { EVM_ID, SUBNET_EVM_ID } from '../../../network/version.js'
import { badRequest } from './errors.js'
import { INVALID_PAGE_TOKEN, PAGE_TOKEN_REVERTED, type CursorPage } from './paging.js'
import type { CursorQuery, DataBlock, DataChain, DataSource } from './source.js'

type Indexed = { chain: EvmChain; indexer: EvmIndexer; cumulative: { hash: string; total: number }[] }

/**
 * The data API's view of a network: one indexer per EVM chain, following its block events from
 * the first request on (it rebuilds from the chain's stored blocks, so nothing is missed), shared
 * by every node's server. Chains the P-chain starts later join on the next request.
 */
export function networkDataSource(network: Network): DataSource {
  const cached = sources.get(network)
  if (cached) return cached
  const indexedOf = (chain: EvmChain): Indexed => indexedChain(chain)
  const testnet = network.presetName !== 'mainnet'
  const source: DataSource = {
    networkId: network.preset.networkId,
    chains(): DataChain[] {
      const c: DataChain = {
        evmChainId: String(network.cChain.chainId),
        blockchainId: network.preset.cChainId,
        subnetId: '11111111111111111111111111111111LpoYY',
        vmId: EVM_ID,
        chainName: 'C-Chain',
        description: 'The Contract Chain of the primary network (emulated by l1sim).',
        isTestnet: testnet,
        networkToken: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
      }
      return [
        c,
        ...network.l1s.map((l1) => ({
          evmChainId: String(l1.chain.chainId),
          blockchainId: l1.blockchainId,
          subnetId: l1.subnetId,
          vmId: SUBNET_EVM_ID,
          chainName: l1.name,
          description: `L1 ${l1.name} (subnet-EVM, emulated by l1sim).`,
          isTestnet: testnet,
          // A subnet-EVM genesis does not name its native token; the emulator says so plainly.
          networkToken: { name: `${l1.name} native token`, symbol: 'NATIVE', decimals: 18 },
        })),
      ]
    },
    listBlocks(evmChainId: string, query: CursorQuery): CursorPage<DataBlock> {
      const chain = network.chains.find((c) => String(c.chainId) === evmChainId)
      if (!chain) return { items: [] }
      const entry = indexedOf(chain)
      const page = readPage(entry.indexer.blocks, { pageSize: query.pageSize, ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) })
      return {
        items: page.items.map((b) => {
          const txs = entry.indexer.transactionsOfBlock(b.number) ?? []
          const stored = chain.store.byNumber(BigInt(b.number))
          const extras = stored?.extras ?? {}
          return {
            blockNumber: b.number,
            blockTimestamp: Number(b.timestamp),
            // The C-chain's header has timestampMilliseconds on every block (as eth_getBlockByNumber says).
            ...(extras.timestampMilliseconds !== undefined ? { blockTimestampMilliseconds: Number(extras.timestampMilliseconds) } : chain.flavour === 'coreth' ? { blockTimestampMilliseconds: Number(b.timestamp) * 1000 } : {}),
            ...(extras.minDelayExcess !== undefined ? { blockMinDelayExcess: Number(extras.minDelayExcess) } : {}),
            blockHash: b.hash,
            txCount: b.txCount,
            baseFee: b.baseFeePerGas,
            gasUsed: b.gasUsed,
            gasLimit: b.gasLimit,
            gasCost: extras.blockGasCost ?? 0n,
            parentHash: b.parentHash,
            feesSpent: txs.reduce((sum, tx) => sum + tx.gasUsed * tx.effectiveGasPrice, 0n),
            cumulativeTransactions: cumulativeTransactions(entry, b.number),
          }
        }),
        ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
      }
    },
  }
  sources.set(network, source)
  return source
}

const sources = new WeakMap<Network, DataSource>()
const indexedChains = new WeakMap<EvmChain, Indexed>()

function indexedChain(chain: EvmChain): Indexed {
  let entry = indexedChains.get(chain)
  if (!entry) {
    const indexer = createEvmIndexer({ chainId: chain.chainId })
    indexer.follow(chain)
    entry = { chain, indexer, cumulative: [] }
    indexedChains.set(chain, entry)
  }
  return entry
}

/** The indexer of an EVM chain (created on first use, then following the chain), for the /v1 routes. */
export function indexerFor(chain: EvmChain): EvmIndexer {
  return indexedChain(chain).indexer
}

/** The EVM chain a /v1 path names: its EVM chain id (decimal) or its blockchain id. */
export function evmChainFor(network: Network, chainId: string): EvmChain | undefined {
  return network.chains.find((c) => String(c.chainId) === chainId) ?? network.chain(chainId)
}

/** Transactions in blocks 0…n, memoized per block (a memo whose block hash no longer matches, after a revert, is recomputed). */
function cumulativeTransactions(entry: Indexed, n: number): number {
  const { cumulative, indexer } = entry
  // A block's hash commits to every block below it, so the cache is good up to its highest entry
  // that still matches the chain, and a revert leaves a stale suffix: found by bisection, not by
  // checking every entry on every request (which made a page of blocks cost the chain's height).
  const matches = (i: number) => cumulative[i]!.hash === indexer.block(i)?.hash
  let valid = cumulative.length
  if (valid > 0 && !matches(valid - 1)) {
    let low = 0
    let high = valid - 1
    while (low < high) {
      const mid = (low + high) >>> 1
      if (matches(mid)) low = mid + 1
      else high = mid
    }
    valid = low
  }
  cumulative.length = valid
  for (let i = valid; i <= n; i++) {
    const block = indexer.block(i)
    cumulative.push({ hash: block?.hash ?? '', total: (cumulative[i - 1]?.total ?? 0) + (block?.txCount ?? 0) })
  }
  return cumulative[n]?.total ?? 0
}

/** One page of an indexer list; a bad or reverted cursor becomes the 400 of a bad page token. */
export function readPage<T, Q extends ListQuery>(list: (q: Q) => Page<T>, q: Q): Page<T> {
  try {
    return list(q)
  } catch (e) {
    if (e instanceof StaleCursorError) throw badRequest(PAGE_TOKEN_REVERTED)
    if (e instanceof InvalidCursorError) throw badRequest(INVALID_PAGE_TOKEN)
    throw e
  }
}
