import { expect } from 'vitest'
import { concatHex, createPublicClient, createWalletClient, custom, defineChain, encodeFunctionData, getAddress, hexToBytes, numberToHex, parseAbi, type Abi, type Address, type Chain, type Hex, type PublicClient, type Transport } from 'viem'
import type { L1Harness } from '../helpers.js'
import { accounts } from '../helpers.js'
import type { L1Options } from '../../../src/network/l1.js'
import { createNetwork, type NetworkOptions } from '../../../src/network/network.js'
import { createEIP1193Provider } from '../../../src/rpc/provider.js'

/** Shared pieces of the precompile acceptance tests: ABIs, gas arithmetic, raw contracts. */

export const DEPLOYER_LIST = '0x0200000000000000000000000000000000000000' as const
export const NATIVE_MINTER = '0x0200000000000000000000000000000000000001' as const
export const TX_ALLOW_LIST = '0x0200000000000000000000000000000000000002' as const
export const FEE_MANAGER = '0x0200000000000000000000000000000000000003' as const
export const REWARD_MANAGER = '0x0200000000000000000000000000000000000004' as const
export const BLACKHOLE = '0x0100000000000000000000000000000000000000' as const
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as const

/** Every network upgrade at the local network's default (2020-12-05), so a genesis config can name a precompile with it. */
export const ACTIVE = 1607144400

export const allowListAbi = parseAbi([
  'event RoleSet(uint256 indexed role, address indexed account, address indexed sender, uint256 oldRole)',
  'function setAdmin(address addr)',
  'function setEnabled(address addr)',
  'function setManager(address addr)',
  'function setNone(address addr)',
  'function readAllowList(address addr) view returns (uint256 role)',
])

export const minterAbi = [
  ...allowListAbi,
  ...parseAbi([
    'event NativeCoinMinted(address indexed sender, address indexed recipient, uint256 amount)',
    'function mintNativeCoin(address addr, uint256 amount)',
  ]),
] as const

const feeConfigTuple =
  '(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)'
export const feeManagerAbi = [
  ...allowListAbi,
  ...parseAbi([
    `event FeeConfigChanged(address indexed sender, ${feeConfigTuple} oldFeeConfig, ${feeConfigTuple} newFeeConfig)`,
    'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
    'function getFeeConfig() view returns (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
    'function getFeeConfigLastChangedAt() view returns (uint256 blockNumber)',
  ]),
] as const

export const rewardManagerAbi = [
  ...allowListAbi,
  ...parseAbi([
    'event RewardAddressChanged(address indexed sender, address indexed oldRewardAddress, address indexed newRewardAddress)',
    'event FeeRecipientsAllowed(address indexed sender)',
    'event RewardsDisabled(address indexed sender)',
    'function setRewardAddress(address addr)',
    'function allowFeeRecipients()',
    'function disableRewards()',
    'function currentRewardAddress() view returns (address rewardAddress)',
    'function areFeeRecipientsAllowed() view returns (bool isAllowed)',
  ]),
] as const

export const Role = { None: 0n, Enabled: 1n, Admin: 2n, Manager: 3n } as const
export const ROLE_NAMES = { 0: 'NoRole', 1: 'EnabledRole', 2: 'AdminRole', 3: 'ManagerRole' } as const
export type RoleSetter = 'setNone' | 'setEnabled' | 'setAdmin' | 'setManager'
export const SETTER_ROLE: Record<RoleSetter, bigint> = { setNone: 0n, setEnabled: 1n, setAdmin: 2n, setManager: 3n }

/** Gas numbers from the reference (subnet-EVM `precompile/...`). */
export const GAS = {
  tx: 21_000n,
  coldAccount: 2_600n,
  modifyAllowList: 20_000n,
  readAllowList: 5_000n,
  roleSetEvent: 2_131n,
  mint: 30_000n,
  mintEvent: 1_756n,
  setFeeConfig: 180_000n,
  getFeeConfig: 40_000n,
  getLastChangedAt: 5_000n,
  feeConfigChangedEvent: 45_221n,
  rewardSetter: 25_000n,
  rewardView: 5_000n,
  senderEvent: 1_125n,
  rewardAddressChangedEvent: 6_875n,
} as const

/** EIP-2028 calldata gas: 4 per zero byte, 16 per non-zero byte. */
export function calldataGas(data: Hex): bigint {
  let gas = 0n
  for (const b of hexToBytes(data)) gas += b === 0 ? 4n : 16n
  return gas
}

/** gasUsed of a top-level call to a precompile: intrinsic + calldata + cold account + the function's own gas. */
export function precompileTxGas(data: Hex, functionGas: bigint): bigint {
  return GAS.tx + calldataGas(data) + GAS.coldAccount + functionGas
}

