/**
 * Internal transactions and contract-made deployments for the EVM operations of the data API
 * (3 listTransactions, 9 getDeploymentTransaction, 10 getTransaction), read from the chain's
 * trace indexer, which replays a block only when one of its transactions is asked about.
 */
import type { EvmChain } from '../../../../evm/chain.js'
import { createTraceIndexer, type EvmIndexer, type InternalTransaction, type InternalTxType, type TraceIndexer } from '../../../../indexer/index.js'
import { richAddress, type RichAddress } from './models.js'

/** The hosted `InternalTransactionDetails`, in its property order. */
export type InternalTransactionDetails = {
  from: RichAddress
  to: RichAddress
  internalTxType: InternalTxType
  value: string
  isReverted: boolean
  gasUsed: string
  gasLimit: string
}

const traceIndexers = new WeakMap<EvmChain, TraceIndexer>()

/** The trace indexer of an EVM chain (created on first use, then following its reverts), shared by every node's server. */
export function traceIndexerFor(chain: EvmChain): TraceIndexer {
  let traces = traceIndexers.get(chain)
  if (!traces) {
    traces = createTraceIndexer({ chain })
    traces.follow()
    traceIndexers.set(chain, traces)
  }
  return traces
}

export function internalTransactionDetails(t: InternalTransaction): InternalTransactionDetails {
  return {
    from: richAddress(t.from),
    to: richAddress(t.to),
    internalTxType: t.internalTxType,
    value: t.value.toString(10),
    isReverted: t.isReverted,
    gasUsed: t.gasUsed.toString(10),
    gasLimit: t.gasLimit.toString(10),
  }
}

/**
 * The frames the hosted API lists: "only CALL and CALLCODE internal transactions that had a
 * non-zero value and CREATE/CREATE2/CREATE3 calls" (its `internalTransactions` description);
 * reverted ones stay, flagged by `isReverted`.
 */
export function isListedInternal(t: InternalTransaction): boolean {
  if (t.internalTxType === 'CREATE' || t.internalTxType === 'CREATE2') return true
  return (t.internalTxType === 'CALL' || t.internalTxType === 'CALLCODE') && t.value > 0n
}

/**
 * The `internalTransactions` field of a transaction's answer, in execution order; with `party`,
 * only the frames it sent or received (op 3). Left out when empty, as the transfer lists are.
 */
export async function internalTransactionsField(chain: EvmChain, txHash: string, party?: string): Promise<{ internalTransactions?: InternalTransactionDetails[] }> {
  const all = (await traceIndexerFor(chain).internalTransactions(txHash)) ?? []
  const address = party?.toLowerCase()
  const listed = all.filter((t) => isListedInternal(t) && (address === undefined || t.from === address || t.to === address))
  return listed.length > 0 ? { internalTransactions: listed.map(internalTransactionDetails) } : {}
}

/**
 * The transaction that deployed `address`: the indexer's creation transactions first, then a
 * contract's CREATE/CREATE2 found by tracing.
 */
export async function deploymentTxHash(chain: EvmChain, indexer: EvmIndexer, address: string): Promise<string | undefined> {
  return indexer.deployment(address)?.txHash ?? (await traceIndexerFor(chain).creationOf(address))?.txHash
}
