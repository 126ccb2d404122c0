import { createTx, TransactionType, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { createAddressFromString, type Address } from '@ethereumjs/util'
import type { Common } from '@ethereumjs/common'
import type { Hex } from '../core/hex.js'
import type { TxSharing } from './txSharing.js'

const unsignedTxs = new WeakSet<TypedTransaction>()

/** True for a transaction made by {@link createUnsignedTx} (an impersonated sender, or an estimate). */
export function isUnsignedTx(tx: TypedTransaction): boolean {
  return unsignedTxs.has(tx)
}

/**
 * A transaction from an account whose key we do not hold (impersonation, estimation). It carries
 * a stand-in signature (r = the sender, s = 1) so it hashes and serialises like any other,
 * and reports `from` as its sender instead of recovering one. Frozen like a decoded transaction,
 * by `sharing` when the chain keeps it (a send, not an estimate).
 */
export function createUnsignedTx(common: Common, data: TypedTxData, from: Hex, sharing?: TxSharing): TypedTransaction {
  const sender: Address = createAddressFromString(from)
  const r = BigInt(from) === 0n ? 1n : BigInt(from)
  const type = Number(data.type ?? 0)
  const v = type === TransactionType.Legacy ? common.chainId() * 2n + 35n : 0n
  const tx = createTx({ ...data, v, r, s: 1n } as TypedTxData, { common, freeze: false })
  Object.defineProperty(tx, 'getSenderAddress', { value: () => sender })
  Object.defineProperty(tx, 'isSigned', { value: () => true })
  const frozen = (sharing ? sharing.freeze(tx) : Object.freeze(tx)) as TypedTransaction
  unsignedTxs.add(frozen)
  return frozen
}
