import { toChecksumAddress } from '@ethereumjs/util'
import type { EvmChain } from '../../../evm/chain.js'
import type { PoolTx } from '../../../evm/pool.js'

/** Pool transactions split into executable and queued, read under the chain lock. */
export function poolContent(chain: EvmChain): Promise<{ pending: PoolTx[]; queued: PoolTx[] }> {
  return chain.lock.run(async () => {
    const nonces = new Map<string, bigint>()
    for (const e of chain.pool.all()) if (!nonces.has(e.from)) nonces.set(e.from, await chain.liveNonce(e.from))
    return chain.pool.content((from) => nonces.get(from) ?? 0n)
  })
}

/** geth's `map[address]map[nonce]T` with checksummed addresses and decimal nonces. */
export function groupBySender<T>(format: (entry: PoolTx) => T) {
  return (entries: PoolTx[]): Record<string, Record<string, T>> => {
    const out: Record<string, Record<string, T>> = {}
    for (const e of entries) (out[toChecksumAddress(e.from)] ??= {})[e.nonce.toString()] = format(e)
    return out
  }
}
