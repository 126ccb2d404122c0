import { bytesToBigInt, hexToBytes, toChecksumAddress } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import type { AllowListFields } from '../config/types.js'
import {
  EVENT_TOPICS,
  SELECTORS,
  WORD,
  encodeAddress,
  encodeUint256,
  unpackWords,
  wordToAddress,
} from './abi.js'
import {
  LOG_DATA_GAS,
  LOG_GAS,
  LOG_TOPIC_GAS,
  READ_GAS_PER_SLOT,
  WRITE_GAS_PER_SLOT,
  writeProtection,
  type PrecompileFunction,
  type StatefulPrecompileOptions,
} from './contract.js'
import { PrecompileError, type PrecompileState } from './types.js'

/**
 * The allow list shared by the deployer list, tx list, native minter, fee manager and reward
 * manager (subnet-EVM `precompile/allowlist`). A role is the uint256 stored in the precompile's
 * account at the slot of the address; any other stored value is an unknown role that can do
 * nothing.
 */
export const Role = {
  NoRole: 0n,
  EnabledRole: 1n,
  AdminRole: 2n,
  ManagerRole: 3n,
} as const

export const MODIFY_ALLOW_LIST_GAS = WRITE_GAS_PER_SLOT
export const READ_ALLOW_LIST_GAS = READ_GAS_PER_SLOT
/** LOG + 4 topics (signature, role, account, sender) + one data word (old role). */
export const ALLOW_LIST_EVENT_GAS = LOG_GAS + 4n * LOG_TOPIC_GAS + LOG_DATA_GAS * 32n

/** Go's `Role.String()`, used in error messages. */
export function roleName(role: bigint): string {
  switch (role) {
    case Role.NoRole:
      return 'NoRole'
    case Role.EnabledRole:
      return 'EnabledRole'
    case Role.ManagerRole:
      return 'ManagerRole'
    case Role.AdminRole:
      return 'AdminRole'
    default:
      return 'UnknownRole'
  }
}

/** May use the gated feature: Enabled, Admin or Manager. */
export function isEnabledRole(role: bigint): boolean {
  return role === Role.EnabledRole || role === Role.AdminRole || role === Role.ManagerRole
}

/** Admins change anything; managers only move addresses between None and Enabled. */
export function canModify(callerRole: bigint, from: bigint, to: bigint): boolean {
  if (callerRole === Role.AdminRole) return true
  if (callerRole !== Role.ManagerRole) return false
  const plain = (r: bigint) => r === Role.NoRole || r === Role.EnabledRole
  return plain(from) && plain(to)
}

/** `common.BytesToHash(addr)`: the address left-padded to 32 bytes. */
export function roleSlot(address: Hex): Uint8Array {
  return encodeAddress(address)
}

export async function getRole(state: PrecompileState, precompileAddress: Hex, address: Hex): Promise<bigint> {
  return bytesToBigInt(await state.getStorage(precompileAddress, roleSlot(address)))
}

export async function setRole(state: PrecompileState, precompileAddress: Hex, address: Hex, role: bigint): Promise<void> {
  await state.putStorage(precompileAddress, roleSlot(address), encodeUint256(role))
}

/** Writes the configured roles, Enabled then Admin then Manager, so a later list wins. */
export async function configureAllowList(
  state: PrecompileState,
  precompileAddress: Hex,
  fields: AllowListFields,
): Promise<void> {
  for (const a of fields.enabledAddresses) await setRole(state, precompileAddress, a, Role.EnabledRole)
  for (const a of fields.adminAddresses) await setRole(state, precompileAddress, a, Role.AdminRole)
  for (const a of fields.managerAddresses) await setRole(state, precompileAddress, a, Role.ManagerRole)
}

/** How Go prints a `common.Address` with `%s`. */
export function checksummed(address: Hex): string {
  return toChecksumAddress(address)
}

function unpackAddress(args: Uint8Array, strict: boolean, what: 'modifying allow list' | 'read allow list'): Hex {
  if (strict && args.length !== WORD) throw new PrecompileError(`invalid input length for ${what}: ${args.length}`)
  const [word] = unpackWords(args, 1, strict)
  return wordToAddress(word!)
}

function roleSetter(precompileAddress: Hex, role: bigint): PrecompileFunction {
  return async (call, gas, args) => {
    gas.deduct(MODIFY_ALLOW_LIST_GAS)
    const durango = call.rules.isDurango
    const target = unpackAddress(args, !durango, 'modifying allow list')
    if (call.readOnly) throw writeProtection()
    const callerRole = await getRole(call.state, precompileAddress, call.caller)
    const oldRole = await getRole(call.state, precompileAddress, target)
    if (!canModify(callerRole, oldRole, role)) {
      // Go prints the caller as "modify address".
      throw new PrecompileError(
        `cannot modify allow list: modify address: ${checksummed(call.caller)}, from role: ${roleName(oldRole)}, to role: ${roleName(role)}`,
      )
    }
    if (durango) {
      gas.deduct(ALLOW_LIST_EVENT_GAS)
      call.log(
        [hexToBytes(EVENT_TOPICS.RoleSet), encodeUint256(role), encodeAddress(target), encodeAddress(call.caller)],
        encodeUint256(oldRole),
      )
    }
    await setRole(call.state, precompileAddress, target, role)
    return new Uint8Array(0)
  }
}

function readAllowList(precompileAddress: Hex): PrecompileFunction {
  return async (call, gas, args) => {
    gas.deduct(READ_ALLOW_LIST_GAS)
    const target = unpackAddress(args, !call.rules.isDurango, 'read allow list')
    return encodeUint256(await getRole(call.state, precompileAddress, target))
  }
}

/**
 * The five allow-list functions of a precompile at `precompileAddress`, with `setManager`
 * present only from Durango; merge them with the precompile's own functions.
 */
export function allowListFunctions(precompileAddress: Hex): {
  functions: Record<Hex, PrecompileFunction>
  options: StatefulPrecompileOptions
} {
  return {
    functions: {
      [SELECTORS.setAdmin]: roleSetter(precompileAddress, Role.AdminRole),
      [SELECTORS.setEnabled]: roleSetter(precompileAddress, Role.EnabledRole),
      [SELECTORS.setManager]: roleSetter(precompileAddress, Role.ManagerRole),
      [SELECTORS.setNone]: roleSetter(precompileAddress, Role.NoRole),
      [SELECTORS.readAllowList]: readAllowList(precompileAddress),
    },
    options: { activation: { [SELECTORS.setManager]: (rules) => rules.isDurango } },
  }
}
