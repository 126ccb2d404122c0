import type { Hex } from '../../core/hex.js'
import { FEE_CONFIG_FIELDS, feeConfigError, type FeeConfig } from '../fees.js'
import {
  checksum,
  expectObject,
  field,
  readAddress,
  readBigInt,
  readBool,
  readHexOrDecimal256,
  readUint64,
} from './decode.js'
import { ConfigError } from './errors.js'
import {
  PRECOMPILE_ADDRESSES,
  type AllowListFields,
  type NetworkUpgrades,
  type PrecompileConfig,
  type PrecompileKey,
  type RewardConfig,
  type UpgradeFields,
} from './types.js'

/** Every precompile key, in address order: the order subnet-EVM iterates its registered modules in. */
export const PRECOMPILE_KEYS: readonly PrecompileKey[] = (Object.keys(PRECOMPILE_ADDRESSES) as PrecompileKey[]).sort(
  (a, b) => (PRECOMPILE_ADDRESSES[a] < PRECOMPILE_ADDRESSES[b] ? -1 : 1),
)

export function isPrecompileKey(key: string): key is PrecompileKey {
  return Object.hasOwn(PRECOMPILE_ADDRESSES, key)
}

/** `warp.WarpDefaultQuorumNumerator`, used when a config says 0. */
export const WARP_DEFAULT_QUORUM_NUMERATOR = 67n
const WARP_QUORUM_NUMERATOR_MINIMUM = 33n
const WARP_QUORUM_DENOMINATOR = 100n

// --- FeeConfig ---

/** A FeeConfig as decoded from JSON: the `*big.Int` fields may be missing (nil in Go). */
export type PartialFeeConfig = { [K in keyof FeeConfig]: K extends 'targetBlockRate' ? bigint : bigint | undefined }

const FEE_FIELDS = FEE_CONFIG_FIELDS

/** `commontype.FeeConfig` from JSON: numbers only (Go's `*big.Int` refuses strings); unknown keys ignored. */
export function parseFeeConfigJson(json: unknown, path: string): PartialFeeConfig {
  if (json === null || json === undefined) return emptyFeeConfig()
  const obj = expectObject(json, 'commontype.FeeConfig', path)
  const out = emptyFeeConfig()
  for (const name of FEE_FIELDS) {
    const value = field(obj, name)
    if (name === 'targetBlockRate') out.targetBlockRate = readUint64(value, `${path}.${name}`) ?? 0n
    else out[name] = readBigInt(value, `${path}.${name}`)
  }
  return out
}

function emptyFeeConfig(): PartialFeeConfig {
  return {
    gasLimit: undefined,
    targetBlockRate: 0n,
    minBaseFee: undefined,
    targetGas: undefined,
    baseFeeChangeDenominator: undefined,
    minBlockGasCost: undefined,
    maxBlockGasCost: undefined,
    blockGasCostStep: undefined,
  }
}

/** `commontype.EmptyFeeConfig`: no field set, which genesis replaces with the default. */
export function isEmptyFeeConfig(fc: PartialFeeConfig): boolean {
  return FEE_FIELDS.every((name) => (name === 'targetBlockRate' ? fc[name] === 0n : fc[name] === undefined))
}

/**
 * `FeeConfig.Verify` (commontype/fee_config.go): nil fields first, then ranges in field order,
 * then the 32-byte limit the fee manager's storage imposes. Messages are Go's, unwrapped.
 */
export function verifyFeeConfig(fc: PartialFeeConfig | FeeConfig): asserts fc is FeeConfig {
  for (const name of FEE_FIELDS) {
    if (name !== 'targetBlockRate' && fc[name] === undefined) throw new ConfigError(`${name} cannot be nil`)
  }
  const message = feeConfigError(fc as FeeConfig)
  if (message) throw new ConfigError(message)
}

export function feeConfigsEqual(a: FeeConfig, b: FeeConfig): boolean {
  return FEE_FIELDS.every((name) => a[name] === b[name])
}

// --- parsing ---

function readUpgrade(obj: Record<string, unknown>, path: string): UpgradeFields {
  return {
    blockTimestamp: readUint64(field(obj, 'blockTimestamp'), `${path}.blockTimestamp`),
    disable: readBool(field(obj, 'disable'), `${path}.disable`),
  }
}

function readAddressList(value: unknown, path: string): Hex[] {
  if (value === null || value === undefined) return []
  if (!Array.isArray(value)) throw new ConfigError(`json: cannot unmarshal ${typeof value} into Go value of type []common.Address (${path})`)
  return value.map((v, i) => readAddress(v, `${path}[${i}]`))
}

function readAllowList(obj: Record<string, unknown>, path: string): AllowListFields {
  return {
    adminAddresses: readAddressList(field(obj, 'adminAddresses'), `${path}.adminAddresses`),
    managerAddresses: readAddressList(field(obj, 'managerAddresses'), `${path}.managerAddresses`),
    enabledAddresses: readAddressList(field(obj, 'enabledAddresses'), `${path}.enabledAddresses`),
  }
}

