import type { Hex } from '../core/hex.js'
import { InvalidArgumentError } from '../core/errors.js'

/**
 * Which transactions without replay protection (legacy, signed with v = 27 or 28, no chain id)
 * the node's RPC accepts, from the chain's config.json as coreth and subnet-EVM read it
 * (`allow-unprotected-txs`, `allow-unprotected-tx-hashes`). Whatever the config, `UnprotectedAllowed`
 * (eth/api_backend.go) also lets through Nick's method, a transaction with nonce 0 whose r equals
 * its s: how keyless deployers (TeleporterMessenger's among them) are published.
 */
export type UnprotectedTxPolicy = {
  /** `allow-unprotected-txs`: every unprotected transaction is accepted. */
  allowAll: boolean
  /** `allow-unprotected-tx-hashes`: these transactions are accepted (lower-case hex). */
  hashes: ReadonlySet<string>
}

/** EIP-1820's registry deployment, in both VMs' default `allow-unprotected-tx-hashes`. */
export const EIP1820_DEPLOYMENT_TX_HASH = '0xfefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e'

/** coreth's and subnet-EVM's defaults (`config.NewDefaultConfig`). */
export const DEFAULT_UNPROTECTED_TX_POLICY: UnprotectedTxPolicy = { allowAll: false, hashes: new Set([EIP1820_DEPLOYMENT_TX_HASH]) }

/** What an unprotected transaction shows the policy. */
export type UnprotectedTx = { hash: Hex; nonce: bigint; r: bigint; s: bigint }

/** coreth's `UnprotectedAllowed`: the config allows all, lists its hash, or it is Nick's method. */
export function unprotectedAllowed(policy: UnprotectedTxPolicy, tx: UnprotectedTx): boolean {
  if (policy.allowAll) return true
  if (policy.hashes.has(tx.hash.toLowerCase())) return true
  return tx.nonce === 0n && tx.r === tx.s
}

/**
 * The EVM part of a chain's config.json (the file avalanchego reads from its chain config
 * directory) that l1sim follows: the two keys on unprotected transactions.
 */
export type EvmChainConfig = {
  'allow-unprotected-txs'?: boolean
  /** Transaction hashes (`0x` + 64 hex digits); replaces the default list (EIP-1820's deployment) when given. */
  'allow-unprotected-tx-hashes'?: string[]
}

/** The policy a chain config gives, checked as the node's JSON decoding would refuse it. */
export function unprotectedTxPolicy(config: EvmChainConfig | undefined, where: string): UnprotectedTxPolicy {
  if (config === undefined) return DEFAULT_UNPROTECTED_TX_POLICY
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new InvalidArgumentError(`${where}: the chain config must be an object`)
  const allowAll = config['allow-unprotected-txs']
  if (allowAll !== undefined && typeof allowAll !== 'boolean') throw new InvalidArgumentError(`${where}: allow-unprotected-txs must be a boolean`)
  const hashes = config['allow-unprotected-tx-hashes']
  if (hashes !== undefined && (!Array.isArray(hashes) || hashes.some((h) => typeof h !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(h))))
    throw new InvalidArgumentError(`${where}: allow-unprotected-tx-hashes must be a list of 32-byte hex hashes`)
  return {
    allowAll: allowAll ?? false,
    hashes: hashes === undefined ? DEFAULT_UNPROTECTED_TX_POLICY.hashes : new Set(hashes.map((h) => h.toLowerCase())),
  }
}
