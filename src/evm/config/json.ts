import { FEE_CONFIG_FIELDS, type FeeConfig } from '../fees.js'
import type { NetworkUpgradeOverrides, StateUpgrade, SubnetChainConfig } from './genesis.js'
import { ETH_BLOCK_FORKS, NETWORK_UPGRADE_JSON_KEYS } from './genesis.js'
import type { NetworkUpgrades, PrecompileConfig } from './types.js'

/**
 * JSON shapes of the subnet-EVM config RPCs (eth_getChainConfig, eth_feeConfig,
 * eth_getActivePrecompilesAt), with keys in the order Go writes them.
 *
 * Integers are JSON numbers, as Go writes `*big.Int` and `uint64`. They are plain JS numbers when
 * `Number.isSafeInteger` holds and bigints beyond that (a large `minBaseFee`, a far timestamp), so
 * no precision is lost; `JSON.stringify` refuses bigints, so such values need
 * {@link stringifyJson} (or a serializer that writes bigints as bare digits).
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue }

/** An integer as a JSON number: a JS number when exactly representable, the bigint otherwise. */
export function jsonInt(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n
}

/** `JSON.stringify` that writes bigints as bare JSON numbers (keys keep their insertion order). */
export function stringifyJson(value: unknown): string {
  const marker = '\u0000bigint:'
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v))
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1')
}

/** Go's `%#x` of a big.Int (`math.HexOrDecimal256.MarshalText`): `0x1f`, `-0x1f`, `0x0`. */
function goHex(n: bigint): string {
  return n < 0n ? `-0x${(-n).toString(16)}` : `0x${n.toString(16)}`
}

const FEE_FIELDS = FEE_CONFIG_FIELDS

/** `commontype.FeeConfig` JSON: struct order; `targetBlockRate` is `omitempty` (a 0 is left out). */
export function feeConfigFieldsJson(fc: FeeConfig): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {}
  for (const name of FEE_FIELDS) if (name !== 'targetBlockRate' || fc[name] !== 0n) out[name] = jsonInt(fc[name])
  return out
}

/** The eth_feeConfig result; `lastChangedAt` is left out when undefined (Go's nil, before SubnetEVM). */
export function feeConfigJson(fc: FeeConfig, lastChangedAt?: bigint): { feeConfig: Record<string, JsonValue>; lastChangedAt?: JsonValue } {
  const out: { feeConfig: Record<string, JsonValue>; lastChangedAt?: JsonValue } = { feeConfig: feeConfigFieldsJson(fc) }
  if (lastChangedAt !== undefined) out.lastChangedAt = jsonInt(lastChangedAt)
  return out
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/**
 * A precompile config as its Go struct marshals: the embedded `AllowListConfig` (address lists,
 * `omitempty`), then `Upgrade` (`blockTimestamp` always, null when nil; `disable` only when true),
 * then the module's own fields. Addresses lower-case (`common.Address` text), `initialMint`
 * amounts as `0x` hex strings (`math.HexOrDecimal256`), `rewardAddress` always present (an array
 * is never "empty" to `omitempty`).
 */
export function precompileConfigJson(c: PrecompileConfig): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {}
  if (c.key !== 'warpConfig') {
    if (c.adminAddresses.length > 0) out.adminAddresses = [...c.adminAddresses]
    if (c.managerAddresses.length > 0) out.managerAddresses = [...c.managerAddresses]
    if (c.enabledAddresses.length > 0) out.enabledAddresses = [...c.enabledAddresses]
  }
  out.blockTimestamp = c.blockTimestamp === undefined ? null : jsonInt(c.blockTimestamp)
  if (c.disable) out.disable = true
  switch (c.key) {
    case 'warpConfig':
      out.quorumNumerator = jsonInt(c.quorumNumerator)
      out.requirePrimaryNetworkSigners = c.requirePrimaryNetworkSigners
      break
    case 'contractNativeMinterConfig':
      if (c.initialMint.size > 0) {
        const mint: Record<string, JsonValue> = {}
        for (const address of [...c.initialMint.keys()].sort()) mint[address] = goHex(c.initialMint.get(address) as bigint)
        out.initialMint = mint
      }
      break
    case 'feeManagerConfig':
      if (c.initialFeeConfig) out.initialFeeConfig = feeConfigFieldsJson(c.initialFeeConfig)
      break
    case 'rewardManagerConfig':
      if (c.initialRewardConfig)
        out.initialRewardConfig = {
          allowFeeRecipients: c.initialRewardConfig.allowFeeRecipients,
          rewardAddress: c.initialRewardConfig.rewardAddress ?? ZERO_ADDRESS,
        }
      break
    default:
      break
  }
  return out
}