/** A JSON-RPC error from the provider (code and Go message), or a failure if the call succeeded. */
export async function rpcError(h: L1Harness, method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  try {
    const result = await h.provider.request({ method, params })
    throw new Error(`${method} unexpectedly succeeded: ${JSON.stringify(result)}`)
  } catch (err) {
    const e = err as { code?: number; message: string }
    if (e.message.includes('unexpectedly succeeded')) throw err
    return { code: e.code ?? NaN, message: e.message }
  }
}

/** eth_call and eth_estimateGas both fail with JSON-RPC -32000 and exactly `message`. */
export async function expectCallError(h: L1Harness, from: Address, to: Address | undefined, data: Hex, message: string): Promise<void> {
  const tx = { from, ...(to ? { to } : {}), data }
  const call = await rpcError(h, 'eth_call', [tx, 'latest'])
  expect(call.code).toBe(-32000)
  expect(call.message).toBe(message)
  const estimate = await rpcError(h, 'eth_estimateGas', [tx])
  expect(estimate.code).toBe(-32000)
  expect(estimate.message).toBe(message)
}

export const cannotModify = (caller: Address, from: bigint, to: bigint) =>
  `cannot modify allow list: modify address: ${getAddress(caller)}, from role: ${ROLE_NAMES[Number(from) as 0]}, to role: ${ROLE_NAMES[Number(to) as 0]}`

/**
 * Sends a raw transaction (a fixed gas limit, no estimation) and returns its receipt. viem's
 * wallet would estimate gas first, which fails for a failing call; here the tx is mined anyway.
 * Fees are fixed (100 gwei cap, 1 gwei tip) so that a raised minimum base fee does not refuse it.
 */
export async function sendTx(h: L1Harness, from: (typeof accounts)[0], to: Address | undefined, data: Hex, gas: bigint, value = 0n) {
  const hash = await h.wallet(from).sendTransaction({ to: to ?? null, data, gas, value, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n } as never)
  return h.publicClient.getTransactionReceipt({ hash })
}

/** Calls a precompile's function through a mined transaction and returns the receipt. */
export async function sendCall(h: L1Harness, from: (typeof accounts)[0], to: Address, abi: Abi, functionName: string, args: unknown[] = [], gas = 1_000_000n) {
  const data = encodeFunctionData({ abi, functionName, args } as never)
  const receipt = await sendTx(h, from, to, data, gas)
  return { receipt, data }
}

export async function readRole(h: L1Harness, precompile: Address, who: Address): Promise<bigint> {
  return h.publicClient.readContract({ address: precompile, abi: allowListAbi, functionName: 'readAllowList', args: [who] })
}

/** A block's JSON as the node returns it. */
export async function rawBlock(h: L1Harness, tag: string | bigint = 'latest'): Promise<Record<string, string>> {
  const param = typeof tag === 'bigint' ? numberToHex(tag) : tag
  return (await h.provider.request({ method: 'eth_getBlockByNumber', params: [param, false] })) as Record<string, string>
}

// ---------------------------------------------------------------------------------------------
// Hand-assembled contracts

const OPCODES: Record<string, number> = {
  STOP: 0x00, ADD: 0x01, SUB: 0x03, EQ: 0x14, ISZERO: 0x15, SHR: 0x1c, CALLDATALOAD: 0x35, CALLDATASIZE: 0x36,
  CALLDATACOPY: 0x37, CODECOPY: 0x39, RETURNDATASIZE: 0x3d, RETURNDATACOPY: 0x3e, POP: 0x50, MSTORE: 0x52,
  JUMP: 0x56, JUMPI: 0x57, GAS: 0x5a, JUMPDEST: 0x5b, DUP1: 0x80, DUP2: 0x81, DUP3: 0x82, DUP6: 0x85, SWAP1: 0x90,
  CREATE: 0xf0, CALL: 0xf1, RETURN: 0xf3, DELEGATECALL: 0xf4, STATICCALL: 0xfa,
}

