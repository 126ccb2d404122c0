import { RLP } from '@ethereumjs/rlp'
import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { bytesToBigInt, bytesToHex, createAddressFromString } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from './chain.js'
import { stateTransitionErrors, TxRejectedError, txPoolErrors } from './errors.js'
import { txFees } from './pool.js'
import { isUnsignedTx } from './unsignedTx.js'
import { unprotectedAllowed, type UnprotectedTx } from './unprotectedTxs.js'
import { accessListOf } from './warpRules.js'

/** geth `txMaxSize`: 4 slots of 32 KiB. */
export const TX_MAX_SIZE = 4 * 32 * 1024
/** geth legacypool default `PriceBump`: a replacement must pay 10% more. */
export const PRICE_BUMP_PERCENT = 10n
/** coreth `tx-pool-price-limit` default: the pool's minimum tip, in wei. */
export const POOL_MIN_TIP = 1n
/** coreth `rpc-tx-fee-cap` default: the most `gasPrice * gas` one transaction may cost, in AVAX. */
export const RPC_TX_FEE_CAP = 100
/** EIP-3860 `MaxInitCodeSize`. */
export const MAX_INIT_CODE_SIZE = 49_152

/**
 * What the checks that need neither state nor sender read of a transaction. Made from a decoded
 * transaction ({@link txShape}) or, when this chain's decoder refuses it, from its raw RLP
 * fields ({@link rawTxShape}).
 */
export type TxShape = {
  type: number
  /** Encoded size in bytes (geth's `tx.Size()`). */
  size: number
  gasLimit: bigint
  feeCap: bigint
  tipCap: bigint
  isCreate: boolean
  dataLength: number
  /** False only for a legacy transaction signed without a chain id (v = 27 or 28). */
  replayProtected: boolean
  /** What the chain's unprotected-transaction policy reads, when `replayProtected` is false. */
  unprotected?: UnprotectedTx
}

export function txShape(tx: TypedTransaction): TxShape {
  const { feeCap, tipCap } = txFees(tx)
  const replayProtected = tx.type !== TransactionType.Legacy || tx.v === undefined || tx.v >= 35n
  return {
    type: tx.type,
    size: tx.serialize().length,
    gasLimit: tx.gasLimit,
    feeCap,
    tipCap,
    isCreate: tx.to === undefined,
    dataLength: tx.data.length,
    replayProtected,
    unprotected: replayProtected ? undefined : { hash: bytesToHex(tx.hash()) as Hex, nonce: tx.nonce, r: tx.r ?? 0n, s: tx.s ?? 0n },
  }
}

/**
 * The shape and chain id of a legacy, access-list or dynamic-fee transaction read from its RLP
 * fields, for what ethereumjs refuses to decode but coreth decodes and then refuses with a pool
 * error (a chain id other than this chain's, a tip above the fee cap); undefined when `raw` is
 * no such transaction.
 */
export function rawTxShape(raw: Uint8Array): { shape: TxShape; chainId: bigint | undefined } | undefined {
  try {
    const typed = raw.length > 0 && raw[0]! <= 0x7f
    const type = typed ? raw[0]! : TransactionType.Legacy
    const fields = RLP.decode(typed ? raw.subarray(1) : raw)
    if (!Array.isArray(fields)) return undefined
    const bytes = (i: number) => {
      const f = fields[i]
      if (!(f instanceof Uint8Array)) throw new Error('not a scalar')
      return f
    }
    const int = (i: number) => bytesToBigInt(bytes(i))
    let shape: Omit<TxShape, 'type' | 'size'>
    let chainId: bigint | undefined
    if (type === TransactionType.Legacy && fields.length === 9) {
      const v = int(6)
      chainId = v >= 35n ? (v - 35n) / 2n : undefined
      const unprotected = chainId === undefined ? { hash: bytesToHex(keccak_256(raw)) as Hex, nonce: int(0), r: int(7), s: int(8) } : undefined
      shape = { feeCap: int(1), tipCap: int(1), gasLimit: int(2), isCreate: bytes(3).length === 0, dataLength: bytes(5).length, replayProtected: chainId !== undefined, unprotected }
    } else if (type === TransactionType.AccessListEIP2930 && fields.length === 11) {
      chainId = int(0)
      shape = { feeCap: int(2), tipCap: int(2), gasLimit: int(3), isCreate: bytes(4).length === 0, dataLength: bytes(6).length, replayProtected: true }
    } else if (type === TransactionType.FeeMarketEIP1559 && fields.length === 12) {
      chainId = int(0)
      shape = { tipCap: int(2), feeCap: int(3), gasLimit: int(4), isCreate: bytes(5).length === 0, dataLength: bytes(7).length, replayProtected: true }
    } else return undefined
    return { shape: { ...shape, type, size: raw.length }, chainId }
  } catch {
    return undefined
  }
}

/**
 * The checks before the signature is recovered, in coreth's order: ethapi `SubmitTransaction`
 * (fee cap, replay protection unless the chain's policy allows the transaction), then txpool `ValidateTransaction` up to `types.Sender` (size,
 * init code, block gas limit, tip above fee cap). Transactions of an impersonated sender (sent
 * unsigned through eth_sendTransaction) skip the fee cap: anvil users send those with whatever
 * fees they like.
 */
