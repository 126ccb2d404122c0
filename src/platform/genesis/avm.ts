import { sha256 } from '../../core/sha256.js'
import { EMPTY_ID, idFromString } from '../../core/ids.js'
import { CODEC_VERSION, Writer, encodeUnsignedTx } from '../codec.js'
import type { CreateAssetTx, TransferOutput } from '../txs.js'
import { compareBytes, concat, outputSortBytes } from '../xchain/bytes.js'
import { AVAX_ASSET } from '../xchain/chain.js'
import type { GenesisConfig } from './config.js'

/**
 * The X-Chain's genesis CreateAssetTx (`avm.NewGenesis` for the one asset `AVAX`): the allocations
 * with an X amount, sorted by (amount, address) as `genesis.FromConfig` sorts them, give the fixed
 * cap holders (their outputs then sorted by bytes, `InitialState.Sort`) and the memo (their eth
 * addresses, concatenated).
 */
export function avaxGenesisAsset(networkId: number, config: GenesisConfig): CreateAssetTx {
  const holders = config.allocations
    .filter((a) => a.initialAmount > 0n)
    .sort((a, b) => (a.initialAmount < b.initialAmount ? -1 : a.initialAmount > b.initialAmount ? 1 : compareBytes(a.avaxAddr, b.avaxAddr)))
  const outputs: TransferOutput[] = holders.map((h) => ({ type: 'TransferOutput', amount: h.initialAmount, owners: { locktime: 0n, threshold: 1, addrs: [h.avaxAddr] } }))
  outputs.sort((a, b) => compareBytes(outputSortBytes(a), outputSortBytes(b)))
  const memo = new Uint8Array(holders.length * 20)
  holders.forEach((h, i) => memo.set(h.ethAddr, i * 20))
  return {
    type: 'CreateAssetTx',
    base: { networkId, blockchainId: idFromString(EMPTY_ID), outputs: [], inputs: [], memo },
    ...AVAX_ASSET,
    initialStates: outputs.length > 0 ? [{ fxIndex: 0, outputs }] : [],
  }
}

/**
 * `avm.Genesis` bytes (the X-Chain CreateChainTx's genesis data): codec version, one
 * `GenesisAsset` = the alias `AVAX` then the CreateAssetTx inline (no type id).
 */
export function avmGenesisBytes(asset: CreateAssetTx): Uint8Array {
  const head = new Writer().u16(CODEC_VERSION).u32(1).str('AVAX').finish()
  // encodeUnsignedTx writes codec version (2 bytes) + type id (4 bytes) before the body.
  return concat(head, encodeUnsignedTx('X', asset).subarray(6))
}

/** `genesis.AVAXAssetID`: the id of the genesis CreateAssetTx as a signed tx without credentials. */
export function avaxAssetIdOf(asset: CreateAssetTx): Uint8Array {
  // No credentials: a u32 count of 0 after the unsigned tx.
  return sha256(concat(encodeUnsignedTx('X', asset), new Uint8Array(4)))
}
