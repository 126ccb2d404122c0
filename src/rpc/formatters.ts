import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { toQuantity, type Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import { txFees } from '../evm/pool.js'
import type { LogEntry, MinedTx, StoredBlock } from '../evm/types.js'

/** keccak256(rlp([])): the C-chain's extDataHash of a block without atomic transactions. */
export const EMPTY_EXT_DATA_HASH = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const ZERO_HASH = `0x${'0'.repeat(64)}`

/**
 * Block JSON as coreth's `RPCMarshalBlock` writes it, keys sorted as Go writes a map; the C-chain extras (`blockExtraData`, `blockGasCost`,
 * `extDataGasUsed`, `extDataHash`, `timestampMilliseconds`) are included, `totalDifficulty` is the
 * block number as coreth hard-codes it, and there is no `withdrawals` field.
 */
export function formatBlock(chain: EvmChain, stored: StoredBlock, fullTransactions: boolean): Record<string, unknown> {
  return sortKeys({
    ...headerFields(chain, stored),
    blockExtraData: '0x',
    size: toQuantity(stored.block.serialize().length),
    totalDifficulty: toQuantity(stored.number),
    transactions: fullTransactions ? stored.txs.map((t) => formatTransaction(chain, t.tx, t.from, t)) : stored.txs.map((t) => t.hash),
    uncles: [],
  })
}

/** Header JSON (newHeads notifications): the block's keys without the body fields. */
export function formatHeader(chain: EvmChain, stored: StoredBlock): Record<string, unknown> {
  return sortKeys({ ...headerFields(chain, stored), totalDifficulty: toQuantity(stored.number) })
}

/** Go writes a map's keys sorted; coreth marshals blocks, headers and receipts as maps. */
function sortKeys(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)))
}

function headerFields(chain: EvmChain, stored: StoredBlock): Record<string, unknown> {
  const h = stored.block.header
  const cancun = h.parentBeaconBlockRoot !== undefined
  const extras = Object.fromEntries(Object.entries(stored.extras ?? {}).map(([k, v]) => [k, toQuantity(v)]))
  const flavour =
    chain.flavour === 'coreth'
      ? {
          // Granite: no block gas cost; no atomic transactions, so no atomic gas and the empty hash.
          // Rule-specific fields (minDelayExcess) exist from the first block on.
          ...(h.number === 0n ? {} : extras),
          blockGasCost: '0x0',
          extDataGasUsed: '0x0',
          extDataHash: h.number === 0n ? ZERO_HASH : EMPTY_EXT_DATA_HASH,
          timestampMilliseconds: toQuantity(h.timestamp * 1000n),
        }
      : extras // subnet-EVM: blockGasCost, and after Granite timestampMilliseconds and minDelayExcess
  return {
    ...flavour,
    ...(h.baseFeePerGas !== undefined ? { baseFeePerGas: toQuantity(h.baseFeePerGas) } : {}),
    ...(cancun
      ? {
          blobGasUsed: toQuantity(h.blobGasUsed ?? 0n),
          excessBlobGas: toQuantity(h.excessBlobGas ?? 0n),
          parentBeaconBlockRoot: bytesToHex(h.parentBeaconBlockRoot!),
        }
      : {}),
    difficulty: toQuantity(h.difficulty),
    extraData: bytesToHex(h.extraData),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    hash: stored.hash,
    logsBloom: bytesToHex(h.logsBloom),
    miner: h.coinbase.toString(),
    mixHash: bytesToHex(h.mixHash),
    nonce: bytesToHex(h.nonce),
    number: toQuantity(h.number),
    parentHash: bytesToHex(h.parentHash),
    receiptsRoot: bytesToHex(h.receiptTrie),
    sha3Uncles: bytesToHex(h.uncleHash),
    stateRoot: bytesToHex(h.stateRoot),
    timestamp: toQuantity(h.timestamp),
    transactionsRoot: bytesToHex(h.transactionsTrie),
  }
}

/**
 * Transaction JSON in geth's `RPCTransaction` field order. `mined` is absent for a pool
 * transaction (block fields null, gasPrice = fee cap).
 */
export function formatTransaction(chain: EvmChain, tx: TypedTransaction, from: Hex, mined?: MinedTx): Record<string, unknown> {
  const { feeCap, tipCap } = txFees(tx)
  const dynamic = tx.type === TransactionType.FeeMarketEIP1559
  let gasPrice = feeCap
  if (dynamic && mined) {
    const baseFee = chain.store.byNumber(mined.blockNumber)?.block.header.baseFeePerGas ?? 0n
    gasPrice = baseFee + tipCap < feeCap ? baseFee + tipCap : feeCap
  }
  const out: Record<string, unknown> = {
    blockHash: mined?.blockHash ?? null,
    blockNumber: mined ? toQuantity(mined.blockNumber) : null,
    from,
    gas: toQuantity(tx.gasLimit),
    gasPrice: toQuantity(gasPrice),
  }
  if (dynamic) {
    out.maxFeePerGas = toQuantity(feeCap)
    out.maxPriorityFeePerGas = toQuantity(tipCap)
  }
  out.hash = bytesToHex(tx.hash())
  out.input = bytesToHex(tx.data)
  out.nonce = toQuantity(tx.nonce)
  out.to = tx.to ? tx.to.toString() : null
  out.transactionIndex = mined ? toQuantity(mined.index) : null
  out.value = toQuantity(tx.value)
  out.type = toQuantity(tx.type)
  if (tx.type !== TransactionType.Legacy) {
    out.accessList = 'accessList' in tx ? tx.toJSON().accessList ?? [] : []
    out.chainId = toQuantity(chain.chainId)
  } else if (tx.v !== undefined && tx.v > 28n) {
    out.chainId = toQuantity(chain.chainId)
  }
  out.v = toQuantity(tx.v ?? 0n)
  out.r = toQuantity(tx.r ?? 0n)
  out.s = toQuantity(tx.s ?? 0n)
  if (tx.type !== TransactionType.Legacy) out.yParity = toQuantity(tx.v ?? 0n)
  return out
}

/** Receipt JSON as coreth's `marshalReceipt` map: keys in alphabetical order. */
export function formatReceipt(mined: MinedTx): Record<string, unknown> {
  const { receipt, tx } = mined
  return {
    blockHash: mined.blockHash,
    blockNumber: toQuantity(mined.blockNumber),
    contractAddress: receipt.contractAddress,
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: toQuantity(receipt.effectiveGasPrice),
    from: mined.from,
    gasUsed: toQuantity(receipt.gasUsed),
    logs: receipt.logs.map((log) => formatLog(log)),
    logsBloom: bytesToHex(receipt.logsBloom),
    status: toQuantity(receipt.status),
    to: tx.to ? tx.to.toString() : null,
    transactionHash: mined.hash,
    transactionIndex: toQuantity(mined.index),
    type: toQuantity(tx.type),
  }
}

/** Log JSON in geth's `types.Log` field order. */
export function formatLog(log: LogEntry, removed = false): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: toQuantity(log.blockNumber),
    transactionHash: log.transactionHash,
    transactionIndex: toQuantity(log.transactionIndex),
    blockHash: log.blockHash,
    logIndex: toQuantity(log.logIndex),
    removed,
  }
}
