import type { Hex } from '../../core/hex.js'
import { PRECOMPILE_ADDRESSES } from '../config/types.js'
import { allowListFunctions, checksummed, getRole, isEnabledRole } from './allowList.js'
import { createStatefulPrecompile } from './contract.js'
import type { PrecompileState } from './types.js'

/**
 * contractDeployerAllowList: only the allow-list interface. The check itself (every CREATE,
 * CREATE2 and creation tx, against tx.origin) is the EVM integration's, through
 * {@link canDeploy}.
 */
export const DEPLOYER_ALLOW_LIST_ADDRESS: Hex = PRECOMPILE_ADDRESSES.contractDeployerAllowListConfig

const { functions, options } = allowListFunctions(DEPLOYER_ALLOW_LIST_ADDRESS)
export const deployerAllowListPrecompile = createStatefulPrecompile(functions, options)

/** True when `origin` may deploy while the deployer allow list is active. */
export async function canDeploy(state: PrecompileState, origin: Hex): Promise<boolean> {
  return isEnabledRole(await getRole(state, DEPLOYER_ALLOW_LIST_ADDRESS, origin))
}

/** The `CanCreateContract` hook's error (it consumes all the gas of the create). */
export function deployerNotAuthorizedMessage(origin: Hex): string {
  return `tx.origin ${checksummed(origin)} is not authorized to deploy a contract`
}