function readInitialMint(value: unknown, path: string): Map<Hex, bigint> {
  const mint = new Map<Hex, bigint>()
  if (value === null || value === undefined) return mint
  const obj = expectObject(value, 'map[common.Address]*math.HexOrDecimal256', path)
  for (const [key, amount] of Object.entries(obj)) {
    const address = readAddress(key, `${path} key`)
    // Go keeps a nil amount and Verify refuses it; the map here holds amounts only, so refuse now.
    if (amount === null) throw new ConfigError(`initial mint cannot contain nil amount for address ${checksum(address)}`)
    mint.set(address, readHexOrDecimal256(amount, `${path}.${key}`))
  }
  return mint
}

function readInitialFeeConfig(value: unknown, path: string): FeeConfig | undefined {
  if (value === null || value === undefined) return undefined
  const fc = parseFeeConfigJson(value, path)
  // The config type holds complete fee configs: a missing field fails now with Verify's nil message.
  for (const name of FEE_FIELDS) if (fc[name] === undefined) throw new ConfigError(`${name} cannot be nil`)
  return fc as FeeConfig
}

function readInitialRewardConfig(value: unknown, path: string): RewardConfig | undefined {
  if (value === null || value === undefined) return undefined
  const obj = expectObject(value, 'rewardmanager.InitialRewardConfig', path)
  const raw = field(obj, 'rewardAddress')
  const address = raw === null || raw === undefined ? undefined : readAddress(raw, `${path}.rewardAddress`)
  return {
    allowFeeRecipients: readBool(field(obj, 'allowFeeRecipients'), `${path}.allowFeeRecipients`),
    // The zero address is Go's zero value: "no reward address".
    rewardAddress: address === ZERO_ADDRESS ? undefined : address,
  }
}

const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000'

/**
 * One precompile's config from its JSON object (a genesis `config.<key>` entry or the value of a
 * `precompileUpgrades` item), as the module's `MakeConfig` + `json.Unmarshal` decode it: missing
 * or null fields take Go's zero values (so a missing `blockTimestamp` means never), unknown fields
 * are ignored, addresses are lower-cased. Shape errors throw; semantic checks are
 * {@link verifyPrecompileConfig}'s.
 */
export function parsePrecompileConfig(key: PrecompileKey, json: unknown, path: string): PrecompileConfig {
  const obj = json === null || json === undefined ? {} : expectObject(json, `${key.replace(/Config$/, '')}.Config`, path)
  const upgrade = readUpgrade(obj, path)
  switch (key) {
    case 'warpConfig':
      return {
        key,
        ...upgrade,
        quorumNumerator: readUint64(field(obj, 'quorumNumerator'), `${path}.quorumNumerator`) ?? 0n,
        requirePrimaryNetworkSigners: readBool(field(obj, 'requirePrimaryNetworkSigners'), `${path}.requirePrimaryNetworkSigners`),
      }
    case 'contractDeployerAllowListConfig':
    case 'txAllowListConfig':
      return { key, ...upgrade, ...readAllowList(obj, path) }
    case 'contractNativeMinterConfig':
      return { key, ...upgrade, ...readAllowList(obj, path), initialMint: readInitialMint(field(obj, 'initialMint'), `${path}.initialMint`) }
    case 'feeManagerConfig':
      return {
        key,
        ...upgrade,
        ...readAllowList(obj, path),
        initialFeeConfig: readInitialFeeConfig(field(obj, 'initialFeeConfig'), `${path}.initialFeeConfig`),
      }
    case 'rewardManagerConfig':
      return {
        key,
        ...upgrade,
        ...readAllowList(obj, path),
        initialRewardConfig: readInitialRewardConfig(field(obj, 'initialRewardConfig'), `${path}.initialRewardConfig`),
      }
  }
}

// --- Verify ---

const isDurango = (upgrades: NetworkUpgrades, ts: bigint) => upgrades.durangoTimestamp <= ts

/** `AllowListConfig.Verify` (precompile/allowlist/config.go), checks in Go's order. */
function verifyAllowList(c: AllowListFields & UpgradeFields, upgrades: NetworkUpgrades): void {
  const roles = new Map<Hex, 'enabled' | 'admin' | 'manager'>()
  for (const a of c.enabledAddresses) {
    if (roles.has(a)) throw new ConfigError(`duplicate address in enabled list: ${checksum(a)}`)
    roles.set(a, 'enabled')
  }
  for (const a of c.adminAddresses) {
    const role = roles.get(a)
    if (role === 'admin') throw new ConfigError(`duplicate address in admin list: ${checksum(a)}`)
    if (role !== undefined) throw new ConfigError(`cannot set address as both admin and enabled: ${checksum(a)}`)
    roles.set(a, 'admin')
  }
  if (c.managerAddresses.length > 0 && c.blockTimestamp !== undefined && !isDurango(upgrades, c.blockTimestamp))
    throw new ConfigError('cannot add managers before Durango')
  for (const a of c.managerAddresses) {
    const role = roles.get(a)
    if (role === 'manager') throw new ConfigError(`duplicate address in manager list: ${checksum(a)}`)
    if (role === 'admin') throw new ConfigError(`cannot set address as both admin and manager: ${checksum(a)}`)
    if (role === 'enabled') throw new ConfigError(`cannot set address as both enabled and manager: ${checksum(a)}`)
    roles.set(a, 'manager')
  }
}

