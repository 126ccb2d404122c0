import { createTxFromRLP, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import type { Common } from '@ethereumjs/common'
import type { Hex } from '../core/hex.js'
import type { TxSharing } from './txSharing.js'
import { createUnsignedTx, isUnsignedTx } from './unsignedTx.js'

/**
 * `tx` on the rules of the block being built (`rules`, the chain's `Common` moved to that block):
 * a transaction is built on the rules of the head when it arrives, and one that waits across a
 * fork (sent before it activates, mined after) is made again on the new rules, as geth's state
 * transition reads the block's rules (intrinsic gas, EIP-3860's initcode limit and word gas).
 * Same bytes, hash and sender; the same object when the rules did not change.
 */
export function onBlockRules(tx: TypedTransaction, from: Hex, rules: Common, sharing: TxSharing): TypedTransaction {
  if (tx.common.hardfork() === rules.hardfork()) return tx
  if (isUnsignedTx(tx)) return createUnsignedTx(sharing.common(), tx.toJSON() as TypedTxData, from, sharing)
  const remade = sharing.freeze(sharing.keepSender(createTxFromRLP(tx.serialize(), sharing.options())))
  sharing.keepSerialized(remade)
  return remade
}
