import type { EthUpgrades, SubnetChainConfig } from './genesis.js'
import { isForkTransition } from './genesis.js'
import { PRECOMPILE_KEYS } from './precompileConfigs.js'
import { precompileConfigJson, jsonInt, type JsonValue } from './json.js'
import type { NetworkUpgrades, PrecompileConfig, PrecompileKey } from './types.js'

/** The parts of a chain config that decide the rules at a timestamp. */
export type RulesConfig = Pick<SubnetChainConfig, 'genesisPrecompiles' | 'precompileUpgrades' | 'networkUpgrades'>

const forked = (fork: bigint | undefined, t: bigint) => fork !== undefined && fork <= t

export const isSubnetEVM = (cfg: Pick<RulesConfig, 'networkUpgrades'>, t: bigint) => forked(cfg.networkUpgrades.subnetEVMTimestamp, t)
export const isDurango = (cfg: Pick<RulesConfig, 'networkUpgrades'>, t: bigint) => forked(cfg.networkUpgrades.durangoTimestamp, t)
export const isEtna = (cfg: Pick<RulesConfig, 'networkUpgrades'>, t: bigint) => forked(cfg.networkUpgrades.etnaTimestamp, t)
export const isFortuna = (cfg: Pick<RulesConfig, 'networkUpgrades'>, t: bigint) => forked(cfg.networkUpgrades.fortunaTimestamp, t)
export const isGranite = (cfg: Pick<RulesConfig, 'networkUpgrades'>, t: bigint) => forked(cfg.networkUpgrades.graniteTimestamp, t)

/** Genesis config of `key` (if any) then its upgrades, in list order. */
function configsFor(cfg: RulesConfig, key: PrecompileKey): PrecompileConfig[] {
  const genesis = cfg.genesisPrecompiles.filter((c) => c.key === key)
  return [...genesis, ...cfg.precompileUpgrades.filter((c) => c.key === key)]
}

/**
 * `GetActivePrecompileConfig`: the last config of `key` (genesis, then upgrades) with a timestamp
 * ≤ `t`, or undefined when there is none or that config disables the precompile.
 */
export function activePrecompileConfig(cfg: RulesConfig, key: PrecompileKey, t: bigint): PrecompileConfig | undefined {
  const active = configsFor(cfg, key).filter((c) => isForkTransition(c.blockTimestamp, undefined, t))
  const last = active[active.length - 1]
  return last && !last.disable ? last : undefined
}

/** `IsPrecompileEnabled`. */
export function isPrecompileEnabled(cfg: RulesConfig, key: PrecompileKey, t: bigint): boolean {
  return activePrecompileConfig(cfg, key, t) !== undefined
}

/** Every precompile enabled at `t`, in address order. */
export function enabledPrecompiles(cfg: RulesConfig, t: bigint): PrecompileConfig[] {
  return PRECOMPILE_KEYS.map((key) => activePrecompileConfig(cfg, key, t)).filter((c) => c !== undefined)
}

/**
 * The configs to apply at the start of a block at `blockTime` whose parent is at `parentTime`
 * (undefined for the genesis block): those with `!(ts <= parentTime) && ts <= blockTime`
 * (`IsForkTransition`), precompiles in address order and each one's configs in list order
 * (`ApplyPrecompileActivations`). A disabling config means "wipe the account"; an enabling one
 * means "set nonce 1, code 0x01, Configure".
 */
export function precompileTransitions(cfg: RulesConfig, parentTime: bigint | undefined, blockTime: bigint): PrecompileConfig[] {
  const out: PrecompileConfig[] = []
  for (const key of PRECOMPILE_KEYS)
    for (const c of configsFor(cfg, key)) if (isForkTransition(c.blockTimestamp, parentTime, blockTime)) out.push(c)
  return out
}