/**
 * The module's `Verify(chainConfig)`, with Go's messages. Go walks `initialMint` in map order;
 * here it is address order, so with several bad amounts the first reported is deterministic.
 */
export function verifyPrecompileConfig(config: PrecompileConfig, upgrades: NetworkUpgrades): void {
  switch (config.key) {
    case 'contractDeployerAllowListConfig':
    case 'txAllowListConfig':
      return verifyAllowList(config, upgrades)
    case 'contractNativeMinterConfig':
      for (const address of [...config.initialMint.keys()].sort()) {
        const amount = config.initialMint.get(address) as bigint
        if (amount < 1n)
          throw new ConfigError(`initial mint cannot contain invalid amount: amount ${amount} for address ${checksum(address)}`)
      }
      return verifyAllowList(config, upgrades)
    case 'feeManagerConfig':
      verifyAllowList(config, upgrades)
      if (config.initialFeeConfig) verifyFeeConfig(config.initialFeeConfig)
      return
    case 'rewardManagerConfig':
      if (config.initialRewardConfig?.allowFeeRecipients && config.initialRewardConfig.rewardAddress !== undefined)
        throw new ConfigError('cannot enable both fee recipients and reward address at the same time')
      return verifyAllowList(config, upgrades)
    case 'warpConfig':
      if (config.blockTimestamp !== undefined && !isDurango(upgrades, config.blockTimestamp))
        throw new ConfigError('warp cannot be activated before Durango')
      if (config.quorumNumerator > WARP_QUORUM_DENOMINATOR)
        throw new ConfigError(
          `invalid warp quorum ratio: cannot specify numerator (${config.quorumNumerator}) > denominator (${WARP_QUORUM_DENOMINATOR})`,
        )
      if (config.quorumNumerator !== 0n && config.quorumNumerator < WARP_QUORUM_NUMERATOR_MINIMUM)
        throw new ConfigError(
          `invalid warp quorum ratio: cannot specify numerator (${config.quorumNumerator}) < min numerator (${WARP_QUORUM_NUMERATOR_MINIMUM})`,
        )
      return
  }
}

// --- Equal ---

const sameList = (a: Hex[], b: Hex[]) => a.length === b.length && a.every((x, i) => x === b[i])

function sameAllowList(a: AllowListFields, b: AllowListFields): boolean {
  return sameList(a.adminAddresses, b.adminAddresses) && sameList(a.managerAddresses, b.managerAddresses) && sameList(a.enabledAddresses, b.enabledAddresses)
}

/**
 * The module's `Equal`, which decides whether an activated upgrade was changed. Go's quirks are
 * kept: warp ignores `requirePrimaryNetworkSigners`, and the reward manager only compares
 * `initialRewardConfig` when the first config has one.
 */
export function precompileConfigsEqual(a: PrecompileConfig, b: PrecompileConfig): boolean {
  if (a.key !== b.key || a.blockTimestamp !== b.blockTimestamp || a.disable !== b.disable) return false
  switch (a.key) {
    case 'warpConfig':
      return a.quorumNumerator === (b as typeof a).quorumNumerator
    case 'contractDeployerAllowListConfig':
    case 'txAllowListConfig':
      return sameAllowList(a, b as typeof a)
    case 'contractNativeMinterConfig': {
      const other = b as typeof a
      if (!sameAllowList(a, other) || a.initialMint.size !== other.initialMint.size) return false
      for (const [address, amount] of a.initialMint) if (other.initialMint.get(address) !== amount) return false
      return true
    }
    case 'feeManagerConfig': {
      const other = b as typeof a
      if (!sameAllowList(a, other)) return false
      if (!a.initialFeeConfig || !other.initialFeeConfig) return !a.initialFeeConfig && !other.initialFeeConfig
      return feeConfigsEqual(a.initialFeeConfig, other.initialFeeConfig)
    }
    case 'rewardManagerConfig': {
      const other = b as typeof a
      if (a.initialRewardConfig) {
        const o = other.initialRewardConfig
        if (!o || o.allowFeeRecipients !== a.initialRewardConfig.allowFeeRecipients || o.rewardAddress !== a.initialRewardConfig.rewardAddress)
          return false
      }
      return sameAllowList(a, other)
    }
  }
}