export function validateTxBasics(chain: EvmChain, tx: TxShape, options: { unsigned: boolean }): void {
  const fee = tx.feeCap * tx.gasLimit
  if (!options.unsigned && Number(fee) / 1e18 > RPC_TX_FEE_CAP) throw txPoolErrors.feeAboveCap({ feeWei: fee, capEther: RPC_TX_FEE_CAP })
  if (!tx.replayProtected && !(tx.unprotected && unprotectedAllowed(chain.unprotectedTxs, tx.unprotected))) throw txPoolErrors.onlyReplayProtected()
  if (tx.type === TransactionType.BlobEIP4844 || tx.type === TransactionType.EOACodeEIP7702) throw txPoolErrors.txTypeNotSupported()
  if (tx.size > TX_MAX_SIZE) throw txPoolErrors.oversizedData({ size: tx.size, limit: TX_MAX_SIZE })
  if (tx.isCreate && tx.dataLength > MAX_INIT_CODE_SIZE && isShanghai(chain))
    throw txPoolErrors.maxInitCodeSizeExceeded({ size: tx.dataLength, limit: MAX_INIT_CODE_SIZE })
  const gasLimit = chain.head.block.header.gasLimit
  if (tx.gasLimit > gasLimit) throw txPoolErrors.exceedsBlockGasLimit({ gas: tx.gasLimit, limit: gasLimit })
  if (tx.feeCap < tx.tipCap) throw txPoolErrors.tipAboveFeeCap()
}

function isShanghai(chain: EvmChain): boolean {
  const at = chain.common.hardforkTimestamp('shanghai')
  return at !== null && chain.head.block.header.timestamp >= at
}

/** What a transaction can cost at most: geth's `tx.Cost()`, `gas * gasFeeCap + value`. */
function maxCost(tx: TypedTransaction): bigint {
  return tx.gasLimit * txFees(tx).feeCap + tx.value
}

/**
 * Checks a transaction against the live state and the pool, in the order coreth's txpool does
 * (`legacypool.Add`: known, `ValidateTransaction`, `ValidateTransactionWithState`, replacement),
 * with its messages. Runs under the chain lock. Two refusals come after the pool's own checks,
 * where a real node would keep the transaction waiting: in automine mode a nonce gap, and in
 * every mode a fee cap below the next block's base fee. They use the state transition's wording,
 * since the transaction could not be mined by the block this call waits for.
 */
export async function validateForPool(
  chain: EvmChain,
  tx: TypedTransaction,
  from: Hex,
  options: { automine: boolean; hash: Hex },
): Promise<void> {
  if (chain.pool.byHash(options.hash)) throw txPoolErrors.alreadyKnown()
  const unsigned = isUnsignedTx(tx)
  const shape = txShape(tx)
  validateTxBasics(chain, shape, { unsigned })
  let intrinsic = tx.getIntrinsicGas()
  if (chain.hooks.intrinsicGasDelta && 'accessList' in tx) {
    try {
      intrinsic += chain.hooks.intrinsicGasDelta(chain, accessListOf(tx.accessList))
    } catch (error) {
      throw new TxRejectedError((error as Error).message)
    }
  }
  if (tx.gasLimit < intrinsic) throw txPoolErrors.intrinsicGasTooLow({ from, gas: tx.gasLimit, needed: intrinsic })
  // coreth's tx-pool-price-limit; an impersonated sender's unsigned transaction may pay no tip.
  if (!unsigned && shape.tipCap < POOL_MIN_TIP) throw txPoolErrors.tipBelowMinimum({ tip: shape.tipCap, minTip: POOL_MIN_TIP })

  const account = await chain.stateManager.getAccount(createAddressFromString(from))
  const stateNonce = account?.nonce ?? 0n
  if (tx.nonce < stateNonce) throw txPoolErrors.nonceTooLow({ next: stateNonce, txNonce: tx.nonce })

  const balance = account?.balance ?? 0n
  const cost = maxCost(tx)
  if (balance < cost) throw txPoolErrors.insufficientFunds({ balance, cost })
  const replaced = chain.pool.get(from, tx.nonce)
  const spent = chain.pool.pendingCost(from)
  if (replaced) {
    const bump = cost - maxCost(replaced.tx)
    if (balance < spent + bump) throw txPoolErrors.insufficientFundsReplacement({ balance, queued: spent, bump })
  } else if (balance < spent + cost) {
    throw txPoolErrors.insufficientFundsQueued({ balance, queued: spent, cost })
  }
  // Subnet-EVM's tx allow list: the last check of ValidateTransactionWithState.
  const refusal = await chain.hooks.admissionRefusal?.(chain, from)
  if (refusal) throw new TxRejectedError(refusal)

  if (replaced) {
    // geth's `list.Add`: both caps strictly higher than the old ones and at least PriceBump% higher.
    const old = txFees(replaced.tx)
    const threshold = (v: bigint) => (v * (100n + PRICE_BUMP_PERCENT)) / 100n
    if (old.feeCap >= shape.feeCap || old.tipCap >= shape.tipCap || shape.feeCap < threshold(old.feeCap) || shape.tipCap < threshold(old.tipCap))
      throw txPoolErrors.replacementUnderpriced()
  }

  const expected = chain.pool.nextNonce(from, stateNonce)
  if (options.automine && tx.nonce > expected)
    throw stateTransitionErrors.nonceTooHigh({ from, txNonce: tx.nonce, stateNonce: expected })

  // coreth's pool would hold this transaction until the base fee falls to its fee cap; here the
  // block it waits for (automine) could not include it, so it is refused with the message the
  // block build would give.
  const baseFee = chain.nextBaseFee()
  if (shape.feeCap < baseFee) throw stateTransitionErrors.feeCapTooLow({ from, maxFeePerGas: shape.feeCap, baseFee })
}
