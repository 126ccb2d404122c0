import { sha256 } from '../../core/sha256.js'
import { InvalidArgumentError } from '../../core/errors.js'
import { bytesToHex } from '../../core/hex.js'
import { PRIMARY_NETWORK_ID } from '../../core/ids.js'
import { encodeSignedTx } from '../codec.js'
import type { PChainSignedTx, Utxo } from '../txs.js'
import { showId, showNodeId } from '../txs.js'
import { blockIdOf, encodeGenesisBlock } from './blocks.js'
import { produceUtxo, type ExecContext } from './executor.js'
import { calculateReward } from './feeMath.js'
import type { PBlock, PChainState, Staker } from './state.js'
import { Priority } from './state.js'

/** What a P-Chain starts from (`genesis.Genesis` as `state.syncGenesis` applies it). */
export type PChainGenesis = {
  /** UTXOs at height 0. */
  utxos?: Utxo[]
  /**
   * The initial stakers' txs (AddPermissionlessValidatorTx, or AddValidatorTx without a BLS key):
   * current validators of the primary network from their start to their end, each with the
   * potential reward the supply then gives it (the supply grows by it), stored as `Committed`.
   */
  validators?: PChainSignedTx[]
  /**
   * The CreateChainTxs of the chains that exist at genesis (the X- and C-Chain), stored as
   * `Committed` under their tx id, or under `id` where the real network's chain id is not the hash
   * of the tx the emulator holds (fuji's and mainnet's X-Chain, whose genesis allocations it lacks).
   */
  chains?: { tx: PChainSignedTx; id?: string }[]
  /** sha256 of the genesis bytes: the genesis block's parent. Default: a hash of the genesis time. */
  parentId?: Uint8Array
}

/** The genesis block: an Apricot commit block at height 0 whose parent is the hash of the genesis bytes. */
export function genesisBlock(genesis: PChainGenesis, timestamp: number): PBlock {
  const parent = genesis.parentId ?? sha256(new TextEncoder().encode(`l1sim-pchain-genesis-${timestamp}`))
  const bytes = encodeGenesisBlock(parent)
  return { height: 0, id: blockIdOf(bytes), parentId: showId(parent), timestamp, kind: 'commit', txs: [], bytes }
}

/** `state.syncGenesis` after the block and supply: UTXOs, the initial stakers, the genesis chains. */
export function applyGenesis(ctx: ExecContext, genesis: PChainGenesis, chainId: string): void {
  const st: PChainState = ctx.state
  for (const u of genesis.utxos ?? []) produceUtxo(ctx, u, { chain: chainId, txId: 'genesis', height: 0 })
  for (const tx of genesis.validators ?? []) {
    const u = tx.unsigned
    if (u.type !== 'AddPermissionlessValidatorTx' && u.type !== 'AddValidatorTx') throw new InvalidArgumentError(`expected a scheduled staker but got *txs.${u.type}`)
    const id = sha256(encodeSignedTx('P', tx))
    const start = Number(u.validator.start)
    const end = Number(u.validator.end)
    const supply = st.getSupply(PRIMARY_NETWORK_ID)
    const potentialReward = calculateReward(ctx.config.staking.rewardConfig, BigInt(end - start), u.validator.weight, supply)
    const permissionless = u.type === 'AddPermissionlessValidatorTx'
    const owner = permissionless ? u.validatorRewardsOwner : u.rewardsOwner
    const staker: Staker = {
      txId: showId(id), txIdHex: bytesToHex(id), txType: u.type,
      nodeId: showNodeId(u.validator.nodeId), subnetId: PRIMARY_NETWORK_ID, kind: 'validator', priority: Priority.PrimaryNetworkValidatorCurrent,
      weight: u.validator.weight, startTime: start, endTime: end, nextTime: end, potentialReward,
      delegationShares: u.delegationShares, rewardsOwner: owner, delegationRewardsOwner: permissionless ? u.delegatorRewardsOwner : owner,
      ...(permissionless && u.signer.type === 'ProofOfPossession' ? { blsPublicKey: bytesToHex(u.signer.publicKey) } : {}),
      stakeOuts: u.stakeOuts, outsLength: u.base.outputs.length,
    }
    st.putCurrentValidator(staker)
    st.putTx({ id: staker.txId, type: u.type, height: 0, status: 'Committed', tx })
    st.setSupply(PRIMARY_NETWORK_ID, supply + potentialReward)
  }
  for (const { tx, id } of genesis.chains ?? []) {
    const u = tx.unsigned
    if (u.type !== 'CreateChainTx') throw new InvalidArgumentError(`expected tx type *txs.CreateChainTx but got *txs.${u.type}`)
    const chain = id ?? showId(sha256(encodeSignedTx('P', tx)))
    st.putBlockchain({
      id: chain, subnetId: showId(u.subnetId), name: u.chainName, vmId: showId(u.vmId), fxIds: u.fxIds.map(showId),
      genesisData: bytesToHex(u.genesisData), createdAt: st.timestamp,
    })
    st.putTx({ id: chain, type: u.type, height: 0, status: 'Committed', tx })
  }
}
