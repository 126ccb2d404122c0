import type { Hex } from '../../core/hex.js'
import { idFromString, idToString } from '../../core/ids.js'
import { CODEC_VERSION, Writer } from '../codec.js'
import type { Utxo } from '../txs.js'
import { concat, hexKey } from './bytes.js'
import type { TxEffects, XStateView } from './executor.js'
import type { AssetRecord, XState } from './state.js'

/** avm `StandardBlock`'s type id: after the 5 txs and the 15 types of secp256k1fx, nftfx and propertyfx. */
export const X_STANDARD_BLOCK_TYPE_ID = 20

/** A view of the state plus the effects of the txs already placed in the block being built. */
export class Overlay implements XStateView {
  readonly #state: XState
  readonly #consumed = new Set<Hex>()
  readonly #produced = new Map<Hex, Utxo>()
  readonly #assets = new Map<string, AssetRecord>()
  readonly #txs = new Set<string>()
  readonly #imported = new Set<Hex>()

  constructor(state: XState) {
    this.#state = state
  }

  getUtxo(key: Hex): Utxo | undefined {
    if (this.#consumed.has(key)) return undefined
    return this.#produced.get(key) ?? this.#state.getUtxo(key)?.utxo
  }

  getAsset(assetId: string): AssetRecord | undefined {
    return this.#assets.get(assetId) ?? this.#state.getAsset(assetId)
  }

  hasTx(txId: string): boolean {
    return this.#txs.has(txId) || this.#state.getTx(txId) !== undefined
  }

  importedInBlock(key: Hex): boolean {
    return this.#imported.has(key)
  }

  apply(effects: TxEffects): void {
    for (const k of effects.consumed) {
      const key = hexKey(k)
      if (!this.#produced.delete(key)) this.#consumed.add(key)
    }
    for (const { key, utxo } of effects.produced) this.#produced.set(hexKey(key), utxo)
    if (effects.asset) this.#assets.set(effects.asset.assetId, { ...effects.asset, height: 0 })
    for (const k of effects.imported?.keys ?? []) this.#imported.add(hexKey(k))
    this.#txs.add(idToString(effects.txId))
  }
}

/**
 * avm `StandardBlock` bytes: codec version, type id, parent id, height, time, merkle root (empty),
 * then the txs (each `txs.Tx` without its own codec version).
 */
export function encodeBlock(parentId: string, height: number, timestamp: number, txBytes: Uint8Array[]): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION).u32(X_STANDARD_BLOCK_TYPE_ID)
  w.fixed(idFromString(parentId), 32, 'a block id').u64(BigInt(height)).u64(BigInt(timestamp)).fixed(new Uint8Array(32), 32, 'a merkle root')
  w.u32(txBytes.length)
  return concat(w.finish(), ...txBytes.map((b) => b.subarray(2)))
}
