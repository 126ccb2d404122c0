import { defineEthMethod } from '../define.js'
import type { Hex } from '../../../core/hex.js'
import { hash32, tuple } from '../../params.js'

/**
 * Serves `anvil_dropTransaction`: removes a transaction from the pool; returns its hash, or null when it was not there.
 */
export const anvil_dropTransaction = defineEthMethod(
  tuple(hash32),
  ([hash], ctx) =>
    ctx.chain.lock.run(() => {
      const key = hash.toLowerCase() as Hex
      if (!ctx.chain.pool.byHash(key)) return null
      ctx.chain.pool.remove(key)
      return key
    }),
)
