import { BaseError } from '../core/errors.js'

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
