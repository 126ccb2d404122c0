import type { NodeService } from '../types.js'
import type { PlatformContext } from './context.js'
import { getBalance } from './getBalance.js'
import { getBlock } from './getBlock.js'
import { getBlockByHeight } from './getBlockByHeight.js'
import { getBlockchains } from './getBlockchains.js'
import { getCurrentSupply } from './getCurrentSupply.js'
import { getCurrentValidators } from './getCurrentValidators.js'
import { getFeeConfig } from './getFeeConfig.js'
import { getFeeState } from './getFeeState.js'
import { getHeight } from './getHeight.js'
import { getL1Validator } from './getL1Validator.js'
import { getMinStake } from './getMinStake.js'
import { getPendingValidators } from './getPendingValidators.js'
import { getProposedHeight } from './getProposedHeight.js'
import { getStakingAssetID } from './getStakingAssetID.js'
import { getSubnet } from './getSubnet.js'
import { getSubnets } from './getSubnets.js'
import { getTimestamp } from './getTimestamp.js'
import { getTotalStake } from './getTotalStake.js'
import { getTx } from './getTx.js'
import { getTxStatus } from './getTxStatus.js'
import { getUTXOs } from './getUTXOs.js'
import { getValidatorFeeConfig } from './getValidatorFeeConfig.js'
import { getValidatorFeeState } from './getValidatorFeeState.js'
import { getValidatorsAt } from './getValidatorsAt.js'
import { issueTx } from './issueTx.js'

export type { PlatformContext, ValidatorView } from './context.js'
export { platformTxJson } from './txJson.js'

/**
 * The `platform` service at `/ext/bc/P` (aliases `/ext/P`, `/ext/bc/platform`): the read methods
 * of avalanchego's `vms/platformvm/service.go` and `issueTx`, by wire method name.
 */
export const platformService = {
  getBalance,
  getBlock,
  getBlockByHeight,
  getBlockchains,
  getCurrentSupply,
  getCurrentValidators,
  getFeeConfig,
  getFeeState,
  getHeight,
  getL1Validator,
  getMinStake,
  getPendingValidators,
  getProposedHeight,
  getStakingAssetID,
  getSubnet,
  getSubnets,
  getTimestamp,
  getTotalStake,
  getTx,
  getTxStatus,
  getUTXOs,
  getValidatorFeeConfig,
  getValidatorFeeState,
  getValidatorsAt,
  issueTx,
} satisfies NodeService<PlatformContext>
