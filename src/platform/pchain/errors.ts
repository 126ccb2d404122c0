import { TxRefusedError } from '../errors.js'

/**
 * A P-chain transaction was refused. `message` is the text avalanchego returns (the `%w` chain of
 * the real executor, e.g. `flow check failed: insufficient unlocked funds: needs 5 more <asset>`);
 * `code` names the innermost sentinel so tests and API layers need not parse text.
 */
export class PChainTxError extends TxRefusedError {
  override name = 'PChainTxError'
}

/** The sentinel errors of vms/platformvm (txs/executor, utxo, secp256k1fx, state, warp/message). */
export const E = {
  // txs/executor/staker_tx_verification.go
  weightTooSmall: 'weight of this validator is too low',
  weightTooLarge: 'weight of this validator is too large',
  insufficientDelegationFee: 'staker charges an insufficient delegation fee',
  stakeTooShort: 'staking period is too short',
  stakeTooLong: 'staking period is too long',
  flowCheckFailed: 'flow check failed',
  notValidator: "isn't a current or pending validator",
  removePermissionlessValidator: 'attempting to remove permissionless validator',
  stakeOverflow: 'validator stake exceeds limit',
  periodMismatch: 'proposed staking period is not inside dependent staking period',
  overDelegated: 'validator would be over delegated',
  timestampNotBeforeStartTime: 'chain timestamp not before start time',
  alreadyValidator: 'already a validator',
  duplicateValidator: 'duplicate validator',
  delegateToPermissionedValidator: 'delegation to permissioned validator',
  wrongStakedAssetID: 'incorrect staked assetID',
  durangoNotActive: 'attempting to use a Durango-upgrade feature prior to activation',
  addValidatorPostDurango: 'AddValidatorTx is not permitted post-Durango',
  addDelegatorPostDurango: 'AddDelegatorTx is not permitted post-Durango',
  // standard_tx_executor.go
  emptyNodeID: 'validator nodeID cannot be empty',
  etnaNotActive: 'attempting to use an Etna-upgrade feature prior to activation',
  maxNumActiveValidators: 'already at the max number of active validators',
  couldNotLoadSubnetToL1Conversion: 'could not load subnet conversion',
  wrongWarpSourceChainID: 'wrong warp message source chain ID',
  wrongWarpSourceAddress: 'wrong warp message source address',
  warpMessageExpired: 'warp message expired',
  warpMessageNotYetAllowed: 'warp message not yet allowed',
  warpMessageAlreadyIssued: 'warp message already issued',
  couldNotLoadL1Validator: 'could not load L1 validator',
  staleNonce: 'warp message contains stale nonce',
  removingLastValidator: 'attempting to remove the last L1 validator from a converted subnet',
  stateCorruption: 'state corruption',
  // proposal_tx_executor.go
  removeStakerTooEarly: 'attempting to remove staker before their end time',
  removeWrongStaker: 'attempting to remove wrong staker',
  wrongTxType: 'wrong transaction type',
  invalidID: 'invalid ID',
  // subnet_tx_verification.go
  wrongNumberOfCredentials: 'should have the same number of credentials as inputs',
  isImmutable: 'is immutable',
  unauthorizedModification: 'unauthorized modification',
  // utxo/verifier.go
  insufficientUnlockedFunds: 'insufficient unlocked funds',
  insufficientLockedFunds: 'insufficient locked funds',
  wrongNumberCredentials: 'wrong number of credentials',
  assetIDMismatch: 'input asset ID does not match UTXO asset ID',
  locktimeMismatch: 'input locktime does not match UTXO locktime',
  lockedFundsNotMarkedAsLocked: 'locked funds not marked as locked',
  // secp256k1fx/fx.go
  mismatchedAmounts: 'utxo amount and input amount are not equal',
  timelocked: 'output is time locked',
  tooManySigners: 'input has more signers than expected',
  tooFewSigners: 'input has less signers than expected',
  inputOutputIndexOutOfBounds: 'input referenced a nonexistent address in the output',
  inputCredentialSignersMismatch: 'input expected a different number of signers than provided in the credential',
  wrongSig: 'wrong signature',
  // components/avax, database
  wrongNetworkID: 'tx has wrong network ID',
  wrongChainID: 'tx has wrong chain ID',
  inputsNotSortedUnique: 'inputs not sorted and unique',
  notFound: 'not found',
  // warp/message
  invalidSubnetID: 'invalid subnet ID',
  invalidWeight: 'invalid weight',
  invalidNodeID: 'invalid node ID',
  // signer/proof_of_possession.go
  invalidProofOfPossession: 'invalid proof of possession',
  // state/l1_validator.go
  duplicateL1Validator: 'L1 validator contains duplicate subnetID + nodeID pair',
  // utils/math
  overflow: 'overflow',
  invalidMessage: 'invalid warp message',
  // block/executor/manager.go (VerifyTx), txs/executor/warp_verifier.go
  warpVerification: 'failed verifying warp messages',
  // emulator-only
  unknownSubnet: 'is not a subnet',
  unknownAtomicUTXO: 'failed to get shared memory',
} as const

export type ErrorCode = keyof typeof E

/** Builds a refusal whose message is `prefix + sentinel + suffix`, as Go's `fmt.Errorf("...%w...")` would. */
export function fail(code: ErrorCode, format?: (sentinel: string) => string): PChainTxError {
  const sentinel = E[code]
  return new PChainTxError(code, format ? format(sentinel) : sentinel)
}

/** Wraps an inner refusal (`fmt.Errorf("%w: %w", outer, inner)`), keeping the inner code. */
export function wrap(err: unknown, format: (inner: string) => string): unknown {
  if (err instanceof PChainTxError) return new PChainTxError(err.code, format(err.shortMessage))
  return err
}

export const MAX_UINT64 = (1n << 64n) - 1n

export function addU64(a: bigint, b: bigint): bigint {
  const s = a + b
  if (s > MAX_UINT64) throw fail('overflow')
  return s
}
export function mulU64(a: bigint, b: bigint): bigint {
  const p = a * b
  if (p > MAX_UINT64) throw fail('overflow')
  return p
}
