/**
 * The chain's refusals, with the messages of the real node (coreth's `core`, `core/txpool` and
 * `internal/ethapi`). They live in the evm layer, which raises them; the eth JSON-RPC dialect
 * sends them as -32000 with the short message (`toRpcError` maps any error carrying its own
 * `code`). Addresses print as Go's `%v` of `common.Address` (EIP-55 checksummed); integers print
 * in decimal.
 */
import { toChecksumAddress } from '@ethereumjs/util'
import { BaseError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'

/**
 * A transaction the chain refuses to admit or execute. The message is the real node's
 * (geth/coreth txpool and state-transition wording); the eth dialect sends it as -32000.
 */
export class TxRejectedError extends BaseError {
  override name = 'TxRejectedError'
  static readonly code = -32000
  readonly code = -32000
}

/** A block, transaction or state the caller named does not exist on this chain. */
export class UnknownBlockError extends BaseError {
  override name = 'UnknownBlockError'
  static readonly code = -32000
  readonly code = -32000
}

type Address = string
type Int = bigint | number

/** Go's `%v` of a `common.Address`: the EIP-55 checksummed hex. */
export function formatAddress(address: Address): string {
  return toChecksumAddress(address.toLowerCase())
}

/**
 * Refusals of the state transition (coreth `core/state_transition.go`): what a block build or
 * `eth_call` / `eth_estimateGas` says. `eth_call` wraps them as `err: … (supplied gas N)`.
 */
export const stateTransitionErrors = {
  nonceTooLow: (a: { from: Address; txNonce: Int; stateNonce: Int }) =>
    new TxRejectedError(`nonce too low: address ${formatAddress(a.from)}, tx: ${a.txNonce} state: ${a.stateNonce}`),
  nonceTooHigh: (a: { from: Address; txNonce: Int; stateNonce: Int }) =>
    new TxRejectedError(`nonce too high: address ${formatAddress(a.from)}, tx: ${a.txNonce} state: ${a.stateNonce}`),
  nonceMax: (a: { from: Address; nonce: Int }) =>
    new TxRejectedError(`nonce has max value: address ${formatAddress(a.from)}, nonce: ${a.nonce}`),
  senderNotEOA: (a: { from: Address; codeHash: Hex }) =>
    new TxRejectedError(`sender not an eoa: address ${formatAddress(a.from)}, codehash: ${a.codeHash.toLowerCase()}`),
  tipAboveFeeCap: (a: { from: Address; maxPriorityFeePerGas: Int; maxFeePerGas: Int }) =>
    new TxRejectedError(
      `max priority fee per gas higher than max fee per gas: address ${formatAddress(a.from)}, maxPriorityFeePerGas: ${a.maxPriorityFeePerGas}, maxFeePerGas: ${a.maxFeePerGas}`,
    ),
  feeCapTooLow: (a: { from: Address; maxFeePerGas: Int; baseFee: Int }) =>
    new TxRejectedError(
      `max fee per gas less than block base fee: address ${formatAddress(a.from)}, maxFeePerGas: ${a.maxFeePerGas}, baseFee: ${a.baseFee}`,
    ),
  insufficientFunds: (a: { from: Address; have: Int; want: Int }) =>
    new TxRejectedError(`insufficient funds for gas * price + value: address ${formatAddress(a.from)} have ${a.have} want ${a.want}`),
  /**
   * The value alone is more than the balance. The state transition names the sender; the gas
   * estimator's early check (`value >= balance`) returns the bare message: leave `from` out.
   */
  insufficientFundsForTransfer: (a: { from?: Address } = {}) =>
    new TxRejectedError(
      a.from === undefined ? 'insufficient funds for transfer' : `insufficient funds for transfer: address ${formatAddress(a.from)}`,
    ),
  intrinsicGasTooLow: (a: { have: Int; want: Int }) => new TxRejectedError(`intrinsic gas too low: have ${a.have}, want ${a.want}`),
  maxInitCodeSizeExceeded: (a: { size: Int; limit: Int }) =>
    new TxRejectedError(`max initcode size exceeded: code size ${a.size} limit ${a.limit}`),
  gasLimitReached: () => new TxRejectedError('gas limit reached'),
} as const

/**
 * `eth_sendRawTransaction` / `eth_sendTransaction` refusals (coreth `core/txpool/validation.go`,
 * `legacypool`, `txpool.go`, `internal/ethapi/api.go`), in the order coreth checks them.
 */
export const txPoolErrors = {
  /** A blob (type 3) tx: no coreth subpool takes it. A set-code (type 4) tx fails earlier, in decoding, with the same text. */
  txTypeNotSupported: () => new TxRejectedError('transaction type not supported'),
  /** A signature that does not recover, including a wrong chain id: the pool hides the signer's reason. */
  invalidSender: () => new TxRejectedError('invalid sender'),
  oversizedData: (a: { size: Int; limit: Int }) => new TxRejectedError(`oversized data: transaction size ${a.size}, limit ${a.limit}`),
  maxInitCodeSizeExceeded: (a: { size: Int; limit: Int }) =>
    new TxRejectedError(`max initcode size exceeded: code size ${a.size}, limit ${a.limit}`),
  exceedsBlockGasLimit: (a: { gas: Int; limit: Int }) =>
    new TxRejectedError(`exceeds block gas limit: tx gas (${a.gas}) > current max gas (${a.limit})`),
  feeCapVeryHigh: () => new TxRejectedError('max fee per gas higher than 2^256-1'),
  tipVeryHigh: () => new TxRejectedError('max priority fee per gas higher than 2^256-1'),
  tipAboveFeeCap: () => new TxRejectedError('max priority fee per gas higher than max fee per gas'),
  intrinsicGasTooLow: (a: { from: Address; gas: Int; needed: Int }) =>
    new TxRejectedError(`intrinsic gas too low: address ${formatAddress(a.from)} tx gas (${a.gas}), minimum needed ${a.needed}`),
  tipBelowMinimum: (a: { tip: Int; minTip: Int }) =>
    new TxRejectedError(`transaction underpriced: gas tip cap ${a.tip}, minimum needed ${a.minTip}`),
  feeCapBelowPoolMinimum: (a: { from: Address; feeCap: Int; minFee: Int }) =>
    new TxRejectedError(
      `transaction underpriced: address ${formatAddress(a.from)} have gas fee cap (${a.feeCap}) < pool minimum fee cap (${a.minFee})`,
    ),
  nonceTooLow: (a: { next: Int; txNonce: Int }) => new TxRejectedError(`nonce too low: next nonce ${a.next}, tx nonce ${a.txNonce}`),
  insufficientFunds: (a: { balance: bigint; cost: bigint }) =>
    new TxRejectedError(
      `insufficient funds for gas * price + value: balance ${a.balance}, tx cost ${a.cost}, overshot ${a.cost - a.balance}`,
    ),
  insufficientFundsQueued: (a: { balance: bigint; queued: bigint; cost: bigint }) =>
    new TxRejectedError(
      `insufficient funds for gas * price + value: balance ${a.balance}, queued cost ${a.queued}, tx cost ${a.cost}, overshot ${a.queued + a.cost - a.balance}`,
    ),
  insufficientFundsReplacement: (a: { balance: bigint; queued: bigint; bump: bigint }) =>
    new TxRejectedError(
      `insufficient funds for gas * price + value: balance ${a.balance}, queued cost ${a.queued}, tx bumped ${a.bump}, overshot ${a.queued + a.bump - a.balance}`,
    ),
  alreadyKnown: () => new TxRejectedError('already known'),
  replacementUnderpriced: () => new TxRejectedError('replacement transaction underpriced'),
  underpriced: () => new TxRejectedError('transaction underpriced'),
  poolFull: () => new TxRejectedError('txpool is full'),
  onlyReplayProtected: () => new TxRejectedError('only replay-protected (EIP-155) transactions allowed over RPC'),
  /** `gasPrice * gas` above the RPC fee cap (coreth default: 100, printed as ether). */
  feeAboveCap: (a: { feeWei: bigint; capEther: number }) =>
    new TxRejectedError(
      `tx fee (${formatFixed2(Number(a.feeWei) / 1e18)} ether) exceeds the configured cap (${formatFixed2(a.capEther)} ether)`,
    ),
} as const

/** The signer's own wording of a chain id mismatch (libevm `core/types/transaction_signing.go`). */
export function invalidChainIdError(a: { have: Int; want: Int }): TxRejectedError {
  return new TxRejectedError(`invalid chain id for signer: have ${a.have} want ${a.want}`)
}

/** Go's `%.2f`: round half to even on the exact binary value (JS `toFixed` rounds half up). */
function formatFixed2(x: number): string {
  const scaled = x * 100
  if (Number.isFinite(scaled) && Math.abs(scaled) < 2 ** 52 && scaled - Math.trunc(scaled) === 0.5 * Math.sign(scaled)) {
    const down = Math.trunc(scaled)
    const n = down % 2 === 0 ? down : down + Math.sign(scaled)
    return (n / 100).toFixed(2)
  }
  return x.toFixed(2)
}
