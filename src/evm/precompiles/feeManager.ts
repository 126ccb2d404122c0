import { bytesToBigInt, hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import { PRECOMPILE_ADDRESSES, type AllowListFields } from '../config/types.js'
import { FEE_CONFIG_FIELDS, feeConfigError, type FeeConfig } from '../fees.js'
import { EVENT_TOPICS, SELECTORS, concatWords, encodeAddress, encodeUint256, unpackWords, wordToUint } from './abi.js'
import { allowListFunctions, checksummed, configureAllowList, getRole, isEnabledRole } from './allowList.js'
import {
  LOG_DATA_GAS,
  LOG_GAS,
  LOG_TOPIC_GAS,
  READ_GAS_PER_SLOT,
  WRITE_GAS_PER_SLOT,
  createStatefulPrecompile,
  writeProtection,
  type PrecompileFunction,
} from './contract.js'
import { PrecompileError, type PrecompileState } from './types.js'

/** feeManager (subnet-EVM `precompile/contracts/feemanager`). */
export const FEE_MANAGER_ADDRESS: Hex = PRECOMPILE_ADDRESSES.feeManagerConfig

/** Storage order of the fields: field i (from 1) lives at slot `Hash{byte(i)}`. */
const FIELDS = FEE_CONFIG_FIELDS

const FIELD_COUNT = BigInt(FIELDS.length)
const FEE_CONFIG_INPUT_LENGTH = 32 * FIELDS.length

/** One write per field plus lastChangedAt. */
export const SET_FEE_CONFIG_GAS = WRITE_GAS_PER_SLOT * (FIELD_COUNT + 1n)
export const GET_FEE_CONFIG_GAS = READ_GAS_PER_SLOT * FIELD_COUNT
export const GET_LAST_CHANGED_AT_GAS = READ_GAS_PER_SLOT
/** Reading the old config, LOG + 2 topics (signature, sender), 16 data words (old and new config). */
export const FEE_CONFIG_CHANGED_EVENT_GAS =
  GET_FEE_CONFIG_GAS + LOG_GAS + 2n * LOG_TOPIC_GAS + 2n * BigInt(FEE_CONFIG_INPUT_LENGTH) * LOG_DATA_GAS

const MAX_UINT64 = (1n << 64n) - 1n

export function feeConfigSlot(index: number): Uint8Array {
  const slot = new Uint8Array(32)
  slot[0] = index
  return slot
}

/** `common.Hash{'l','c','a'}`. */
export const LAST_CHANGED_AT_SLOT: Uint8Array = (() => {
  const slot = new Uint8Array(32)
  slot.set([0x6c, 0x63, 0x61])
  return slot
})()

/** subnet-EVM `FeeConfig.Verify`: the Go message of the first failing check, or undefined. */
export const verifyFeeConfig = feeConfigError

/**
 * The fee config and the number of the block that stored it (`GetStoredFeeConfig`,
 * `GetFeeConfigLastChangedAt`). targetBlockRate is read as a uint64, like Go.
 */
export async function readFeeConfig(state: PrecompileState): Promise<{ feeConfig: FeeConfig; lastChangedAt: bigint }> {
  const values: bigint[] = []
  for (let i = 0; i < FIELDS.length; i++)
    values.push(bytesToBigInt(await state.getStorage(FEE_MANAGER_ADDRESS, feeConfigSlot(i + 1))))
  const feeConfig = Object.fromEntries(FIELDS.map((f, i) => [f, values[i]!])) as FeeConfig
  feeConfig.targetBlockRate &= MAX_UINT64
  const lastChangedAt = bytesToBigInt(await state.getStorage(FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_SLOT))
  return { feeConfig, lastChangedAt }
}

/** `StoreFeeConfig`: verifies, then writes the fields and lastChangedAt = `blockNumber`. */
export async function storeFeeConfig(state: PrecompileState, fc: FeeConfig, blockNumber: bigint): Promise<void> {
  const invalid = verifyFeeConfig(fc)
  if (invalid !== undefined) throw new PrecompileError(`cannot verify fee config: ${invalid}`)
  for (let i = 0; i < FIELDS.length; i++)
    await state.putStorage(FEE_MANAGER_ADDRESS, feeConfigSlot(i + 1), encodeUint256(fc[FIELDS[i]!]))
  await state.putStorage(FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_SLOT, encodeUint256(blockNumber))
}

function encodeFeeConfig(fc: FeeConfig): Uint8Array[] {
  return FIELDS.map((f) => encodeUint256(fc[f]))
}

/**
 * Order: gas, read-only, input, role, event, verify-and-store. Go emits the event before
 * verifying; a failed verify reverts the log anyway, so here it is verified first and the log
 * only emitted when the store will succeed (the event's gas is still charged first).
 */
const setFeeConfig: PrecompileFunction = async (call, gas, args) => {
  gas.deduct(SET_FEE_CONFIG_GAS)
  if (call.readOnly) throw writeProtection()
  const durango = call.rules.isDurango
  if (!durango && args.length !== FEE_CONFIG_INPUT_LENGTH)
    throw new PrecompileError(`invalid input length for fee config Input: ${args.length}`)
  let words: Uint8Array[]
  try {
    words = unpackWords(args, FIELDS.length, !durango)
  } catch (err) {
    throw new PrecompileError(`failed to unpack input: ${(err as PrecompileError).shortMessage}`)
  }
  const feeConfig = Object.fromEntries(FIELDS.map((f, i) => [f, wordToUint(words[i]!)])) as FeeConfig
  // The ABI struct's targetBlockRate goes through big.Int.Uint64(): the low 64 bits.
  feeConfig.targetBlockRate &= MAX_UINT64
  if (!isEnabledRole(await getRole(call.state, FEE_MANAGER_ADDRESS, call.caller)))
    throw new PrecompileError(`non-enabled cannot change fee config: ${checksummed(call.caller)}`)
  let event: Uint8Array[] | undefined
  if (durango) {
    gas.deduct(FEE_CONFIG_CHANGED_EVENT_GAS)
    const { feeConfig: old } = await readFeeConfig(call.state)
    event = [...encodeFeeConfig(old), ...encodeFeeConfig(feeConfig)]
  }
  const invalid = verifyFeeConfig(feeConfig)
  if (invalid !== undefined) throw new PrecompileError(`cannot verify fee config: ${invalid}`)
  if (event) call.log([hexToBytes(EVENT_TOPICS.FeeConfigChanged), encodeAddress(call.caller)], concatWords(event))
  await storeFeeConfig(call.state, feeConfig, call.rules.blockNumber)
  return new Uint8Array(0)
}

const getFeeConfig: PrecompileFunction = async (call, gas) => {
  gas.deduct(GET_FEE_CONFIG_GAS)
  const { feeConfig } = await readFeeConfig(call.state)
  return concatWords(encodeFeeConfig(feeConfig))
}

const getFeeConfigLastChangedAt: PrecompileFunction = async (call, gas) => {
  gas.deduct(GET_LAST_CHANGED_AT_GAS)
  return encodeUint256(bytesToBigInt(await call.state.getStorage(FEE_MANAGER_ADDRESS, LAST_CHANGED_AT_SLOT)))
}

const allowList = allowListFunctions(FEE_MANAGER_ADDRESS)
export const feeManagerPrecompile = createStatefulPrecompile(
  {
    ...allowList.functions,
    [SELECTORS.setFeeConfig]: setFeeConfig,
    [SELECTORS.getFeeConfig]: getFeeConfig,
    [SELECTORS.getFeeConfigLastChangedAt]: getFeeConfigLastChangedAt,
  },
  allowList.options,
)

/**
 * Activation: stores `initialFeeConfig`, or the genesis fee config when there is none, with
 * lastChangedAt = the activation block; then writes the allow list.
 */
export async function configureFeeManager(
  state: PrecompileState,
  config: AllowListFields & { initialFeeConfig: FeeConfig | undefined },
  blockNumber: bigint,
  genesisFeeConfig: FeeConfig,
): Promise<void> {
  const [fc, what] = config.initialFeeConfig
    ? [config.initialFeeConfig, 'cannot configure given initial fee config']
    : [genesisFeeConfig, 'cannot configure fee config in chain config']
  try {
    await storeFeeConfig(state, fc, blockNumber)
  } catch (err) {
    if (!(err instanceof PrecompileError)) throw err
    throw new PrecompileError(`${what}: ${err.shortMessage}`)
  }
  await configureAllowList(state, FEE_MANAGER_ADDRESS, config)
}
