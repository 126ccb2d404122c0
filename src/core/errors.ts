/**
 * The error hierarchy. Every error the project throws is a subclass of {@link BaseError}:
 * a short message, optional details and cause. Domain errors (nonce too low, block not found,
 * snapshot not found) live here or in their layer; protocol edges (eth JSON-RPC, node JSON-RPC,
 * HTTP) each own exactly one mapping from these classes to their wire form.
 */
export type BaseErrorOptions = {
  cause?: unknown
  details?: string
}

export class BaseError extends Error {
  override name = 'BaseError'
  /** The message without details, as shown on the wire. */
  readonly shortMessage: string
  readonly details: string | undefined

  constructor(shortMessage: string, options: BaseErrorOptions = {}) {
    super(options.details ? `${shortMessage}\n\nDetails: ${options.details}` : shortMessage, {
      cause: options.cause,
    })
    this.shortMessage = shortMessage
    this.details = options.details
  }
}

/** A caller passed a value of the wrong type or shape. */
export class InvalidArgumentError extends BaseError {
  override name = 'InvalidArgumentError'
}

/** A string failed to decode (cb58 checksum, bech32, hex). */
export class DecodeError extends BaseError {
  override name = 'DecodeError'
}

/** A block, transaction, snapshot or other thing asked for by id does not exist. */
export class NotFoundError extends BaseError {
  override name = 'NotFoundError'
}

/** The request is well-formed but the network refuses it in its current state. */
export class InvalidStateError extends BaseError {
  override name = 'InvalidStateError'
}
