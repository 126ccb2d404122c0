import { BaseError } from '../core/errors.js'

/**
 * A transaction a chain refused. `message` is the text avalanchego (or coreth) returns, the `%w`
 * chain of the real verifier; `code` names the innermost sentinel, so tests and API layers need
 * not parse text. Each chain names its own subclass.
 */
export class TxRefusedError extends BaseError {
  override name = 'TxRefusedError'
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.code = code
  }
}
