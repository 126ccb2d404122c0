import { equalsBytes, hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import { PRECOMPILE_ADDRESSES, type AllowListFields, type RewardConfig } from '../config/types.js'
import { EVENT_TOPICS, SELECTORS, encodeAddress, encodeBool, unpackWords, wordToAddress } from './abi.js'
import { READ_ALLOW_LIST_GAS, allowListFunctions, checksummed, configureAllowList, getRole, isEnabledRole } from './allowList.js'
import {
  LOG_GAS,
  LOG_TOPIC_GAS,
  READ_GAS_PER_SLOT,
  WRITE_GAS_PER_SLOT,
  createStatefulPrecompile,
  writeProtection,
  type GasMeter,
  type PrecompileFunction,
} from './contract.js'
import { PrecompileError, type PrecompileCall, type PrecompileState } from './types.js'

/** rewardManager (subnet-EVM `precompile/contracts/rewardmanager`). */
export const REWARD_MANAGER_ADDRESS: Hex = PRECOMPILE_ADDRESSES.rewardManagerConfig

/** Writes one slot after reading the caller's role. */
export const ALLOW_FEE_RECIPIENTS_GAS = WRITE_GAS_PER_SLOT + READ_ALLOW_LIST_GAS
export const DISABLE_REWARDS_GAS = WRITE_GAS_PER_SLOT + READ_ALLOW_LIST_GAS
export const SET_REWARD_ADDRESS_GAS = WRITE_GAS_PER_SLOT + READ_ALLOW_LIST_GAS
export const ARE_FEE_RECIPIENTS_ALLOWED_GAS = READ_ALLOW_LIST_GAS
export const CURRENT_REWARD_ADDRESS_GAS = READ_ALLOW_LIST_GAS
/** LOG + 2 topics (signature, sender). */
export const FEE_RECIPIENTS_ALLOWED_EVENT_GAS = LOG_GAS + 2n * LOG_TOPIC_GAS
export const REWARDS_DISABLED_EVENT_GAS = LOG_GAS + 2n * LOG_TOPIC_GAS
/** LOG + 4 topics, plus reading the old reward address. */
export const REWARD_ADDRESS_CHANGED_EVENT_GAS = LOG_GAS + 4n * LOG_TOPIC_GAS + READ_GAS_PER_SLOT

/** Where fees go, or not, when rewards are disabled: the blackhole. */
export const BLACKHOLE_ADDRESS: Hex = '0x0100000000000000000000000000000000000000'
const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000'

const asciiWord = (text: string) => {
  const word = new Uint8Array(32)
  word.set(new TextEncoder().encode(text))
  return word
}
/** `common.Hash{'r','a','s','k'}`: the one slot of the reward setting. */
export const REWARD_ADDRESS_SLOT = asciiWord('rask')
/** `common.Hash{'a','f','r','a','v'}`: the value meaning "fee recipients allowed". */
export const ALLOW_FEE_RECIPIENTS_VALUE = asciiWord('afrav')

/**
 * `GetStoredRewardAddress`: the last 20 bytes of the slot, and whether it holds the magic value
 * (then the address reads as zero). Disabled rewards read as the blackhole address.
 */
export async function readRewardAddress(state: PrecompileState): Promise<{ address: Hex; allowFeeRecipients: boolean }> {
  const value = await state.getStorage(REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_SLOT)
  return { address: wordToAddress(value), allowFeeRecipients: equalsBytes(value, ALLOW_FEE_RECIPIENTS_VALUE) }
}

const storeValue = (state: PrecompileState, value: Uint8Array) => state.putStorage(REWARD_MANAGER_ADDRESS, REWARD_ADDRESS_SLOT, value)
export const storeRewardAddress = (state: PrecompileState, address: Hex) => storeValue(state, encodeAddress(address))
export const enableAllowFeeRecipients = (state: PrecompileState) => storeValue(state, ALLOW_FEE_RECIPIENTS_VALUE)
export const disableFeeRewards = (state: PrecompileState) => storeValue(state, encodeAddress(BLACKHOLE_ADDRESS))

async function requireEnabled(call: PrecompileCall, functionName: string): Promise<void> {
  if (!isEnabledRole(await getRole(call.state, REWARD_MANAGER_ADDRESS, call.caller)))
    throw new PrecompileError(`non-enabled cannot call ${functionName}: ${checksummed(call.caller)}`)
}

function senderEvent(call: PrecompileCall, gas: GasMeter, topic: Hex, eventGas: bigint): void {
  if (!call.rules.isDurango) return
  gas.deduct(eventGas)
  call.log([hexToBytes(topic), encodeAddress(call.caller)], new Uint8Array(0))
}

/** Takes no arguments; extra calldata is ignored. */
const allowFeeRecipients: PrecompileFunction = async (call, gas) => {
  gas.deduct(ALLOW_FEE_RECIPIENTS_GAS)
  if (call.readOnly) throw writeProtection()
  await requireEnabled(call, 'allowFeeRecipients')
  senderEvent(call, gas, EVENT_TOPICS.FeeRecipientsAllowed, FEE_RECIPIENTS_ALLOWED_EVENT_GAS)
  await enableAllowFeeRecipients(call.state)
  return new Uint8Array(0)
}

const disableRewards: PrecompileFunction = async (call, gas) => {
  gas.deduct(DISABLE_REWARDS_GAS)
  if (call.readOnly) throw writeProtection()
  await requireEnabled(call, 'disableRewards')
  senderEvent(call, gas, EVENT_TOPICS.RewardsDisabled, REWARDS_DISABLED_EVENT_GAS)
  await disableFeeRewards(call.state)
  return new Uint8Array(0)
}

/** Unpack errors are the bare ABI ones here (no "failed to unpack input" prefix). */
const setRewardAddress: PrecompileFunction = async (call, gas, args) => {
  gas.deduct(SET_REWARD_ADDRESS_GAS)
  if (call.readOnly) throw writeProtection()
  const durango = call.rules.isDurango
  const [word] = unpackWords(args, 1, !durango)
  const address = wordToAddress(word!)
  await requireEnabled(call, 'setRewardAddress')
  if (address === ZERO_ADDRESS) throw new PrecompileError('reward address cannot be empty')
  if (durango) {
    gas.deduct(REWARD_ADDRESS_CHANGED_EVENT_GAS)
    const { address: old } = await readRewardAddress(call.state)
    call.log(
      [hexToBytes(EVENT_TOPICS.RewardAddressChanged), encodeAddress(call.caller), encodeAddress(old), encodeAddress(address)],
      new Uint8Array(0),
    )
  }
  await storeRewardAddress(call.state, address)
  return new Uint8Array(0)
}

const currentRewardAddress: PrecompileFunction = async (call, gas) => {
  gas.deduct(CURRENT_REWARD_ADDRESS_GAS)
  return encodeAddress((await readRewardAddress(call.state)).address)
}

const areFeeRecipientsAllowed: PrecompileFunction = async (call, gas) => {
  gas.deduct(ARE_FEE_RECIPIENTS_ALLOWED_GAS)
  return encodeBool((await readRewardAddress(call.state)).allowFeeRecipients)
}

const allowList = allowListFunctions(REWARD_MANAGER_ADDRESS)
export const rewardManagerPrecompile = createStatefulPrecompile(
  {
    ...allowList.functions,
    [SELECTORS.allowFeeRecipients]: allowFeeRecipients,
    [SELECTORS.disableRewards]: disableRewards,
    [SELECTORS.setRewardAddress]: setRewardAddress,
    [SELECTORS.currentRewardAddress]: currentRewardAddress,
    [SELECTORS.areFeeRecipientsAllowed]: areFeeRecipientsAllowed,
  },
  allowList.options,
)

/**
 * Activation: `initialRewardConfig` when given (fee recipients, else no address = disabled, else
 * that address); otherwise the genesis allowFeeRecipients; otherwise disabled. Then the allow list.
 */
export async function configureRewardManager(
  state: PrecompileState,
  config: AllowListFields & { initialRewardConfig: RewardConfig | undefined },
  genesisAllowFeeRecipients: boolean,
): Promise<void> {
  const initial = config.initialRewardConfig
  if (initial) {
    const address = (initial.rewardAddress?.toLowerCase() as Hex | undefined) ?? ZERO_ADDRESS
    if (initial.allowFeeRecipients) await enableAllowFeeRecipients(state)
    else if (address === ZERO_ADDRESS) await disableFeeRewards(state)
    else await storeRewardAddress(state, address)
  } else if (genesisAllowFeeRecipients) await enableAllowFeeRecipients(state)
  else await disableFeeRewards(state)
  await configureAllowList(state, REWARD_MANAGER_ADDRESS, config)
}

