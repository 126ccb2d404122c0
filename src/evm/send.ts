import { createTx, createTxFromRLP, TransactionType, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import { rawTxShape, txShape, validateForPool, validateTxBasics } from './admission.js'
import { estimateGas, type CallRequest } from './call.js'
import type { EvmChain } from './chain.js'
import { TxRejectedError, txPoolErrors } from './errors.js'
import type { Miner } from './miner.js'
import { createUnsignedTx } from './unsignedTx.js'

/**
 * Decodes a signed transaction as the node does, with the node's messages for bad input. Blob
 * and set-code transactions are refused as coreth's pool refuses them. A transaction this chain
 * cannot recover a sender from (a bad signature, or one signed for another chain id) gets the
 * pool's `invalid sender`, after the checks coreth makes before it recovers the sender.
 */
export function decodeRawTransaction(chain: EvmChain, raw: Uint8Array): { tx: TypedTransaction; from: Hex; hash: Hex } {
  if (raw.length > 0 && (raw[0] === TransactionType.BlobEIP4844 || raw[0] === TransactionType.EOACodeEIP7702))
    throw txPoolErrors.txTypeNotSupported()
  let tx: TypedTransaction
  try {
    tx = chain.txSharing.freeze(chain.txSharing.keepSender(createTxFromRLP(raw, chain.txSharing.options())))
  } catch (error) {
    // ethereumjs refuses, while decoding, transactions that coreth decodes and its pool then
    // refuses: signed for another chain id (invalid sender), or with a tip above the fee cap.
    const read = rawTxShape(raw)
    if (read) {
      validateTxBasics(chain, read.shape, { unsigned: false })
      if (read.chainId !== undefined && read.chainId !== chain.chainId) throw txPoolErrors.invalidSender()
    }
    throw new TxRejectedError(`rlp: ${(error as Error).message.replace(/ \(.*$/s, '')}`)
  }
  let from: Hex
  try {
    from = chain.txSharing.senderHex(tx)
  } catch {
    validateTxBasics(chain, txShape(tx), { unsigned: false })
    throw txPoolErrors.invalidSender()
  }
  chain.txSharing.keepSerialized(tx)
  return { tx, from, hash: bytesToHex(tx.hash()) as Hex }
}

export type Submitted = { hash: Hex; mined: boolean }

/**
 * Admits a transaction to the pool and, in automine mode, waits until the block that includes
 * it is stored, so the receipt is readable when the call returns.
 */
export async function submitTransaction(chain: EvmChain, miner: Miner, tx: TypedTransaction, from: Hex, hash: Hex): Promise<Hex> {
  const automine = chain.mining.mode === 'auto'
  // The block promise is wrapped: returning it bare would make this lock task wait for a block
  // queued behind it.
  const { block } = await chain.lock.run(async () => {
    await validateForPool(chain, tx, from, { automine, hash })
    chain.pool.add({ tx, hash, from, nonce: tx.nonce })
    chain.events.emit('pendingTransaction', { hash, tx, from })
    return { block: automine ? miner.scheduleBlock() : undefined }
  })
  if (block) {
    await block
    const reason = miner.dropped.get(hash)
    if (reason !== undefined) {
      miner.dropped.delete(hash)
      throw new TxRejectedError(reason)
    }
  }
  return hash
}

export type TransactionRequest = CallRequest & { from: Hex }

/**
 * eth_sendTransaction: fills nonce, gas and fees as geth's `SendTxArgs.setDefaults` does, then
 * signs with a dev key or, for impersonated accounts, marks the sender without a signature.
 */
export async function sendTransaction(
  chain: EvmChain,
  miner: Miner,
  request: TransactionRequest,
  signers: ReadonlyMap<Hex, Uint8Array>,
  suggestedTip: bigint,
): Promise<Hex> {
  const from = request.from.toLowerCase() as Hex
  const key = signers.get(from)
  if (!key && !chain.canSendUnsigned(from)) throw new TxRejectedError(`unknown account ${toChecksumAddress(from)}`)
  if (request.gasPrice !== undefined && (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined))
    throw new TxRejectedError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  const nonce = request.nonce ?? (await chain.lock.run(async () => chain.pool.nextNonce(from, await chain.liveNonce(from))))
  const baseFee = chain.nextBaseFee()
  let fees: Partial<TypedTxData>
  let type: number
  if (request.gasPrice !== undefined) {
    type = request.accessList ? TransactionType.AccessListEIP2930 : TransactionType.Legacy
    fees = { gasPrice: request.gasPrice }
  } else {
    type = TransactionType.FeeMarketEIP1559
    const tip = request.maxPriorityFeePerGas ?? suggestedTip
    const feeCap = request.maxFeePerGas ?? tip + 2n * baseFee
    if (feeCap < tip) throw new TxRejectedError(`maxFeePerGas (${feeCap}) < maxPriorityFeePerGas (${tip})`)
    fees = { maxFeePerGas: feeCap, maxPriorityFeePerGas: tip }
  }
  let gas = request.gas
  if (gas === undefined) {
    const estimate = await estimateGas(chain, { ...request, from, nonce, ...fees } as CallRequest, 'latest')
    if (!estimate.ok) {
      const { result } = estimate
      if (result.reverted) throw new TxRejectedError('execution reverted')
      throw new TxRejectedError(result.error ?? 'gas required exceeds allowance')
    }
    gas = estimate.gas
  }
  const data: TypedTxData = {
    type,
    nonce,
    gasLimit: gas,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ? bytesToHex(request.data) : '0x',
    chainId: chain.chainId,
    accessList: request.accessList?.map((e) => ({ address: e.address, storageKeys: e.storageKeys })),
    ...fees,
  } as TypedTxData
  const tx = key ? signTx(chain, data, key) : createUnsignedTx(chain.txSharing.common(), data, from, chain.txSharing)
  chain.txSharing.keepSerialized(tx)
  return submitTransaction(chain, miner, tx, from, bytesToHex(tx.hash()) as Hex)
}

function signTx(chain: EvmChain, data: TypedTxData, key: Uint8Array): TypedTransaction {
  // Built unfrozen (signing keeps the option) so it can share what it holds before it freezes.
  return chain.txSharing.freeze(chain.txSharing.keepSender(createTx(data, chain.txSharing.options()).sign(key)))
}

