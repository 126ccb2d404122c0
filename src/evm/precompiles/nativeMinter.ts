import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import { PRECOMPILE_ADDRESSES, type AllowListFields } from '../config/types.js'
import { EVENT_TOPICS, SELECTORS, encodeAddress, encodeUint256, unpackWords, wordToAddress, wordToUint } from './abi.js'
import { allowListFunctions, checksummed, configureAllowList, getRole, isEnabledRole } from './allowList.js'
import { LOG_DATA_GAS, LOG_GAS, LOG_TOPIC_GAS, createStatefulPrecompile, writeProtection, type PrecompileFunction } from './contract.js'
import { PrecompileError, type PrecompileState } from './types.js'

/** contractNativeMinter (subnet-EVM `precompile/contracts/nativeminter`). */
export const NATIVE_MINTER_ADDRESS: Hex = PRECOMPILE_ADDRESSES.contractNativeMinterConfig

export const MINT_GAS = 30_000n
/** LOG + 3 topics (signature, sender, recipient) + one data word (amount). */
export const NATIVE_COIN_MINTED_EVENT_GAS = LOG_GAS + 3n * LOG_TOPIC_GAS + LOG_DATA_GAS * 32n

const MINT_INPUT_LENGTH = 64

/**
 * Unlike the allow-list setters, read-only is checked before the input. Any amount, zero
 * included, and any recipient, the zero address included, are accepted.
 */
const mintNativeCoin: PrecompileFunction = async (call, gas, args) => {
  gas.deduct(MINT_GAS)
  if (call.readOnly) throw writeProtection()
  const durango = call.rules.isDurango
  if (!durango && args.length !== MINT_INPUT_LENGTH)
    throw new PrecompileError(`invalid input length for minting: ${args.length}`)
  let words: Uint8Array[]
  try {
    words = unpackWords(args, 2, !durango)
  } catch (err) {
    throw new PrecompileError(`failed to unpack input: ${(err as PrecompileError).shortMessage}`)
  }
  const to = wordToAddress(words[0]!)
  const amount = wordToUint(words[1]!)
  if (!isEnabledRole(await getRole(call.state, NATIVE_MINTER_ADDRESS, call.caller)))
    throw new PrecompileError(`non-enabled cannot mint: ${checksummed(call.caller)}`)
  if (durango) {
    gas.deduct(NATIVE_COIN_MINTED_EVENT_GAS)
    call.log([hexToBytes(EVENT_TOPICS.NativeCoinMinted), encodeAddress(call.caller), encodeAddress(to)], encodeUint256(amount))
  }
  await call.state.addBalance(to, amount)
  return new Uint8Array(0)
}

const allowList = allowListFunctions(NATIVE_MINTER_ADDRESS)
export const nativeMinterPrecompile = createStatefulPrecompile(
  { ...allowList.functions, [SELECTORS.mintNativeCoin]: mintNativeCoin },
  allowList.options,
)

/** Activation: the initial mint is credited, then the allow list written. */
export async function configureNativeMinter(
  state: PrecompileState,
  config: AllowListFields & { initialMint: Map<Hex, bigint> },
): Promise<void> {
  for (const [to, amount] of config.initialMint) await state.addBalance(to, amount)
  await configureAllowList(state, NATIVE_MINTER_ADDRESS, config)
}
