import { bigIntToBytes, bytesToBigInt, bytesToHex, concatBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import type { Hex } from '../../core/hex.js'
import { PrecompileError } from './types.js'

/**
 * The little of the Solidity ABI the subnet-EVM precompiles need: static words only (address,
 * uint256, bool), decoded with subnet-EVM's `accounts/abi` rules and error strings so that a bad
 * calldata fails with the message the real node gives.
 */

/** 4-byte function selectors (keccak256 of the signature), lower-case. */
export const SELECTORS = {
  setAdmin: '0x704b6c02',
  setEnabled: '0x0aaf7043',
  setManager: '0xd0ebdbe7',
  setNone: '0x8c6bfb3b',
  readAllowList: '0xeb54dae1',
  mintNativeCoin: '0x4f5aaaba',
  setFeeConfig: '0x8f10b586',
  getFeeConfig: '0x5fbbc0d2',
  getFeeConfigLastChangedAt: '0x9e05549a',
  setRewardAddress: '0x5e00e679',
  allowFeeRecipients: '0x0329099f',
  disableRewards: '0xbc178628',
  currentRewardAddress: '0xe915608b',
  areFeeRecipientsAllowed: '0xf6542b2e',
} as const satisfies Record<string, Hex>

/** Event topic0 values (keccak256 of the event signature). */
export const EVENT_TOPICS = {
  RoleSet: '0xcdb7ea01f00a414d78757bdb0f6391664ba3fedf987eed280927c1e7d695be3e',
  NativeCoinMinted: '0x400cd392f3d56fd10bb1dbd5839fdda8298208ddaa97b368faa053e1850930ee',
  FeeConfigChanged: '0x4c98e43adb5962c18f3f0e6dd066e2a2de258d3b4f695b317b77c8f27cd044fc',
  RewardAddressChanged: '0xc2a9e07cba6f4920acaa5933bd0406949d5dbef7ee698e786ea23e8708f32a6c',
  FeeRecipientsAllowed: '0xabb1949bd129fef9b84601a48aee89d600d90074ca10216a02ce43996be55991',
  RewardsDisabled: '0xeb121f0335efe8f4b8ebef7793c18c171834696989656a8c345acc558359fabf',
} as const satisfies Record<string, Hex>

export const WORD = 32
const MAX_UINT256 = (1n << 256n) - 1n

export function encodeUint256(value: bigint): Uint8Array {
  if (value < 0n || value > MAX_UINT256) throw new RangeError(`${value} is not a uint256`)
  return setLengthLeft(bigIntToBytes(value), WORD)
}

export function encodeAddress(address: Hex): Uint8Array {
  return setLengthLeft(hexToBytes(address), WORD)
}

export function encodeBool(value: boolean): Uint8Array {
  return encodeUint256(value ? 1n : 0n)
}

export const concatWords = (words: Uint8Array[]): Uint8Array => concatBytes(...words)

/** `common.BytesToAddress` of a word: its last 20 bytes, no check of the first 12. */
export function wordToAddress(word: Uint8Array): Hex {
  return bytesToHex(word.subarray(word.length - 20))
}

export function wordToUint(word: Uint8Array): bigint {
  return bytesToBigInt(word)
}

/** Go's `%+v` of a byte slice: `[1 2 3]`. */
function goBytes(data: Uint8Array): string {
  return `[${Array.from(data).join(' ')}]`
}

/**
 * Splits method arguments into `count` static words as `ABI.UnpackInput` does: in strict mode
 * (before Durango) the length must be a multiple of 32; then no data at all, or too little for
 * an argument, fails. Trailing bytes are ignored. The precompiles' own exact-length checks run
 * before this.
 */
export function unpackWords(input: Uint8Array, count: number, strict: boolean): Uint8Array[] {
  if (strict && input.length % WORD !== 0) {
    const asString = new TextDecoder().decode(input)
    throw new PrecompileError(`abi: improperly formatted input: ${asString} - Bytes: [${goBytes(input)}]`)
  }
  if (input.length === 0 && count > 0)
    throw new PrecompileError('abi: attempting to unmarshal an empty string while arguments are expected')
  const words: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const end = (i + 1) * WORD
    if (end > input.length)
      throw new PrecompileError(`abi: cannot marshal in to go type: length insufficient ${input.length} require ${end}`)
    words.push(input.subarray(i * WORD, end))
  }
  return words
}
