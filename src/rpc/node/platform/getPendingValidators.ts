import { Priority, stakerLess, type Staker } from '../../../platform/pchain/state.js'
import { cb58Id, nodeIdArray, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'
import { stakerAttributes } from './state.js'
import { apiSigner, apiStaker, delegationFee, type ApiSigner, type ApiStaker } from './validatorJson.js'

/** The pending shapes of avalanchego ≤ v1.11.2: `Staker` plus the deprecated `stakeAmount`. */
export type PendingStaker = ApiStaker & { stakeAmount: string }
export type PendingValidator = PendingStaker & { delegationFee?: string; connected: boolean; signer?: ApiSigner }

export type GetPendingValidatorsResult = { validators: PendingValidator[]; delegators: PendingStaker[] }

/**
 * `platform.getPendingValidators({subnetID, nodeIDs})`, as avalanchego served it until v1.11.3
 * removed it (ava-labs/avalanchego#2817); kept because tools still call it. Since Durango a
 * staker is current from the block that adds it, so the lists are empty unless the chain runs
 * before Durango. Permissionless validators carry `delegationFee`, `connected` and `signer`;
 * permissioned ones `connected`; delegators are plain stakers.
 */
export const getPendingValidators = defineNodeMethod(
  objectParams({ subnetID: cb58Id, nodeIDs: nodeIdArray }),
  ({ subnetID, nodeIDs }, ctx: PlatformContext): GetPendingValidatorsResult => {
    const st = ctx.pchain.state
    const wanted = [...new Set(nodeIDs)]
    let targets: Staker[]
    if (wanted.length === 0) {
      targets = st.sortedStakers('pending').filter((s) => s.subnetId === subnetID)
    } else {
      targets = []
      for (const nodeId of wanted) {
        const validator = st.getPendingValidator(subnetID, nodeId)
        if (!validator) continue
        targets.push(validator, ...st.delegatorsOf(subnetID, nodeId, 'pending').sort((a, b) => (stakerLess(a, b) ? -1 : stakerLess(b, a) ? 1 : 0)))
      }
    }
    const result: GetPendingValidatorsResult = { validators: [], delegators: [] }
    for (const s of targets) {
      const staker: PendingStaker = { ...apiStaker(s), stakeAmount: String(s.weight) }
      switch (s.priority) {
        case Priority.PrimaryNetworkValidatorPending:
        case Priority.SubnetPermissionlessValidatorPending: {
          const attr = stakerAttributes(ctx.pchain, s)
          result.validators.push({
            ...staker,
            delegationFee: delegationFee(attr.shares),
            connected: ctx.uptime(s.nodeId, s.startTime).connected,
            ...(attr.proofOfPossession ? { signer: apiSigner(attr.proofOfPossession) } : {}),
          })
          break
        }
        case Priority.PrimaryNetworkDelegatorApricotPending:
        case Priority.PrimaryNetworkDelegatorBanffPending:
        case Priority.SubnetPermissionlessDelegatorPending:
          result.delegators.push(staker)
          break
        case Priority.SubnetPermissionedValidatorPending:
          result.validators.push({ ...staker, connected: ctx.uptime(s.nodeId, s.startTime).connected })
          break
        default:
          throw new NodeRpcError(`unexpected staker priority ${s.priority}`)
      }
    }
    return result
  },
)
