import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '@ethereumjs/util'
import { toQuantity, type Hex } from '../core/hex.js'
import type { EvmChain } from '../evm/chain.js'
import { txFees } from '../evm/pool.js'
import type { LogEntry, MinedTx, StoredBlock } from '../evm/types.js'
import type { JsonBytes } from './jsonBytes.js'

/** keccak256(rlp([])): the C-chain's extDataHash of a block without atomic transactions. */
export const EMPTY_EXT_DATA_HASH = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const ZERO_HASH = `0x${'0'.repeat(64)}`

/**
 * The header's fields in the order of each VM's `HeaderSerializable` (coreth and subnet-EVM
 * `plugin/evm/customtypes`), whose JSON is the `newHeads` notification. subnet-EVM has no atomic
 * transactions, so neither `extDataHash` nor `extDataGasUsed`.
 */
const CORETH_HEADER_KEYS = [
  'parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'difficulty', 'number',
  'gasLimit', 'gasUsed', 'timestamp', 'extraData', 'mixHash', 'nonce', 'extDataHash', 'baseFeePerGas', 'extDataGasUsed',
  'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'timestampMilliseconds', 'minDelayExcess', 'hash',
] as const
type HeaderKey = (typeof CORETH_HEADER_KEYS)[number]
const SUBNET_EVM_HEADER_KEYS = CORETH_HEADER_KEYS.filter((k) => k !== 'extDataHash' && k !== 'extDataGasUsed')
/** The rule-specific fields a stored block's `extras` may hold. */
const EXTRA_KEYS = ['extDataGasUsed', 'blockGasCost', 'timestampMilliseconds', 'minDelayExcess'] as const

/**
 * Block JSON as the chain's VM writes it (`RPCMarshalBlock` + `rpcMarshalBlock`), keys sorted as
 * Go writes a map: the header's fields that are set, `size`, `totalDifficulty` (the block number,
 * as both VMs hard-code it), `transactions`, `uncles`; coreth adds its atomic data,
 * `blockExtraData`. Neither writes `withdrawals`.
 */
export function formatBlock(chain: EvmChain, stored: StoredBlock, fullTransactions: boolean): Record<string, unknown> {
  return sortKeys({
    ...presentFields(headerValues(chain, stored)),
    ...(chain.flavour === 'coreth' ? { blockExtraData: '0x' } : {}),
    size: toQuantity(stored.block.serialize().length),
    totalDifficulty: toQuantity(stored.number),
    transactions: fullTransactions ? stored.txs.map((t) => formatTransaction(chain, t.tx, t.from, t)) : stored.txs.map((t) => t.hash),
    uncles: [],
  })
}

/**
 * A `newHeads` notification: the header's own JSON (the VM's `HeaderSerializable`), fields in
 * struct order, an unset optional field as `null`, `hash` last, and no `totalDifficulty`.
 */
export function formatHeader(chain: EvmChain, stored: StoredBlock): Record<string, unknown> {
  const values = headerValues(chain, stored)
  const keys = chain.flavour === 'coreth' ? CORETH_HEADER_KEYS : SUBNET_EVM_HEADER_KEYS
  return Object.fromEntries(keys.map((k) => [k, values[k] ?? null]))
}

/** Go writes a map's keys sorted; coreth marshals blocks, headers and receipts as maps. */
function sortKeys(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)))
}

function presentFields(values: Partial<Record<HeaderKey, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined))
}