/** `NetworkUpgrades` JSON (struct order, nil left out), with `l1EvmTimestamp` for SubnetEVM. */
function networkUpgradesJson(upgrades: NetworkUpgradeOverrides): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {}
  for (const name of Object.keys(NETWORK_UPGRADE_JSON_KEYS) as (keyof NetworkUpgrades)[]) {
    const ts = upgrades[name]
    if (ts !== undefined) out[NETWORK_UPGRADE_JSON_KEYS[name]] = jsonInt(ts)
  }
  return out
}

function stateUpgradeJson(u: StateUpgrade): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {}
  if (u.blockTimestamp !== undefined) out.blockTimestamp = jsonInt(u.blockTimestamp)
  const accounts: Record<string, JsonValue> = {}
  for (const address of Object.keys(u.accounts).sort()) {
    const acc = u.accounts[address as keyof typeof u.accounts]
    const a: Record<string, JsonValue> = {}
    if (acc?.code !== undefined && acc.code !== '0x') a.code = acc.code
    if (acc?.storage && Object.keys(acc.storage).length > 0) {
      const storage: Record<string, JsonValue> = {}
      for (const slot of Object.keys(acc.storage).sort()) storage[slot] = acc.storage[slot as keyof typeof acc.storage] as string
      a.storage = storage
    }
    if (acc?.balanceChange !== undefined) a.balanceChange = goHex(acc.balanceChange)
    accounts[address] = a
  }
  out.accounts = accounts
  return out
}

/** What {@link chainConfigJson} reads; network upgrades may be partial, as in a hand-built Go config. */
export type ChainConfigJsonInput = Pick<
  SubnetChainConfig,
  'chainId' | 'ethUpgrades' | 'feeConfig' | 'allowFeeRecipients' | 'genesisPrecompiles' | 'precompileUpgrades' | 'stateUpgrades' | 'networkUpgradeOverrides'
> & { networkUpgrades: NetworkUpgradeOverrides }

/** `extras.UpgradeConfig` JSON: each part left out when empty; precompile upgrades as `{"<key>": {...}}`. */
export function upgradeConfigJson(cfg: Pick<ChainConfigJsonInput, 'precompileUpgrades' | 'stateUpgrades' | 'networkUpgradeOverrides'>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {}
  if (cfg.networkUpgradeOverrides) out.networkUpgradeOverrides = networkUpgradesJson(cfg.networkUpgradeOverrides)
  if (cfg.stateUpgrades.length > 0) out.stateUpgrades = cfg.stateUpgrades.map(stateUpgradeJson)
  if (cfg.precompileUpgrades.length > 0) out.precompileUpgrades = cfg.precompileUpgrades.map((c) => ({ [c.key]: precompileConfigJson(c) }))
  return out
}

/**
 * The eth_getChainConfig result: libevm merges geth's and subnet-EVM's fields through a Go map, so
 * the top-level keys come out sorted; `upgrades` is spliced in last and always present (`{}` when
 * empty). geth fields are `omitempty` except `chainId`.
 */
export function chainConfigJson(cfg: ChainConfigJsonInput): Record<string, JsonValue> {
  const fields: Record<string, JsonValue> = { chainId: jsonInt(cfg.chainId) }
  for (const name of ETH_BLOCK_FORKS) {
    const block = cfg.ethUpgrades[name]
    if (block !== undefined) fields[name] = jsonInt(block)
  }
  if (cfg.ethUpgrades.shanghaiTime !== undefined) fields.shanghaiTime = jsonInt(cfg.ethUpgrades.shanghaiTime)
  if (cfg.ethUpgrades.cancunTime !== undefined) fields.cancunTime = jsonInt(cfg.ethUpgrades.cancunTime)
  Object.assign(fields, networkUpgradesJson(cfg.networkUpgrades))
  fields.feeConfig = feeConfigFieldsJson(cfg.feeConfig)
  if (cfg.allowFeeRecipients) fields.allowFeeRecipients = true
  for (const c of cfg.genesisPrecompiles) fields[c.key] = precompileConfigJson(c)

  const out: Record<string, JsonValue> = {}
  for (const key of Object.keys(fields).sort()) out[key] = fields[key] as JsonValue
  out.upgrades = upgradeConfigJson(cfg)
  return out
}
