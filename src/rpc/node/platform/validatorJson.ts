/**
 * The `platformapi` validator shapes (vms/platformvm/api/validator.go), built in Go's field order
 * with `omitempty` pointers left out: `Staker`, `PermissionlessValidator`, `PrimaryDelegator`,
 * `APIL1Validator`.
 */
import { hexToBytes } from '../../../core/hex.js'
import type { PChain } from '../../../platform/pchain/chain.js'
import type { L1Validator, Staker } from '../../../platform/pchain/state.js'
import type { ProofOfPossession } from '../../../platform/txs.js'
import { float64String } from '../info/format.js'
import { apiOwner, hexnc, type ApiOwner } from './common.js'
import type { PlatformContext } from './context.js'

/** `platformapi.Staker`. */
export type ApiStaker = { txID: string; startTime: string; endTime: string; weight: string; nodeID: string }

export const apiStaker = (s: Staker): ApiStaker => ({
  txID: s.txId,
  startTime: String(s.startTime),
  endTime: String(s.endTime),
  weight: String(s.weight),
  nodeID: s.nodeId,
})

/** `signer.ProofOfPossession` JSON. */
export type ApiSigner = { publicKey: string; proofOfPossession: string }

export const apiSigner = (pop: ProofOfPossession): ApiSigner => ({ publicKey: hexnc(pop.publicKey), proofOfPossession: hexnc(pop.signature) })

/** `platformapi.PrimaryDelegator`. */
export type ApiDelegator = ApiStaker & { rewardOwner?: ApiOwner; potentialReward: string }

/** `platformapi.PermissionlessValidator` as `getCurrentValidators` fills it. */
export type ApiPermissionlessValidator = ApiStaker & {
  validationRewardOwner?: ApiOwner
  delegationRewardOwner?: ApiOwner
  potentialReward: string
  accruedDelegateeReward: string
  /** json.Float32: `"10.0000"`. */
  delegationFee: string
  uptime?: string
  connected?: boolean
  signer?: ApiSigner
  delegatorCount: string
  delegatorWeight: string
  delegators?: ApiDelegator[]
}

/** `platformapi.APIL1Validator`. */
export type ApiL1Validator = {
  nodeID: string
  weight: string
  startTime: string
  validationID: string
  publicKey: string
  remainingBalanceOwner: ApiOwner
  deactivationOwner: ApiOwner
  minNonce: string
  balance: string
}

/** `convertL1ValidatorToAPI`: balance is what is left of the fee deposit (0 when inactive). */
export function apiL1Validator(ctx: PlatformContext, pchain: PChain, v: L1Validator): ApiL1Validator {
  return {
    nodeID: v.nodeId,
    weight: String(v.weight),
    startTime: String(v.startTime),
    validationID: v.validationId,
    publicKey: hexnc(hexToBytes(v.publicKey as `0x${string}`)),
    remainingBalanceOwner: apiOwner(ctx, v.remainingBalanceOwner),
    deactivationOwner: apiOwner(ctx, v.deactivationOwner),
    minNonce: String(v.minNonce),
    balance: String(pchain.l1ValidatorBalance(v)),
  }
}

/** `avajson.Float32`: `strconv.FormatFloat(float64(f), 'f', 4, 32)` of the float32 nearest `value`. */
export function float32Fixed4(value: number): string {
  const f = Math.fround(value)
  // Far from a tie at the 5th decimal, toFixed rounds as Go does; near one, take the exact path.
  const scaled = Math.abs(f) * 10_000
  if (Number.isFinite(scaled) && scaled < 1e15 && Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) return f.toFixed(4)
  return float64String(f)
}

/** `100 * float32(shares) / float32(reward.PercentDenominator)` in float32 arithmetic. */
export function delegationFee(shares: number): string {
  return float32Fixed4(Math.fround(Math.fround(100 * Math.fround(shares)) / 1_000_000))
}
