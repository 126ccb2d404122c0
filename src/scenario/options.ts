import { DEFAULT_MANUAL_START } from '../core/clock.js'
import type { Hex } from '../core/hex.js'
import { createDevAccountDeriver, DEFAULT_MNEMONIC } from '../core/keys.js'
import { parseSubnetGenesis, subnetEvmNetworkDefaults } from '../evm/config/genesis.js'
import { ConfigError } from '../evm/config/errors.js'
import type { NetworkOptions } from '../network/network.js'
import { l1GenesisTime, NETWORK_PRESETS, type NetworkPresetName } from '../network/presets.js'
import type { ChainSpec, PrecompileConfig } from './document.js'
import { PRECOMPILES, type PrecompileName } from './precompiles.js'
import type { ScenarioIssue } from './errors.js'
import type { Scenario } from './parse.js'
import type { Ref } from './values.js'

const DEFAULT_FEE_CONFIG = {
  gasLimit: 20_000_000, minBaseFee: 1_000_000_000, targetGas: 100_000_000, baseFeeChangeDenominator: 48,
  minBlockGasCost: 0, maxBlockGasCost: 10_000_000, targetBlockRate: 2, blockGasCostStep: 500_000,
}

/** Unix seconds the scenario's `at` offsets count from. */
export function clockStartOf(scenario: Scenario): number {
  return scenario.clock?.start ?? DEFAULT_MANUAL_START
}

/** An index's dev account address, as the network will derive it (`undefined` past the scenario's count). */
export type AccountAddresses = (index: number) => Hex | undefined

/**
 * The scenario's dev account addresses by index, each derived when first asked (and the seed only
 * then): a chain's config names a few accounts, and deriving all of them for each config built was
 * a few ms of every scenario start.
 */
export function accountAddresses(scenario: Scenario): AccountAddresses {
  const count = scenario.accounts?.count ?? 20
  const known: Hex[] = []
  let derive: ReturnType<typeof createDevAccountDeriver> | undefined
  return (index) => {
    if (!(index >= 0 && index < count)) return undefined
    derive ??= createDevAccountDeriver(scenario.accounts?.mnemonic ?? DEFAULT_MNEMONIC)
    return (known[index] ??= derive(index).address.toLowerCase() as Hex)
  }
}

/** An `acct:` reference (by name or index) to its dev account index. */
export function accountIndex(scenario: Scenario, ref: Ref): number {
  return /^[0-9]+$/.test(ref.name) ? Number(ref.name) : scenario.accounts!.named!.get(ref.name)!
}

function precompileJson(config: PrecompileConfig, name: PrecompileName, blockTimestamp: number, address: (a: Hex | Ref) => Hex): Record<string, unknown> {
  const out: Record<string, unknown> = { blockTimestamp }
  if (config.admins) out.adminAddresses = config.admins.map(address)
  if (config.managers) out.managerAddresses = config.managers.map(address)
  if (config.enabled) out.enabledAddresses = config.enabled.map(address)
  if (name === 'nativeMinter' && config.initialMint) out.initialMint = Object.fromEntries(config.initialMint.map((m) => [address(m.address), `0x${m.amount.toString(16)}`]))
  if (name === 'warp' && config.quorumNumerator !== undefined) out.quorumNumerator = config.quorumNumerator
  return out
}

/**
 * The subnet-EVM genesis and upgrade.json of a scenario chain on a network of `preset`: genesis
 * precompiles active from the genesis ({@link l1GenesisTime}: the preset's upgrades decide when
 * warp may be on), upgrade times counted from the clock start.
 */
export function chainConfigOf(
  scenario: Scenario,
  chain: ChainSpec,
  preset: NetworkPresetName,
  addresses: AccountAddresses = accountAddresses(scenario),
): { genesis: Record<string, unknown>; upgrade?: Record<string, unknown> } {
  const start = clockStartOf(scenario)
  const genesisTime = l1GenesisTime(NETWORK_PRESETS[preset], start)
  const address = (a: Hex | Ref): Hex => (typeof a === 'string' ? a : addresses(accountIndex(scenario, a))!)
  const feeConfig = chain.feeConfig ? Object.fromEntries(Object.entries(chain.feeConfig).filter(([k]) => k !== '$pos')) : DEFAULT_FEE_CONFIG
  const config: Record<string, unknown> = { chainId: chain.chainId, feeConfig }
  for (const [name, pc] of chain.precompiles ?? []) config[PRECOMPILES[name]] = precompileJson(pc, name, genesisTime, address)
  const alloc = Object.fromEntries((chain.alloc ?? []).map((a) => [address(a.address), { balance: `0x${a.amount.toString(16)}` }]))
  const genesis = { config, alloc, gasLimit: `0x${(feeConfig.gasLimit as number).toString(16)}`, timestamp: `0x${genesisTime.toString(16)}`, difficulty: '0x0' }
  if (!chain.upgrades?.length) return { genesis }
  const precompileUpgrades = chain.upgrades.flatMap((u) => [
    ...(u.disable ?? []).map((name) => ({ [PRECOMPILES[name]]: { blockTimestamp: start + u.at, disable: true } })),
    ...[...(u.enable ?? [])].map(([name, pc]) => ({ [PRECOMPILES[name]]: precompileJson(pc, name, start + u.at, address) })),
  ])
  return { genesis, upgrade: { precompileUpgrades } }
}