/** A tiny assembler: opcode names, `[n]` pushes a 1-byte value, `@label` pushes a 2-byte label, `label:` marks a JUMPDEST. */
export function assemble(program: (string | number)[]): Hex {
  const labels = new Map<string, number>()
  const size = (item: string | number) => (typeof item === 'number' ? 2 : item.startsWith('@') ? 3 : 1)
  let pc = 0
  for (const item of program) {
    if (typeof item === 'string' && item.endsWith(':')) labels.set(item.slice(0, -1), pc)
    pc += size(item)
  }
  const bytes: number[] = []
  for (const item of program) {
    if (typeof item === 'number') bytes.push(0x60, item)
    else if (item.startsWith('@')) {
      const at = labels.get(item.slice(1))
      if (at === undefined) throw new Error(`no label ${item}`)
      bytes.push(0x61, at >> 8, at & 0xff)
    } else if (item.endsWith(':')) bytes.push(OPCODES.JUMPDEST!)
    else {
      const op = OPCODES[item]
      if (op === undefined) throw new Error(`no opcode ${item}`)
      bytes.push(op)
    }
  }
  return `0x${bytes.map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** Init code returning `runtime` (no PUSH0, so it also runs before Durango). */
export function initCode(runtime: Hex): Hex {
  const length = (runtime.length - 2) / 2
  if (length > 255) throw new Error('runtime too long for this init code')
  // PUSH1 len DUP1 PUSH1 12 PUSH1 0 CODECOPY PUSH1 0 RETURN
  const prefix = assemble([length, 'DUP1', 12, 0, 'CODECOPY', 0, 'RETURN'])
  expect((prefix.length - 2) / 2).toBe(11)
  return concatHex([prefix, '0x00', runtime])
}

/**
 * A proxy: calldata = mode (1 byte: 0 CALL, 1 STATICCALL, 2 DELEGATECALL) ++ target (20 bytes) ++
 * payload. It forwards the payload with all its gas and returns (success word ++ return data); it
 * never fails itself.
 */
export const PROXY_RUNTIME = assemble([
  0, 'CALLDATALOAD', 0xf8, 'SHR', // [mode]
  'CALLDATASIZE', 21, 'SWAP1', 'SUB', // [mode, n]
  'DUP1', 21, 0, 'CALLDATACOPY', // mem[0..n] = payload
  0, 0, 'DUP3', 0, // [mode, n, outSize=0, outOff=0, inSize=n, inOff=0]
  'DUP6', 1, 'EQ', '@static', 'JUMPI',
  'DUP6', 2, 'EQ', '@delegate', 'JUMPI',
  0, 1, 'CALLDATALOAD', 0x60, 'SHR', 'GAS', 'CALL', '@done', 'JUMP',
  'static:', 1, 'CALLDATALOAD', 0x60, 'SHR', 'GAS', 'STATICCALL', '@done', 'JUMP',
  'delegate:', 1, 'CALLDATALOAD', 0x60, 'SHR', 'GAS', 'DELEGATECALL',
  'done:', // [mode, n, success]
  0, 'MSTORE',
  'RETURNDATASIZE', 0, 32, 'RETURNDATACOPY',
  'RETURNDATASIZE', 32, 'ADD', 0, 'RETURN',
])

export type ProxyMode = 'call' | 'staticcall' | 'delegatecall'
export function proxyData(mode: ProxyMode, target: Address, payload: Hex): Hex {
  const m = mode === 'call' ? '0x00' : mode === 'staticcall' ? '0x01' : '0x02'
  return concatHex([m, target, payload])
}

/** A factory: every call does CREATE with empty init code and returns the new address (0 on failure). */
export const FACTORY_RUNTIME = assemble([0, 0, 0, 'CREATE', 0, 'MSTORE', 32, 0, 'RETURN'])

/** Deploys `runtime` from `from` (who must be allowed to deploy) and returns its address. */
export async function deploy(h: L1Harness, from: (typeof accounts)[0], runtime: Hex): Promise<Address> {
  const receipt = await sendTx(h, from, undefined, initCode(runtime), 500_000n)
  expect(receipt.status).toBe('success')
  return getAddress(receipt.contractAddress!)
}

/**
 * eth_estimateGas is geth's binary search stopped at 1.5% (`estimateGasErrorRatio`): never below
 * what the call uses, at most 1.5% above it.
 */
export function expectEstimate(estimate: bigint, exact: bigint): void {
  expect(estimate >= exact, `estimate ${estimate} < ${exact}`).toBe(true)
  expect(Number(estimate - exact) / Number(estimate), `estimate ${estimate} vs ${exact}`).toBeLessThan(0.015)
}

/**
 * Like {@link l1Network} of the shared helpers, with the L1's extra options (a node's
 * `feeRecipient`, …) and network options (preset, clock).
 */
export async function l1NetworkWith(
  genesis: unknown,
  l1: Partial<Omit<L1Options, 'name' | 'genesis'>> = {},
  options: Partial<NetworkOptions> = {},
): Promise<L1Harness> {
  const network = await createNetwork({ ...options, l1s: [{ name: 'dex', genesis, ...l1 }] })
  const chainL1 = network.l1s[0]!
  const provider = createEIP1193Provider({ network, chain: chainL1.chain })
  const chain: Chain = defineChain({ id: Number(chainL1.chain.chainId), name: 'dex', nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: ['http://unused'] } } })
  const publicClient = createPublicClient({ chain, transport: custom(provider) }) as PublicClient<Transport, Chain>
  const wallet = (account: (typeof accounts)[0]) => createWalletClient({ chain, account, transport: custom(provider) })
  return { network, l1: chainL1, provider, publicClient, wallet }
}
