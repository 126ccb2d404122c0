import { InvalidArgumentError } from '../../core/errors.js'

/**
 * A genesis, upgrade or precompile configuration a subnet-EVM node would refuse. The short message
 * is the node's own error string (with its wrapping, e.g. `failed to verify genesis: …`), so it can
 * be shown to clients as it is.
 */
export class ConfigError extends InvalidArgumentError {
  override name = 'ConfigError'
}
