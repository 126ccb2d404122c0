import { InvalidArgumentError } from '../../core/errors.js'
import { EMPTY_ID, idFromString, idToString } from '../../core/ids.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../../core/presets.js'
import type { AtomicElement, SharedMemory } from '../atomic.js'
import { decodeUtxo, encodeUtxo, utxoId } from '../codec.js'
import type { Utxo } from '../txs.js'
import { ownersOf } from '../txs.js'
import type { AtomicMemory } from './executor.js'

/**
 * The P-chain's {@link AtomicMemory} over the network's {@link SharedMemory}, laid out as
 * avalanchego's platformvm writes it (`ImportTx.AtomicOps` / `ExportTx.AtomicOps`), so that the
 * X-chain (`XChain`) and the C-chain's atomic txs (`CChainAtomic`) read what the P-chain exports and the
 * P-chain consumes what they export:
 *
 * - an element's key is the UTXO's input id, `txID.Prefix(outputIndex)` = sha256(u64 BE index ‖ txID)
 *   ({@link utxoId}); the executor names UTXOs `txID:index` (cb58), which is translated here;
 * - its value is the UTXO in the P-chain codec's layout (`encodeUtxo('P', …)`; a TransferOutput is
 *   type id 7 on every chain, so X and C decode the same bytes with their codecs);
 * - its traits are the owner addresses (20 bytes each), which index it for `getUTXOs`/importers.
 *
 * The peer chain must be on the primary network (`verify.SameSubnet`, which platformvm runs on
 * import and export once bootstrapped): by default the preset's X- and C-chains. Any other chain is
 * refused with avalanchego's messages (`same chainID`, `failed to get subnet of "…": not found`,
 * `mismatched subnetIDs`), before shared memory is touched.
 */
export type PChainAtomicOptions = {
  sharedMemory: SharedMemory
  /** Chain ids come from this preset unless given. Default `local`. */
  preset?: NetworkPresetName
  /** The P-chain's blockchain id (cb58). Default the preset's (the empty id). */
  pChainId?: string
  /**
   * The subnet (cb58) of a peer chain, or undefined when unknown. Default: the preset's P-, X- and
   * C-chains are on the primary network, every other chain is unknown.
   */
  subnetOf?: (chainId: string) => string | undefined
}

/** `txID:index` (the executor's `utxoKey`) → the 32-byte shared-memory key (`UTXOID.InputID()`). */
export function sharedMemoryKey(utxoKey: string): Uint8Array {
  const colon = utxoKey.lastIndexOf(':')
  const index = Number(utxoKey.slice(colon + 1))
  if (colon < 0 || !Number.isInteger(index) || index < 0 || index > 0xffffffff)
    throw new InvalidArgumentError(`invalid UTXO key ${utxoKey}: expected txID:index`)
  return utxoId(idFromString(utxoKey.slice(0, colon)), index)
}

/** The shared-memory element of a UTXO the P-chain exports: key = input id, value = P codec bytes, traits = owners. */
export function pchainAtomicElement(utxo: Utxo): AtomicElement {
  return {
    key: utxoId(utxo.txId, utxo.outputIndex),
    value: encodeUtxo('P', utxo),
    traits: ownersOf(utxo.output).addrs.map((a) => a.slice()),
  }
}

export class PChainAtomicMemory implements AtomicMemory {
  readonly sharedMemory: SharedMemory
  readonly pChainId: string
  readonly #subnetOf: (chainId: string) => string | undefined

  constructor(options: PChainAtomicOptions) {
    const preset = NETWORK_PRESETS[options.preset ?? 'local']
    this.sharedMemory = options.sharedMemory
    this.pChainId = options.pChainId ?? preset.pChainId
    const primary = new Set([this.pChainId, preset.xChainId, preset.cChainId])
    this.#subnetOf = options.subnetOf ?? ((id) => (primary.has(id) ? EMPTY_ID : undefined))
  }

  /** `verify.SameSubnet(ctx, peer)`. */
  #checkPeer(peer: string): void {
    if (peer === this.pChainId) throw new InvalidArgumentError('same chainID')
    const subnet = this.#subnetOf(peer)
    if (subnet === undefined) throw new InvalidArgumentError(`failed to get subnet of "${peer}": not found`)
    if (subnet !== EMPTY_ID) throw new InvalidArgumentError(`mismatched subnetIDs; expected "${EMPTY_ID}" got "${subnet}"`)
  }

  get(sourceChain: string, utxoKeys: string[]): Utxo[] {
    this.#checkPeer(sourceChain)
    return this.sharedMemory.get(sourceChain, this.pChainId, utxoKeys.map(sharedMemoryKey)).map((v) => decodeUtxo('P', v))
  }

  consume(sourceChain: string, utxoKeys: string[]): void {
    this.#checkPeer(sourceChain)
    this.sharedMemory.remove(sourceChain, this.pChainId, utxoKeys.map(sharedMemoryKey))
  }

  export(destinationChain: string, utxos: Utxo[]): void {
    this.#checkPeer(destinationChain)
    this.sharedMemory.put(this.pChainId, destinationChain, utxos.map(pchainAtomicElement))
  }

  /**
   * The UTXOs `sourceChain` exported to the P-chain that any of `addresses` owns (what
   * `platform.getUTXOs` with a `sourceChain` returns, and what an import can spend), with their keys.
   */
  importable(sourceChain: string, addresses: readonly Uint8Array[], limit = 1024): Array<{ key: string; utxo: Utxo }> {
    const { values } = this.sharedMemory.indexed(sourceChain, this.pChainId, addresses, new Uint8Array(), new Uint8Array(), limit)
    return values.map((v) => {
      const utxo = decodeUtxo('P', v)
      return { key: `${idToString(utxo.txId)}:${utxo.outputIndex}`, utxo }
    })
  }
}
