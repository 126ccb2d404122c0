import { idToString } from '../core/ids.js'
import { utxoId } from './codec.js'
import type {
  AddDelegatorTx,
  AddPermissionlessDelegatorTx,
  AddPermissionlessValidatorTx,
  AddValidatorTx,
  ExportTx,
  Id,
  TransferableOutput,
  UnsignedTx,
  Utxo,
} from './txs.js'

/**
 * Which UTXOs a transaction creates, at which output indices, as avalanchego's executors
 * number them (`avax.Produce`, avm `utxoGetter` / `Executor`, platformvm executors).
 */

/** A UTXO's key in state and shared memory: `txID.Prefix(outputIndex)` (see {@link utxoId}). */
export function utxoKey(utxo: { txId: Id; outputIndex: number }): Id {
  return utxoId(utxo.txId, utxo.outputIndex)
}

/** `UTXOID.String()`: `<txID cb58>:<outputIndex>`. */
export function formatUtxoId(txId: Id, outputIndex: number): string {
  return `${idToString(txId)}:${outputIndex}`
}

function fromOutputs(txId: Id, outs: TransferableOutput[], offset: number): Utxo[] {
  return outs.map((o, i) => ({ txId, outputIndex: offset + i, assetId: o.assetId, output: o.output }))
}

/**
 * The UTXOs a tx adds to its own chain when accepted: `Outs` at 0..n-1; on the X-chain also
 * CreateAssetTx initial states (asset id = the tx id) and OperationTx mint outputs
 * (MintOutput then TransferOutput per MintOperation), numbered after `Outs`.
 * Stake returns and rewards (P-chain, at RewardValidatorTx) and exports are separate:
 * {@link stakeUtxos}, {@link exportedUtxos}.
 */
export function producedUtxos(txId: Id, tx: UnsignedTx): Utxo[] {
  if (!('base' in tx)) return []
  const utxos = fromOutputs(txId, tx.base.outputs, 0)
  if (tx.type === 'CreateAssetTx') {
    for (const state of tx.initialStates)
      for (const output of state.outputs) utxos.push({ txId, outputIndex: utxos.length, assetId: txId, output })
  } else if (tx.type === 'OperationTx') {
    for (const op of tx.operations)
      for (const output of [op.op.mintOutput, op.op.transferOutput])
        utxos.push({ txId, outputIndex: utxos.length, assetId: op.assetId, output })
  }
  return utxos
}

/**
 * The UTXOs an ExportTx puts into shared memory for the destination chain: each exported
 * output at index `len(Outs) + i`, with the exporting tx's id.
 */
export function exportedUtxos(txId: Id, tx: ExportTx): Utxo[] {
  return fromOutputs(txId, tx.exportedOutputs, tx.base.outputs.length)
}

/** Staker txs whose stake is returned by RewardValidatorTx. */
export type StakerTx = AddValidatorTx | AddDelegatorTx | AddPermissionlessValidatorTx | AddPermissionlessDelegatorTx

/**
 * The stake returned when a staker leaves (`proposal_tx_executor` / reward executor): each
 * stake output at `len(Outs) + i` under the staker tx's id. A reward UTXO, if any, follows at
 * `len(Outs) + len(StakeOuts)` ({@link rewardUtxoIndex}); a validator's delegatee reward at the
 * next index.
 */
export function stakeUtxos(stakerTxId: Id, tx: StakerTx): Utxo[] {
  return fromOutputs(stakerTxId, tx.stakeOuts, tx.base.outputs.length)
}

/** The output index of the first reward UTXO of a staker tx: `len(Outs) + len(StakeOuts)`. */
export function rewardUtxoIndex(tx: StakerTx): number {
  return tx.base.outputs.length + tx.stakeOuts.length
}
