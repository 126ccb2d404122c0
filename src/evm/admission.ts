import { Capability, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { createAddressFromString, toChecksumAddress } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from './chain.js'
import { TxRejectedError } from './errors.js'
import { txFees } from './pool.js'

/** geth `txMaxSize`: 4 slots of 32 KiB. */
export const TX_MAX_SIZE = 4 * 32 * 1024
/** geth legacypool default `PriceBump`: a replacement must pay 10% more. */
export const PRICE_BUMP_PERCENT = 10n

const checksum = (a: Hex) => toChecksumAddress(a)

/**
 * Checks a transaction against the live state and the pool, in the order geth's
 * `txpool.ValidateTransaction` and legacypool `validateTx` do, with their messages. Runs under
 * the chain lock. `automine` refuses nonce gaps: the transaction could never be mined before
 * the call returns.
 */
export async function validateForPool(
  chain: EvmChain,
  tx: TypedTransaction,
  from: Hex,
  options: { automine: boolean; hash: Hex },
): Promise<void> {
  if (tx.type === TransactionType.BlobEIP4844 || tx.type === TransactionType.EOACodeEIP7702)
    throw new TxRejectedError('transaction type not supported')
  if (!tx.supports(Capability.EIP155ReplayProtection) && tx.type === TransactionType.Legacy && tx.isSigned() && !chain.canSendUnsigned(from))
    throw new TxRejectedError('only replay-protected (EIP-155) transactions allowed over RPC')
  if (tx.serialize().length > TX_MAX_SIZE) throw new TxRejectedError('oversized data')
  if (tx.gasLimit > chain.feeConfig.gasLimit) throw new TxRejectedError('exceeds block gas limit')
  const { feeCap, tipCap } = txFees(tx)
  if (feeCap < tipCap) throw new TxRejectedError('max priority fee per gas higher than max fee per gas')
  const intrinsic = tx.getIntrinsicGas()
  if (tx.gasLimit < intrinsic)
    throw new TxRejectedError(`intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`)
  if (chain.pool.byHash(options.hash)) throw new TxRejectedError('already known')

  const account = await chain.stateManager.getAccount(createAddressFromString(from))
  const stateNonce = account?.nonce ?? 0n
  if (tx.nonce < stateNonce)
    throw new TxRejectedError(`nonce too low: address ${checksum(from)}, tx: ${tx.nonce} state: ${stateNonce}`)
  const expected = chain.pool.nextNonce(from, stateNonce)
  if (options.automine && tx.nonce > expected)
    throw new TxRejectedError(`nonce too high: address ${checksum(from)}, tx: ${tx.nonce} state: ${expected}`)

  const baseFee = chain.nextBaseFee()
  if (feeCap < baseFee)
    throw new TxRejectedError(
      `max fee per gas less than block base fee: address ${checksum(from)}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`,
    )

  const replaced = chain.pool.get(from, tx.nonce)
  if (replaced) {
    const old = txFees(replaced.tx)
    const bump = (v: bigint) => (v * (100n + PRICE_BUMP_PERCENT)) / 100n
    if (feeCap < bump(old.feeCap) || tipCap < bump(old.tipCap))
      throw new TxRejectedError('replacement transaction underpriced')
  }

  const balance = account?.balance ?? 0n
  const cost = tx.gasLimit * feeCap + tx.value
  const replacedCost = replaced ? replaced.tx.gasLimit * txFees(replaced.tx).feeCap + replaced.tx.value : 0n
  const pendingCost = chain.pool.pendingCost(from) - replacedCost
  if (balance < cost + pendingCost)
    throw new TxRejectedError(
      `insufficient funds for gas * price + value: address ${checksum(from)} have ${balance - pendingCost < 0n ? 0n : balance - pendingCost} want ${cost}`,
    )
}