/** Every header field the chain's VM sets for this block (an unset optional field is absent). */
function headerValues(chain: EvmChain, stored: StoredBlock): Partial<Record<HeaderKey, unknown>> {
  const h = stored.block.header
  const extras: Partial<Record<(typeof EXTRA_KEYS)[number], bigint>> = {}
  for (const key of EXTRA_KEYS) if (stored.extras?.[key] !== undefined) extras[key] = stored.extras[key]
  let extDataHash: string | undefined
  if (chain.flavour === 'coreth') {
    // The genesis header has what the upgrades active at its time set (its extras) and a zero
    // extDataHash. Every later block is built under Granite: no block gas cost, no atomic gas
    // (no atomic transactions), the empty data's hash, millisecond time.
    extDataHash = h.number === 0n ? ZERO_HASH : EMPTY_EXT_DATA_HASH
    if (h.number !== 0n) {
      extras.blockGasCost ??= 0n
      extras.extDataGasUsed = 0n
      extras.timestampMilliseconds ??= h.timestamp * 1000n
    }
  }
  const cancun = h.parentBeaconBlockRoot !== undefined
  const quantity = (v: bigint | undefined) => (v === undefined ? undefined : toQuantity(v))
  return {
    parentHash: bytesToHex(h.parentHash),
    sha3Uncles: bytesToHex(h.uncleHash),
    miner: h.coinbase.toString(),
    stateRoot: bytesToHex(h.stateRoot),
    transactionsRoot: bytesToHex(h.transactionsTrie),
    receiptsRoot: bytesToHex(h.receiptTrie),
    logsBloom: bytesToHex(h.logsBloom),
    difficulty: toQuantity(h.difficulty),
    number: toQuantity(h.number),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    timestamp: toQuantity(h.timestamp),
    extraData: bytesToHex(h.extraData),
    mixHash: bytesToHex(h.mixHash),
    nonce: bytesToHex(h.nonce),
    extDataHash,
    baseFeePerGas: quantity(h.baseFeePerGas),
    extDataGasUsed: quantity(extras.extDataGasUsed),
    blockGasCost: quantity(extras.blockGasCost),
    blobGasUsed: cancun ? toQuantity(h.blobGasUsed ?? 0n) : undefined,
    excessBlobGas: cancun ? toQuantity(h.excessBlobGas ?? 0n) : undefined,
    parentBeaconBlockRoot: cancun ? bytesToHex(h.parentBeaconBlockRoot!) : undefined,
    timestampMilliseconds: quantity(extras.timestampMilliseconds),
    minDelayExcess: quantity(extras.minDelayExcess),
    hash: stored.hash,
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
    logsBloom: hexText(receipt.logsBloom),
    status: toQuantity(receipt.status),
    to: tx.to ? hexText(tx.to.bytes) : null,
    transactionHash: mined.hash,
    transactionIndex: toQuantity(mined.index),
    type: toQuantity(tx.type),
  }
}

/**
 * `bytes` as `0x…` lowercase, as ethereumjs' `bytesToHex` (and `Address.toString`) writes them,
 * by node's hex writer: a receipt's bloom and recipient were a tenth of answering it.
 */
function hexText(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
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

/**
 * Writes logs as `encodeJSON` writes their {@link formatLog} records, one log's text at a time:
 * a range query answers thousands of logs (~600 bytes each), which JSON.stringify plus the
 * dispatcher's scan for Go's HTML escapes wrote several times slower, from objects made only for
 * it. Every string of a log is 0x-hex made from bytes, so it goes between quotes as it is.
 */
export function writeLogsJson(logs: readonly LogEntry[], out: JsonBytes): void {
  out.reserve(2 + logs.length * 600)
  out.ascii('[')
  for (let i = 0; i < logs.length; i++) {
    if (i > 0) out.ascii(',')
    out.ascii(logText(logs[i]!))
  }
  out.ascii(']')
}

/**
 * One log's {@link formatLog} record as JSON text (quantities as `toQuantity` writes them). A
 * function of its own, called once per log, so V8 optimises it within the first large answer; as
 * the body of the loop above it waited for on-stack replacement, and the first few answers of a
 * range ran unoptimised.
 */
function logText(log: LogEntry): string {
  const topics = log.topics.length === 0 ? '' : `"${log.topics.join('","')}"`
  return (
    `{"address":"${log.address}","topics":[${topics}],"data":"${log.data}","blockNumber":"0x${log.blockNumber.toString(16)}",` +
    `"transactionHash":"${log.transactionHash}","transactionIndex":"0x${log.transactionIndex.toString(16)}","blockHash":"${log.blockHash}",` +
    `"logIndex":"0x${log.logIndex.toString(16)}","removed":false}`
  )
}