/**
 * What subnet-EVM would refuse in the genesis and upgrade.json the scenario's chains make (an L1's
 * or a subnet chain's: say a precompile's admin also in its enabled list, or upgrades out of
 * order), with the node's message, positioned at the chain: found with the document's other issues,
 * before anything runs, rather than when the network is made or the chain created.
 */
export function chainConfigIssues(scenario: Scenario): ScenarioIssue[] {
  const preset = scenario.network?.preset ?? 'local'
  const networkDefaults = subnetEvmNetworkDefaults(NETWORK_PRESETS[preset].upgrades)
  const chains = [
    ...(scenario.l1s ?? []).map((chain, i) => ({ chain, path: `l1s[${i}]` })),
    ...(scenario.subnets ?? []).flatMap((subnet, i) => subnet.chains.map((chain, j) => ({ chain, path: `subnets[${i}].chains[${j}]` }))),
  ]
  const issues: ScenarioIssue[] = []
  const addresses = accountAddresses(scenario)
  for (const { chain, path } of chains) {
    const { genesis, upgrade } = chainConfigOf(scenario, chain, preset, addresses)
    try {
      parseSubnetGenesis(genesis, { networkDefaults, upgradeJson: upgrade })
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      issues.push({ file: scenario.file, ...chain.$pos, path, message: `chain ${chain.name}: ${error.message}` })
    }
  }
  return issues
}

/**
 * The network options a scenario describes (preset, seed, nodes, accounts, clock, mining, L1s,
 * the ICM messenger, node settings, data API). Subnets created through the P-chain and the timeline are the
 * runner's part ({@link runScenario}). `preset` is the one the network will run when something
 * overrides the scenario's (the CLI's `--network`): the L1s' genesis times depend on it.
 */
export function networkOptionsOf(scenario: Scenario, preset?: NetworkPresetName): NetworkOptions {
  const options: NetworkOptions = { clock: { mode: scenario.clock?.mode ?? 'manual', start: clockStartOf(scenario) } }
  const net = scenario.network
  const presetName = preset ?? net?.preset
  if (presetName) options.preset = presetName
  if (net?.seed !== undefined) options.seed = net.seed
  if (net?.nodes !== undefined) options.nodes = net.nodes
  if (net?.mining) options.mining = net.mining
  const acc = scenario.accounts
  if (acc?.mnemonic !== undefined) options.mnemonic = acc.mnemonic
  if (acc?.count !== undefined) options.accounts = acc.count
  if (acc?.balance !== undefined) options.balance = acc.balance
  if (scenario.node) {
    const { $pos: _pos, ...node } = scenario.node
    options.node = node
  }
  const addresses = accountAddresses(scenario)
  if (scenario.l1s?.length)
    options.l1s = scenario.l1s.map((l1) => ({
      name: l1.name,
      ...chainConfigOf(scenario, l1, presetName ?? 'local', addresses),
      ...(l1.validators ? { validators: l1.validators.map((v) => ({ node: v.node as number, weight: v.weight ?? 100 })) } : {}),
    }))
  if (scenario.icm) options.icm = true
  if (scenario.dataApi) {
    const { apiKeys, prices, rateLimits } = scenario.dataApi
    options.dataApi = {
      ...(apiKeys ? { apiKeys: Object.fromEntries([...apiKeys].map(([k, v]) => [k, typeof v === 'string' ? v : { perMinute: v.perMinute, perDay: v.perDay }])) } : {}),
      ...(prices ? { prices: { ...(prices.usd ? { usd: Object.fromEntries(prices.usd) } : {}), ...(prices.rates ? { rates: Object.fromEntries(prices.rates) } : {}) } } : {}),
      ...(rateLimits === false ? { rateLimits: false as const } : {}),
    }
  }
  return options
}
