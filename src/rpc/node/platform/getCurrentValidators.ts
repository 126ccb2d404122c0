import { PRIMARY_NETWORK_ID } from '../../../core/ids.js'
import { Priority, stakerLess, type Staker } from '../../../platform/pchain/state.js'
import { cb58Id, nodeIdArray, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { apiOwner, hrpOf, type ApiOwner } from './common.js'
import type { PlatformContext } from './context.js'
import { compareNodeIds, stakerAttributes } from './state.js'
import {
  apiL1Validator,
  apiSigner,
  apiStaker,
  delegationFee,
  float32Fixed4,
  type ApiDelegator,
  type ApiL1Validator,
  type ApiPermissionlessValidator,
  type ApiSigner,
  type ApiStaker,
} from './validatorJson.js'

export type GetCurrentValidatorsResult = { validators: Array<ApiPermissionlessValidator | ApiStaker | ApiL1Validator> }

/**
 * `platform.getCurrentValidators({subnetID, nodeIDs})`.
 *
 * - Primary network and permissionless subnet validators are `PermissionlessValidator`s: stake,
 *   reward owners, potential and accrued delegatee reward, delegation fee, BLS signer, and on the
 *   primary network this node's view of uptime and connection; each carries `delegatorCount` and
 *   `delegatorWeight`, and the delegators themselves (with reward owner) only when exactly one
 *   node id was asked for. Permissioned subnet validators are plain `Staker`s.
 * - An L1 (converted subnet) lists its remaining legacy stakers as `Staker`s, then every L1
 *   validator (active or not) as `APIL1Validator` in node id byte order.
 *
 * Without `nodeIDs`, stakers come in the current staker iterator's order; with them, in the order
 * asked (a node iterates a Go set, in no fixed order), validators that are not current omitted.
 */
export const getCurrentValidators = defineNodeMethod(
  objectParams({ subnetID: cb58Id, nodeIDs: nodeIdArray }),
  ({ subnetID, nodeIDs }, ctx: PlatformContext): GetCurrentValidatorsResult => {
    const wanted = [...new Set(nodeIDs)]
    const subnet = ctx.pchain.state.getSubnet(subnetID)
    if (subnet?.conversion) return { validators: l1Validators(ctx, subnetID, wanted) }
    try {
      return { validators: primaryOrSubnetValidators(ctx, subnetID, wanted) }
    } catch (error) {
      throw new NodeRpcError(`failed to get primary or subnet validators: ${(error as Error).message}`, { cause: error })
    }
  },
)

function l1Validators(ctx: PlatformContext, subnetId: string, wanted: string[]): Array<ApiStaker | ApiL1Validator> {
  const st = ctx.pchain.state
  const all = wanted.length === 0
  const filter = new Set(wanted)
  const out: Array<ApiStaker | ApiL1Validator> = []
  const legacy = [...st.d.currentValidators.values()].filter((s) => s.subnetId === subnetId).sort((a, b) => compareNodeIds(a.nodeId, b.nodeId))
  for (const s of legacy) if (all || filter.has(s.nodeId)) out.push(apiStaker(s))
  const l1 = st.l1ValidatorsOf(subnetId).sort((a, b) => compareNodeIds(a.nodeId, b.nodeId))
  for (const v of l1) if (all || filter.has(v.nodeId)) out.push(apiL1Validator(ctx, ctx.pchain, v))
  return out
}

function primaryOrSubnetValidators(ctx: PlatformContext, subnetId: string, wanted: string[]): Array<ApiPermissionlessValidator | ApiStaker> {
  const st = ctx.pchain.state
  let targets: Staker[]
  if (wanted.length === 0) {
    targets = st.sortedStakers('current').filter((s) => s.subnetId === subnetId)
  } else {
    targets = []
    for (const nodeId of wanted) {
      const validator = st.getCurrentValidator(subnetId, nodeId)
      if (!validator) continue
      targets.push(validator)
      const delegators = st.delegatorsOf(subnetId, nodeId, 'current').sort(byIterator)
      targets.push(...delegators)
    }
  }
  const single = wanted.length === 1
  // Delegators first (Go collects them in the same pass and fills the validators afterwards).
  const delegatorsOf = new Map<string, ApiDelegator[]>()
  const delegation = new Map<string, { count: number; weight: bigint }>()
  for (const s of targets) {
    if (s.priority !== Priority.PrimaryNetworkDelegatorCurrent && s.priority !== Priority.SubnetPermissionlessDelegatorCurrent) continue
    const sum = delegation.get(s.nodeId) ?? { count: 0, weight: 0n }
    delegation.set(s.nodeId, { count: sum.count + 1, weight: sum.weight + s.weight })
    if (!single) continue
    const d = apiStaker(s) as ApiDelegator
    const owner = stakerAttributes(ctx.pchain, s).rewardsOwner
    if (owner) d.rewardOwner = apiOwner(ctx, owner)
    d.potentialReward = String(s.potentialReward)
    delegatorsOf.set(s.nodeId, [...(delegatorsOf.get(s.nodeId) ?? []), d])
  }
  const primary = subnetId === PRIMARY_NETWORK_ID
  // Most validators have accrued nothing; skip 10,000 key lookups when nobody has.
  const noDelegateeRewards = st.d.delegateeRewards.size === 0
  const validators: Array<ApiPermissionlessValidator | ApiStaker> = []
  for (const s of targets) {
    switch (s.priority) {
      case Priority.PrimaryNetworkValidatorCurrent:
      case Priority.SubnetPermissionlessValidatorCurrent: {
        const attr = validatorAttributes(ctx, s)
        // Built property by property in Go's field order (omitempty fields only when set).
        const vdr = apiStaker(s) as ApiPermissionlessValidator
        if (attr.validationRewardOwner) vdr.validationRewardOwner = attr.validationRewardOwner
        if (attr.delegationRewardOwner) vdr.delegationRewardOwner = attr.delegationRewardOwner
        vdr.potentialReward = String(s.potentialReward)
        vdr.accruedDelegateeReward = noDelegateeRewards ? '0' : String(st.getDelegateeReward(s.subnetId, s.nodeId))
        vdr.delegationFee = attr.delegationFee
        if (primary) {
          const view = ctx.uptime(s.nodeId, s.startTime)
          vdr.uptime = float32Fixed4(view.uptime * 100)
          vdr.connected = view.connected
        }
        if (attr.signer) vdr.signer = attr.signer
        const sum = delegation.get(s.nodeId)
        vdr.delegatorCount = String(sum?.count ?? 0)
        vdr.delegatorWeight = String(sum?.weight ?? 0n)
        if (single) vdr.delegators = delegatorsOf.get(s.nodeId) ?? []
        validators.push(vdr)
        break
      }
      case Priority.PrimaryNetworkDelegatorCurrent:
      case Priority.SubnetPermissionlessDelegatorCurrent:
        break
      case Priority.SubnetPermissionedValidatorCurrent:
        validators.push(apiStaker(s))
        break
      default:
        throw new NodeRpcError(`unexpected staker priority ${s.priority}`)
    }
  }
  return validators
}

/** The staker iterator's order: (NextTime, Priority, TxID). */
const byIterator = (a: Staker, b: Staker): number => (stakerLess(a, b) ? -1 : stakerLess(b, a) ? 1 : 0)

/**
 * A validator's tx attributes as API values, computed once per staker record
 * (`stakerAttributesCache`): the state replaces a record when it changes, so the record is the key.
 */
type ValidatorAttributes = { validationRewardOwner?: ApiOwner; delegationRewardOwner?: ApiOwner; delegationFee: string; signer?: ApiSigner }

const attributesCache = new WeakMap<object, { hrp: string; value: ValidatorAttributes }>()

function validatorAttributes(ctx: PlatformContext, s: Staker): ValidatorAttributes {
  const hrp = hrpOf(ctx)
  const hit = attributesCache.get(s)
  if (hit && hit.hrp === hrp) return hit.value
  const attr = stakerAttributes(ctx.pchain, s)
  const value: ValidatorAttributes = {
    ...(attr.validationRewardsOwner ? { validationRewardOwner: apiOwner(ctx, attr.validationRewardsOwner) } : {}),
    ...(attr.delegationRewardsOwner ? { delegationRewardOwner: apiOwner(ctx, attr.delegationRewardsOwner) } : {}),
    delegationFee: delegationFee(attr.shares),
    ...(attr.proofOfPossession ? { signer: apiSigner(attr.proofOfPossession) } : {}),
  }
  attributesCache.set(s, { hrp, value })
  return value
}
