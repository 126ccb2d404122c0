import { BaseError } from '../../core/errors.js'
import { EMPTY_ID, PRIMARY_NETWORK_ID } from '../../core/ids.js'
import { parseMessage } from '../../evm/warp/codec.js'
import { verifySignature, type WarpValidatorSet } from '../../evm/warp/signature.js'
import type { PChainSignedTx } from '../txs.js'
import { showId } from '../txs.js'
import { PChainTxError } from './errors.js'
import type { PChainState } from './state.js'

/** `executor.WarpQuorumNumerator` / `WarpQuorumDenominator`: 67% of the source subnet's weight. */
const QUORUM_NUMERATOR = 67n
const QUORUM_DENOMINATOR = 100n

/**
 * `executor.VerifyWarpMessages` (avalanchego `vms/platformvm/txs/executor/warp_verifier.go`): the
 * warp message of a RegisterL1ValidatorTx or SetL1ValidatorWeightTx must carry a BLS aggregate
 * signature of at least 67% of the weight of its source chain's subnet (the L1), at the P-chain
 * height the tx is verified at. Runs before the tx executes, as the node's `VerifyTx` and block
 * builder run it. Throws a {@link PChainTxError} with the verifier's bare error (`wrong networkID`,
 * `signature weight is insufficient: 67*200 > 100*100`, `signature is invalid`, a codec error, or
 * `problem retrieving blockchain "<id>": not found`); callers add their own prefix. `setOf` gives
 * a subnet's canonical set (keys that do not decode throw, reported as the verifier's error).
 */
export function verifyTxWarpMessages(state: PChainState, setOf: (subnetId: string) => WarpValidatorSet, networkId: number, unsigned: PChainSignedTx['unsigned']): void {
  if (unsigned.type !== 'RegisterL1ValidatorTx' && unsigned.type !== 'SetL1ValidatorWeightTx') return
  const error = (text: string) => new PChainTxError('warpVerification', text)
  let message
  try {
    message = parseMessage(unsigned.message)
  } catch (e) {
    throw error(e instanceof BaseError ? e.shortMessage : String(e))
  }
  const chainId = showId(message.unsigned.sourceChainId)
  // `GetSubnetID`: the P-chain is the primary network's; any other chain must be a CreateChainTx's.
  const subnetId = chainId === EMPTY_ID ? PRIMARY_NETWORK_ID : state.getBlockchain(chainId)?.subnetId
  if (subnetId === undefined) throw error(`problem retrieving blockchain "${chainId}": not found`)
  let validators
  try {
    validators = setOf(subnetId)
  } catch (e) {
    throw error(e instanceof BaseError ? e.shortMessage : String(e))
  }
  const failure = verifySignature(message, { networkId, validators, quorumNumerator: QUORUM_NUMERATOR, quorumDenominator: QUORUM_DENOMINATOR })
  if (failure !== undefined) throw error(failure)
}
