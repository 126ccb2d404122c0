import type { Hex } from '../../core/hex.js'
import { PRECOMPILE_ADDRESSES } from '../config/types.js'
import { allowListFunctions, checksummed, getRole, isEnabledRole } from './allowList.js'
import { createStatefulPrecompile } from './contract.js'
import type { PrecompileState } from './types.js'

/**
 * txAllowList: only the allow-list interface. The mempool and block execution check the sender
 * with {@link isAllowListEnabled}; eth_call and eth_estimateGas skip the check.
 */
export const TX_ALLOW_LIST_ADDRESS: Hex = PRECOMPILE_ADDRESSES.txAllowListConfig

const { functions, options } = allowListFunctions(TX_ALLOW_LIST_ADDRESS)
export const txAllowListPrecompile = createStatefulPrecompile(functions, options)

/** Enabled, Admin and Manager may send (Go `Role.IsEnabled`). */
export function isAllowListEnabled(role: bigint): boolean {
  return isEnabledRole(role)
}

export async function getTxAllowListRole(state: PrecompileState, sender: Hex): Promise<bigint> {
  return getRole(state, TX_ALLOW_LIST_ADDRESS, sender)
}

/** `vmerrors.ErrSenderAddressNotAllowListed` wrapped with the sender, as the mempool and block checks report it. */
export function senderNotAllowListedMessage(sender: Hex): string {
  return `cannot issue transaction from non-allow listed address: ${checksummed(sender)}`
}
