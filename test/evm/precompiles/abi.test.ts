import { describe, expect, it } from 'vitest'
import { bytesToHex } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import {
  EVENT_TOPICS,
  SELECTORS,
  encodeAddress,
  encodeBool,
  encodeUint256,
  unpackWords,
  wordToAddress,
} from '../../../src/evm/precompiles/abi.js'

const hash = (s: string) => bytesToHex(keccak_256(new TextEncoder().encode(s)))
const FEE_TUPLE = `(${new Array(8).fill('uint256').join(',')})`

describe('selectors and topics match keccak of their signatures', () => {
  const signatures: Record<keyof typeof SELECTORS, string> = {
    setAdmin: 'setAdmin(address)',
    setEnabled: 'setEnabled(address)',
    setManager: 'setManager(address)',
    setNone: 'setNone(address)',
    readAllowList: 'readAllowList(address)',
    mintNativeCoin: 'mintNativeCoin(address,uint256)',
    setFeeConfig: `setFeeConfig${FEE_TUPLE}`,
    getFeeConfig: 'getFeeConfig()',
    getFeeConfigLastChangedAt: 'getFeeConfigLastChangedAt()',
    setRewardAddress: 'setRewardAddress(address)',
    allowFeeRecipients: 'allowFeeRecipients()',
    disableRewards: 'disableRewards()',
    currentRewardAddress: 'currentRewardAddress()',
    areFeeRecipientsAllowed: 'areFeeRecipientsAllowed()',
  }
  for (const [name, sig] of Object.entries(signatures))
    it(name, () => expect(SELECTORS[name as keyof typeof SELECTORS]).toBe(hash(sig).slice(0, 10)))

  const events: Record<keyof typeof EVENT_TOPICS, string> = {
    RoleSet: 'RoleSet(uint256,address,address,uint256)',
    NativeCoinMinted: 'NativeCoinMinted(address,address,uint256)',
    FeeConfigChanged: `FeeConfigChanged(address,${FEE_TUPLE},${FEE_TUPLE})`,
    RewardAddressChanged: 'RewardAddressChanged(address,address,address)',
    FeeRecipientsAllowed: 'FeeRecipientsAllowed(address)',
    RewardsDisabled: 'RewardsDisabled(address)',
  }
  for (const [name, sig] of Object.entries(events))
    it(name, () => expect(EVENT_TOPICS[name as keyof typeof EVENT_TOPICS]).toBe(hash(sig)))
})

describe('words', () => {
  it('encodes uint256, address and bool left-padded', () => {
    expect(bytesToHex(encodeUint256(0x1234n))).toBe(`0x${'0'.repeat(60)}1234`)
    expect(bytesToHex(encodeAddress('0x0200000000000000000000000000000000000001'))).toBe(
      `0x${'0'.repeat(24)}0200000000000000000000000000000000000001`,
    )
    expect(bytesToHex(encodeBool(true))).toBe(`0x${'0'.repeat(63)}1`)
    expect(bytesToHex(encodeBool(false))).toBe(`0x${'0'.repeat(64)}`)
    expect(() => encodeUint256(1n << 256n)).toThrow(RangeError)
    expect(() => encodeUint256(-1n)).toThrow(RangeError)
  })
  it('an address is the last 20 bytes of a word, dirty high bytes ignored', () => {
    const w = new Uint8Array(32).fill(0xff)
    expect(wordToAddress(w)).toBe(`0x${'f'.repeat(40)}`)
  })
})

describe('unpackWords (accounts/abi rules)', () => {
  it('no data', () => {
    expect(() => unpackWords(new Uint8Array(0), 1, false)).toThrow(
      'abi: attempting to unmarshal an empty string while arguments are expected',
    )
  })
  it('too short for an argument', () => {
    expect(() => unpackWords(new Uint8Array(40), 2, false)).toThrow(
      'abi: cannot marshal in to go type: length insufficient 40 require 64',
    )
    expect(() => unpackWords(new Uint8Array(31), 1, false)).toThrow(
      'abi: cannot marshal in to go type: length insufficient 31 require 32',
    )
  })
  it('strict mode wants a multiple of 32, non-strict ignores the tail', () => {
    expect(() => unpackWords(new Uint8Array([0x41, 0x42, 0x43]), 1, true)).toThrow(
      'abi: improperly formatted input: ABC - Bytes: [[65 66 67]]',
    )
    expect(unpackWords(new Uint8Array(70), 2, false)).toHaveLength(2)
    expect(unpackWords(new Uint8Array(96), 2, true)).toHaveLength(2)
  })
})