/** geth's `Rules` for block 0 and `isMerge = true` at `t`, as eth_getActiveRulesAt writes them (Go field names). */
export type EthRulesJson = {
  ChainID: JsonValue
  IsHomestead: boolean
  IsEIP150: boolean
  IsEIP155: boolean
  IsEIP158: boolean
  IsByzantium: boolean
  IsConstantinople: boolean
  IsPetersburg: boolean
  IsIstanbul: boolean
  IsBerlin: boolean
  IsLondon: boolean
  IsMerge: boolean
  IsShanghai: boolean
  IsCancun: boolean
  IsPrague: boolean
  IsVerkle: boolean
}

/** `extras.AvalancheRules` of subnet-EVM v0.8.0 (no Helicon). */
export type AvalancheRulesJson = { IsSubnetEVM: boolean; IsDurango: boolean; IsEtna: boolean; IsFortuna: boolean; IsGranite: boolean }

export type ActiveRulesJson = {
  ethRules: EthRulesJson
  avalancheRules: AvalancheRulesJson
  precompiles: Record<string, { timestamp: JsonValue }>
}

/** `ChainConfig.Rules(common.Big0, params.IsMergeTODO, t)`'s geth part: block forks tested at block 0. */
function ethRules(chainId: bigint, eth: EthUpgrades, t: bigint): EthRulesJson {
  const atGenesis = (b: bigint | undefined) => b !== undefined && b <= 0n
  const isLondon = atGenesis(eth.londonBlock)
  const isMerge = isLondon
  return {
    ChainID: jsonInt(chainId),
    IsHomestead: atGenesis(eth.homesteadBlock),
    IsEIP150: atGenesis(eth.eip150Block),
    IsEIP155: atGenesis(eth.eip155Block),
    IsEIP158: atGenesis(eth.eip158Block),
    IsByzantium: atGenesis(eth.byzantiumBlock),
    IsConstantinople: atGenesis(eth.constantinopleBlock),
    IsPetersburg: atGenesis(eth.petersburgBlock) || (eth.petersburgBlock === undefined && atGenesis(eth.constantinopleBlock)),
    IsIstanbul: atGenesis(eth.istanbulBlock),
    IsBerlin: atGenesis(eth.berlinBlock),
    IsLondon: isLondon,
    IsMerge: isMerge,
    IsShanghai: isMerge && forked(eth.shanghaiTime, t),
    IsCancun: isMerge && forked(eth.cancunTime, t),
    IsPrague: false,
    IsVerkle: false,
  }
}

export function avalancheRules(upgrades: NetworkUpgrades, t: bigint): AvalancheRulesJson {
  return {
    IsSubnetEVM: forked(upgrades.subnetEVMTimestamp, t),
    IsDurango: forked(upgrades.durangoTimestamp, t),
    IsEtna: forked(upgrades.etnaTimestamp, t),
    IsFortuna: forked(upgrades.fortunaTimestamp, t),
    IsGranite: forked(upgrades.graniteTimestamp, t),
  }
}

/**
 * The eth_getActiveRulesAt result at `t`: geth's rules, the Avalanche rules, and each enabled
 * precompile with the timestamp of its active config (keys sorted, as Go writes a map).
 */
export function rulesAt(cfg: RulesConfig & Pick<SubnetChainConfig, 'chainId' | 'ethUpgrades'>, t: bigint): ActiveRulesJson {
  const precompiles: Record<string, { timestamp: JsonValue }> = {}
  for (const c of sortedByKey(enabledPrecompiles(cfg, t)))
    if (c.blockTimestamp !== undefined) precompiles[c.key] = { timestamp: jsonInt(c.blockTimestamp) }
  return { ethRules: ethRules(cfg.chainId, cfg.ethUpgrades, t), avalancheRules: avalancheRules(cfg.networkUpgrades, t), precompiles }
}

/** The eth_getActivePrecompilesAt result: config JSON of each precompile enabled at `t`, keys sorted. */
export function activePrecompilesAt(cfg: RulesConfig, t: bigint): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {}
  for (const c of sortedByKey(enabledPrecompiles(cfg, t))) out[c.key] = precompileConfigJson(c)
  return out
}

function sortedByKey(configs: PrecompileConfig[]): PrecompileConfig[] {
  return [...configs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}
