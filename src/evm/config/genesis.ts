import type { Hex } from '../../core/hex.js'
import type { GenesisAccount } from '../chain.js'
import { DEFAULT_FEE_CONFIG, type FeeConfig } from '../fees.js'
import {
  expectObject,
  field,
  readBigInt,
  readBool,
  readBytes,
  readHash,
  readHexOrDecimal256,
  readHexOrDecimal64,
  readAddress,
  readStorageWord,
  readUint64,
  readUnprefixedAddress,
  type JsonObject,
} from './decode.js'
import { ConfigError } from './errors.js'
import {
  PRECOMPILE_KEYS,
  isEmptyFeeConfig,
  isPrecompileKey,
  parseFeeConfigJson,
  parsePrecompileConfig,
  precompileConfigsEqual,
  verifyFeeConfig,
  verifyPrecompileConfig,
} from './precompileConfigs.js'
import { type NetworkUpgrades, type PrecompileConfig, type PrecompileKey } from './types.js'

/** `upgrade.InitiallyActiveTime` (2020-12-05 05:00 UTC). */
export const INITIALLY_ACTIVE_TIME = 1607144400n
/** `upgrade.UnscheduledActivationTime` (9999-12-01 00:00 UTC). */
export const UNSCHEDULED_ACTIVATION_TIME = 253399622400n
/** `params.DefaultChainID`: the chain id of a genesis without `config`. */
export const DEFAULT_SUBNET_CHAIN_ID = 43214n

/**
 * geth's block- and time-scheduled forks of the chain config. `SetEthUpgrades` puts Homestead…London
 * at block 0 and Shanghai/Cancun at Durango/Etna; values given in the genesis are kept.
 */
export type EthUpgrades = {
  homesteadBlock: bigint | undefined
  eip150Block: bigint | undefined
  eip155Block: bigint | undefined
  eip158Block: bigint | undefined
  byzantiumBlock: bigint | undefined
  constantinopleBlock: bigint | undefined
  petersburgBlock: bigint | undefined
  istanbulBlock: bigint | undefined
  muirGlacierBlock: bigint | undefined
  berlinBlock: bigint | undefined
  londonBlock: bigint | undefined
  shanghaiTime: bigint | undefined
  cancunTime: bigint | undefined
}

export const ETH_BLOCK_FORKS = [
  'homesteadBlock',
  'eip150Block',
  'eip155Block',
  'eip158Block',
  'byzantiumBlock',
  'constantinopleBlock',
  'petersburgBlock',
  'istanbulBlock',
  'muirGlacierBlock',
  'berlinBlock',
  'londonBlock',
] as const satisfies readonly (keyof EthUpgrades)[]

/** `networkUpgradeOverrides` of upgrade.json: only the timestamps it names replace the chain's. */
export type NetworkUpgradeOverrides = { [K in keyof NetworkUpgrades]?: bigint }

export type StateUpgradeAccount = { code?: Hex; storage?: Record<Hex, Hex>; balanceChange?: bigint }

/** `extras.StateUpgrade`: direct state edits at a timestamp. Addresses and slots lower-case. */
export type StateUpgrade = { blockTimestamp: bigint | undefined; accounts: Record<Hex, StateUpgradeAccount> }

/** `extras.UpgradeConfig`, the content of upgrade.json. */
export type UpgradeConfig = {
  networkUpgradeOverrides: NetworkUpgradeOverrides | undefined
  stateUpgrades: StateUpgrade[]
  precompileUpgrades: PrecompileConfig[]
}

/** A subnet-EVM chain's configuration and genesis block, parsed and verified. */
export type SubnetChainConfig = {
  chainId: bigint
  ethUpgrades: EthUpgrades
  /** After `SetDefaults` and overrides. */
  networkUpgrades: NetworkUpgrades
  feeConfig: FeeConfig
  allowFeeRecipients: boolean
  /** Configs inlined in the genesis `config`, at most one per key, in address order. */
  genesisPrecompiles: PrecompileConfig[]
  precompileUpgrades: PrecompileConfig[]
  stateUpgrades: StateUpgrade[]
  networkUpgradeOverrides: NetworkUpgradeOverrides | undefined
  // genesis block
  alloc: Record<Hex, GenesisAccount>
  timestamp: bigint
  gasLimit: bigint
  /** `baseFeePerGas` when given; otherwise the node uses `feeConfig.minBaseFee` (SubnetEVM at genesis). */
  baseFeePerGas: bigint | undefined
  extraData: Hex
  nonce: bigint
  difficulty: bigint
  mixHash: Hex
  coinbase: Hex
}

export type SubnetGenesisOptions = {
  /** The network's defaults (`GetNetworkUpgrades(ctx.NetworkUpgrades)`), see {@link subnetEvmNetworkDefaults}. */
  networkDefaults: NetworkUpgrades
  /** The chain's upgrade.json (`upgradeBytes`): `{precompileUpgrades, stateUpgrades, networkUpgradeOverrides}`. */
  upgradeJson?: unknown
}

/**
 * `extras.GetNetworkUpgrades`: a network's subnet-EVM defaults from its avalanchego upgrade times.
 * SubnetEVM is always 0 and Fortuna has no default (it does nothing on subnet-EVM).
 */
export function subnetEvmNetworkDefaults(times: {
  durangoTime: number | bigint
  etnaTime: number | bigint
  graniteTime: number | bigint
}): NetworkUpgrades {
  return {
    subnetEVMTimestamp: 0n,
    durangoTimestamp: BigInt(times.durangoTime),
    etnaTimestamp: BigInt(times.etnaTime),
    fortunaTimestamp: undefined,
    graniteTimestamp: BigInt(times.graniteTime),
  }
}

/** `extras.SubnetEVMDefaultChainConfig`'s upgrades: mainnet's, used when a genesis has no `config`. */
const MAINNET_UPGRADES = subnetEvmNetworkDefaults({ durangoTime: 1709740800, etnaTime: 1734368400, graniteTime: 1763568000 })

// --- network upgrade keys ---

/** JSON names of the network-upgrade timestamps. The SubnetEVM one is written `l1EvmTimestamp` (SPEC). */
export const NETWORK_UPGRADE_JSON_KEYS: Record<keyof NetworkUpgrades, string> = {
  subnetEVMTimestamp: 'l1EvmTimestamp',
  durangoTimestamp: 'durangoTimestamp',
  etnaTimestamp: 'etnaTimestamp',
  fortunaTimestamp: 'fortunaTimestamp',
  graniteTimestamp: 'graniteTimestamp',
}
const UPGRADE_ORDER = ['subnetEVMTimestamp', 'durangoTimestamp', 'etnaTimestamp', 'fortunaTimestamp', 'graniteTimestamp'] as const

/** Reads the timestamps present in `obj`, accepting `l1EvmTimestamp` and `subnetEVMTimestamp` (the former wins). */
function readNetworkUpgrades(obj: JsonObject, path: string): NetworkUpgradeOverrides {
  const out: NetworkUpgradeOverrides = {}
  for (const name of UPGRADE_ORDER) {
    let value = field(obj, name)
    let key: string = name
    if (name === 'subnetEVMTimestamp') {
      const renamed = field(obj, 'l1EvmTimestamp')
      if (renamed !== undefined && renamed !== null) [value, key] = [renamed, 'l1EvmTimestamp']
    }
    const ts = readUint64(value, `${path}.${key}`)
    if (ts !== undefined) out[name] = ts
  }
  return out
}

// --- parsing ---

type ParsedChainConfig = {
  chainId: bigint | undefined
  ethUpgrades: EthUpgrades
  upgrades: NetworkUpgradeOverrides
  feeConfig: ReturnType<typeof parseFeeConfigJson>
  allowFeeRecipients: boolean
  genesisPrecompiles: PrecompileConfig[]
  upgradeConfig: UpgradeConfig | undefined
}

function emptyEthUpgrades(): EthUpgrades {
  return {
    homesteadBlock: undefined,
    eip150Block: undefined,
    eip155Block: undefined,
    eip158Block: undefined,
    byzantiumBlock: undefined,
    constantinopleBlock: undefined,
    petersburgBlock: undefined,
    istanbulBlock: undefined,
    muirGlacierBlock: undefined,
    berlinBlock: undefined,
    londonBlock: undefined,
    shanghaiTime: undefined,
    cancunTime: undefined,
  }
}

function parseChainConfig(json: unknown): ParsedChainConfig {
  const obj = expectObject(json, 'params.ChainConfig', 'config')
  const ethUpgrades = emptyEthUpgrades()
  for (const name of ETH_BLOCK_FORKS) ethUpgrades[name] = readBigInt(field(obj, name), `config.${name}`)
  ethUpgrades.shanghaiTime = readUint64(field(obj, 'shanghaiTime'), 'config.shanghaiTime')
  ethUpgrades.cancunTime = readUint64(field(obj, 'cancunTime'), 'config.cancunTime')
  const genesisPrecompiles: PrecompileConfig[] = []
  // Precompiles.UnmarshalJSON looks the module keys up exactly (a map, not struct fields).
  for (const key of PRECOMPILE_KEYS) {
    if (Object.hasOwn(obj, key)) genesisPrecompiles.push(parsePrecompileConfig(key, obj[key], `config.${key}`))
  }
  // Not read by subnet-EVM (its UpgradeConfig is `json:"-"`), accepted so an eth_getChainConfig
  // result can be used as a genesis config.
  const upgradesJson = field(obj, 'upgrades')
  return {
    chainId: readBigInt(field(obj, 'chainId'), 'config.chainId'),
    ethUpgrades,
    upgrades: readNetworkUpgrades(obj, 'config'),
    feeConfig: parseFeeConfigJson(field(obj, 'feeConfig'), 'config.feeConfig'),
    allowFeeRecipients: readBool(field(obj, 'allowFeeRecipients'), 'config.allowFeeRecipients'),
    genesisPrecompiles,
    upgradeConfig: upgradesJson === undefined || upgradesJson === null ? undefined : parseUpgradeJson(upgradesJson, 'config.upgrades'),
  }
}

/**
 * One `precompileUpgrades` item, `PrecompileUpgrade.UnmarshalJSON`: an object with exactly one
 * known key.
 */
export function parsePrecompileUpgrade(json: unknown, path: string): PrecompileConfig {
  const obj = json === null ? {} : expectObject(json, 'map[string]json.RawMessage', path)
  const keys = Object.keys(obj)
  if (keys.length === 0) throw new ConfigError('PrecompileUpgrade cannot be empty')
  if (keys.length > 1) throw new ConfigError(`PrecompileUpgrade must have exactly one key, got ${keys.length}`)
  const key = keys[0] as string
  if (!isPrecompileKey(key)) throw new ConfigError(`unknown precompile config: ${key}`)
  return parsePrecompileConfig(key, obj[key], `${path}.${key}`)
}

function parseStateUpgrade(json: unknown, path: string): StateUpgrade {
  const obj = json === null ? {} : expectObject(json, 'extras.StateUpgrade', path)
  const accountsJson = field(obj, 'accounts')
  const accounts: Record<Hex, StateUpgradeAccount> = {}
  if (accountsJson !== null && accountsJson !== undefined) {
    const map = expectObject(accountsJson, 'map[common.Address]extras.StateUpgradeAccount', `${path}.accounts`)
    for (const [key, value] of Object.entries(map)) {
      const address = readAddress(key, `${path}.accounts key`)
      const at = `${path}.accounts.${key}`
      const acc = value === null ? {} : expectObject(value, 'extras.StateUpgradeAccount', at)
      const out: StateUpgradeAccount = {}
      const code = field(acc, 'code')
      if (code !== undefined && code !== null) out.code = readBytes(code, `${at}.code`)
      const storage = field(acc, 'storage')
      if (storage !== undefined && storage !== null) {
        out.storage = {}
        for (const [slot, word] of Object.entries(expectObject(storage, 'map[common.Hash]common.Hash', `${at}.storage`)))
          out.storage[readHash(slot, `${at}.storage key`)] = readHash(word, `${at}.storage.${slot}`)
      }
      const balance = field(acc, 'balanceChange')
      if (balance !== undefined && balance !== null) out.balanceChange = readHexOrDecimal256(balance, `${at}.balanceChange`)
      accounts[address] = out
    }
  }
  return { blockTimestamp: readUint64(field(obj, 'blockTimestamp'), `${path}.blockTimestamp`), accounts }
}

function readList<T>(value: unknown, goType: string, path: string, item: (v: unknown, p: string) => T): T[] {
  if (value === null || value === undefined) return []
  if (!Array.isArray(value)) throw new ConfigError(`json: cannot unmarshal ${typeof value} into Go value of type ${goType} (${path})`)
  return value.map((v, i) => item(v, `${path}[${i}]`))
}

/** upgrade.json (`extras.UpgradeConfig`), shape only; {@link parseSubnetGenesis} verifies it. */
export function parseUpgradeJson(json: unknown, path = 'upgrades'): UpgradeConfig {
  const obj = expectObject(json, 'extras.UpgradeConfig', path)
  const overrides = field(obj, 'networkUpgradeOverrides')
  return {
    networkUpgradeOverrides:
      overrides === undefined || overrides === null
        ? undefined
        : readNetworkUpgrades(expectObject(overrides, 'extras.NetworkUpgrades', `${path}.networkUpgradeOverrides`), `${path}.networkUpgradeOverrides`),
    stateUpgrades: readList(field(obj, 'stateUpgrades'), '[]extras.StateUpgrade', `${path}.stateUpgrades`, parseStateUpgrade),
    precompileUpgrades: readList(field(obj, 'precompileUpgrades'), '[]extras.PrecompileUpgrade', `${path}.precompileUpgrades`, parsePrecompileUpgrade),
  }
}

function parseAlloc(json: unknown): Record<Hex, GenesisAccount> {
  const obj = expectObject(json, 'types.GenesisAlloc', 'alloc')
  const alloc: Record<Hex, GenesisAccount> = {}
  for (const [key, value] of Object.entries(obj)) {
    const address = readUnprefixedAddress(key, 'alloc key')
    const at = `alloc.${key}`
    const acc = value === null ? {} : expectObject(value, 'types.Account', at)
    const account: Partial<GenesisAccount> = {}
    const code = field(acc, 'code')
    if (code !== undefined && code !== null) account.code = readBytes(code, `${at}.code`)
    const storage = field(acc, 'storage')
    if (storage !== undefined && storage !== null) {
      account.storage = {}
      for (const [slot, word] of Object.entries(expectObject(storage, 'map[types.storageJSON]types.storageJSON', `${at}.storage`))) {
        if (typeof word !== 'string') throw new ConfigError(`json: cannot unmarshal ${typeof word} into Go value of type types.storageJSON (${at}.storage.${slot})`)
        account.storage[readStorageWord(slot, `${at}.storage key`)] = readStorageWord(word, `${at}.storage.${slot}`)
      }
    }
    const balance = field(acc, 'balance')
    if (balance === undefined || balance === null) throw new ConfigError("missing required field 'balance' for Account")
    account.balance = readHexOrDecimal256(balance, `${at}.balance`)
    const nonce = field(acc, 'nonce')
    if (nonce !== undefined && nonce !== null) account.nonce = readHexOrDecimal64(nonce, `${at}.nonce`)
    alloc[address] = account as GenesisAccount
  }
  return alloc
}

const ZERO_HASH: Hex = `0x${'0'.repeat(64)}`
const ZERO_ADDRESS: Hex = `0x${'0'.repeat(40)}`

function optional<T>(obj: JsonObject, name: string, read: (v: unknown, path: string) => T): T | undefined {
  const value = field(obj, name)
  return value === undefined || value === null ? undefined : read(value, name)
}

/**
 * A subnet-EVM genesis as the VM's `parseGenesis` takes it, then `SetupGenesisBlock`'s fork-order
 * check: decode (`parsing genesis: …`), default chain config and fee config, network-upgrade
 * defaults (nil or 0 → the network's), upgrade.json (`failed to parse upgrade bytes: …`) and its
 * overrides, `Genesis.Verify` (`failed to verify genesis: …`), `SetEthUpgrades`. The first error
 * wins, as in Go.
 *
 * Beyond Go: `config.upgrades` (the `upgrades` key of eth_getChainConfig) is read as upgrade.json
 * when `upgradeJson` is not given, and `l1EvmTimestamp` is read as `subnetEVMTimestamp`.
 */
export function parseSubnetGenesis(json: unknown, options: SubnetGenesisOptions): SubnetChainConfig {
  const parsed = wrap('parsing genesis', () => decodeGenesis(json))
  const { header } = parsed
  let chain = parsed.chain
  if (!chain) {
    const ethUpgrades = emptyEthUpgrades()
    for (const name of ETH_BLOCK_FORKS) ethUpgrades[name] = 0n
    chain = {
      chainId: DEFAULT_SUBNET_CHAIN_ID,
      ethUpgrades,
      upgrades: { ...MAINNET_UPGRADES },
      feeConfig: { ...DEFAULT_FEE_CONFIG },
      allowFeeRecipients: false,
      genesisPrecompiles: [],
      upgradeConfig: undefined,
    }
  }
  if (chain.chainId === undefined) throw new ConfigError('parsing genesis: config.chainId is required')
  const feeConfig = isEmptyFeeConfig(chain.feeConfig) ? { ...DEFAULT_FEE_CONFIG } : chain.feeConfig

  const networkUpgrades = setDefaults(chain.upgrades, options.networkDefaults)
  let upgradeConfig = chain.upgradeConfig
  if (options.upgradeJson !== undefined) upgradeConfig = wrap('failed to parse upgrade bytes', () => parseUpgradeJson(options.upgradeJson))
  upgradeConfig ??= { networkUpgradeOverrides: undefined, stateUpgrades: [], precompileUpgrades: [] }
  for (const name of UPGRADE_ORDER) {
    const override = upgradeConfig.networkUpgradeOverrides?.[name]
    if (override !== undefined) (networkUpgrades as Record<string, bigint | undefined>)[name] = override
  }

  wrap('failed to verify genesis', () => {
    // Go reads FeeConfig.GasLimit before Verify and would panic on a nil one; report Verify's message.
    if (feeConfig.gasLimit === undefined) throw new ConfigError('invalid fee config: gasLimit cannot be nil')
    const configured = BigInt.asUintN(64, feeConfig.gasLimit)
    if (configured !== header.gasLimit)
      throw new ConfigError(`gas limit in fee config (${configured}) does not match gas limit in header (${header.gasLimit})`)
    wrap('invalid fee config', () => verifyFeeConfig(feeConfig))
    wrap('invalid precompile upgrades', () =>
      verifyPrecompileUpgrades(chain.genesisPrecompiles, upgradeConfig.precompileUpgrades, networkUpgrades),
    )
    wrap('invalid state upgrades', () => verifyStateUpgrades(upgradeConfig.stateUpgrades))
    wrap('invalid network upgrades', () => verifyNetworkUpgrades(networkUpgrades, options.networkDefaults))
  })
  verifyFeeConfig(feeConfig) // narrows; already checked above

  const ethUpgrades = setEthUpgrades(chain.ethUpgrades, networkUpgrades)
  checkForkOrder(networkUpgrades)
  return {
    chainId: chain.chainId,
    ethUpgrades,
    networkUpgrades,
    feeConfig,
    allowFeeRecipients: chain.allowFeeRecipients,
    genesisPrecompiles: chain.genesisPrecompiles,
    precompileUpgrades: upgradeConfig.precompileUpgrades,
    stateUpgrades: upgradeConfig.stateUpgrades,
    networkUpgradeOverrides: upgradeConfig.networkUpgradeOverrides,
    ...header,
  }
}

type GenesisHeader = Pick<
  SubnetChainConfig,
  'alloc' | 'timestamp' | 'gasLimit' | 'baseFeePerGas' | 'extraData' | 'nonce' | 'difficulty' | 'mixHash' | 'coinbase'
>

/** `Genesis.UnmarshalJSON` (gencodec): field types first, then the required fields. */
function decodeGenesis(json: unknown): { chain: ParsedChainConfig | undefined; header: GenesisHeader } {
  const obj = expectObject(json, 'core.Genesis', 'genesis')
  const configJson = field(obj, 'config')
  const chain = configJson === undefined || configJson === null ? undefined : parseChainConfig(configJson)
  const nonce = optional(obj, 'nonce', readHexOrDecimal64) ?? 0n
  const timestamp = optional(obj, 'timestamp', readHexOrDecimal64) ?? 0n
  const extraData = optional(obj, 'extraData', readBytes) ?? '0x'
  const gasLimit = optional(obj, 'gasLimit', readHexOrDecimal64)
  const difficulty = optional(obj, 'difficulty', readHexOrDecimal256)
  const mixHash = optional(obj, 'mixHash', readHash) ?? ZERO_HASH
  const coinbase = optional(obj, 'coinbase', readAddress) ?? ZERO_ADDRESS
  const allocJson = field(obj, 'alloc')
  const alloc = allocJson === undefined || allocJson === null ? undefined : parseAlloc(allocJson)
  const baseFeePerGas = optional(obj, 'baseFeePerGas', readHexOrDecimal256)
  if (gasLimit === undefined) throw new ConfigError("missing required field 'gasLimit' for Genesis")
  if (difficulty === undefined) throw new ConfigError("missing required field 'difficulty' for Genesis")
  if (alloc === undefined) throw new ConfigError("missing required field 'alloc' for Genesis")
  return { chain, header: { alloc, timestamp, gasLimit, baseFeePerGas, extraData, nonce, difficulty, mixHash, coinbase } }
}

/** Runs `fn`, prefixing a {@link ConfigError}'s message as Go's `fmt.Errorf("<prefix>: %w", err)` does. */
function wrap<T>(prefix: string, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (err instanceof ConfigError) throw new ConfigError(`${prefix}: ${err.shortMessage}`, { cause: err })
    throw err
  }
}

// --- network upgrades ---

/** `NetworkUpgrades.SetDefaults`: nil **or 0** takes the network default (0 would activate too early). */
function setDefaults(configured: NetworkUpgradeOverrides, defaults: NetworkUpgrades): NetworkUpgrades {
  const pick = (name: keyof NetworkUpgrades) => {
    const v = configured[name]
    return v === undefined || v === 0n ? defaults[name] : v
  }
  return {
    subnetEVMTimestamp: pick('subnetEVMTimestamp') as bigint,
    durangoTimestamp: pick('durangoTimestamp') as bigint,
    etnaTimestamp: pick('etnaTimestamp') as bigint,
    fortunaTimestamp: pick('fortunaTimestamp'),
    graniteTimestamp: pick('graniteTimestamp'),
  }
}

const UPGRADE_ERROR_NAMES: Record<keyof NetworkUpgrades, string> = {
  subnetEVMTimestamp: 'subnetEVM',
  durangoTimestamp: 'durango',
  etnaTimestamp: 'etna',
  fortunaTimestamp: 'fortuna',
  graniteTimestamp: 'granite',
}

/** `verifyNetworkUpgrades` / `verifyWithDefault`: nothing may be scheduled before the network's default. */
function verifyNetworkUpgrades(upgrades: NetworkUpgrades, defaults: NetworkUpgrades): void {
  for (const name of UPGRADE_ORDER) {
    const def = defaults[name]
    const ts = upgrades[name]
    if (def === undefined) continue
    let problem: string | undefined
    if (ts === undefined) {
      if (def < UNSCHEDULED_ACTIVATION_TIME) problem = 'timestamp cannot be nil'
    } else if (!(ts === 0n && def <= INITIALLY_ACTIVE_TIME) && ts < def) {
      problem = `provided timestamp must be greater than or equal to the default timestamp: provided timestamp ${ts}, default timestamp ${def}`
    }
    if (problem) throw new ConfigError(`${UPGRADE_ERROR_NAMES[name]} fork block timestamp is invalid: ${problem}`)
  }
}

/**
 * `checkForks` over the Avalanche timestamps (Fortuna optional). Go prints the `*uint64` operands
 * with `%v`, i.e. as pointers; the values are printed here.
 */
function checkForkOrder(upgrades: NetworkUpgrades): void {
  let last: { name: string; ts: bigint | undefined } | undefined
  for (const name of UPGRADE_ORDER) {
    const cur = { name: NETWORK_UPGRADE_JSON_KEYS[name], ts: upgrades[name] }
    if (last) {
      if (last.ts === undefined && cur.ts !== undefined)
        throw new ConfigError(`unsupported fork ordering: ${last.name} not enabled, but ${cur.name} enabled at timestamp ${cur.ts}`)
      if (last.ts !== undefined && cur.ts !== undefined && last.ts > cur.ts)
        throw new ConfigError(
          `unsupported fork ordering: ${last.name} enabled at timestamp ${last.ts}, but ${cur.name} enabled at timestamp ${cur.ts}`,
        )
    }
    if (name !== 'fortunaTimestamp' || cur.ts !== undefined) last = cur
  }
}

/** `params.SetEthUpgrades`: geth's forks at block 0, Shanghai at Durango and Cancun at Etna when scheduled. */
function setEthUpgrades(eth: EthUpgrades, upgrades: NetworkUpgrades): EthUpgrades {
  const out = { ...eth }
  for (const name of ETH_BLOCK_FORKS) out[name] ??= 0n
  if (upgrades.durangoTimestamp < UNSCHEDULED_ACTIVATION_TIME) out.shanghaiTime = upgrades.durangoTimestamp
  if (upgrades.etnaTimestamp < UNSCHEDULED_ACTIVATION_TIME) out.cancunTime = upgrades.etnaTimestamp
  return out
}

// --- precompile and state upgrades ---

/**
 * `verifyPrecompileUpgrades` (params/extras/precompile_upgrade.go), unwrapped: genesis configs are
 * verified (in address order; Go walks a map) and count as enabled at their timestamp; then each
 * upgrade needs a timestamp, non-decreasing timestamps across the list, alternating
 * enable/disable per key (starting with an enable unless genesis enabled it), strictly
 * increasing timestamps per key, and its own Verify.
 */
export function verifyPrecompileUpgrades(
  genesisPrecompiles: readonly PrecompileConfig[],
  precompileUpgrades: readonly PrecompileConfig[],
  networkUpgrades: NetworkUpgrades,
): void {
  const last = new Map<PrecompileKey, { timestamp: bigint; disabled: boolean }>()
  for (const config of genesisPrecompiles) {
    verifyPrecompileConfig(config, networkUpgrades)
    if (config.blockTimestamp !== undefined) last.set(config.key, { timestamp: config.blockTimestamp, disabled: false })
  }
  let previous: bigint | undefined
  precompileUpgrades.forEach((upgrade, i) => {
    const key = upgrade.key
    const lastByKey = last.get(key)
    const disabled = lastByKey ? lastByKey.disabled : true
    const ts = upgrade.blockTimestamp
    if (ts === undefined)
      throw new ConfigError(`precompile upgrade block timestamp cannot be nil: PrecompileUpgrade (${key}) at [${i}]`)
    if (previous !== undefined && ts < previous)
      throw new ConfigError(
        `precompile upgrade config block timestamp must be greater than or equal to previous timestamp: PrecompileUpgrade (${key}) at [${i}] has timestamp ${ts}, previous timestamp ${previous}`,
      )
    if (disabled === upgrade.disable)
      throw new ConfigError(
        `precompile upgrade disable value is invalid: PrecompileUpgrade (${key}) at [${i}], disable should be ${!disabled}`,
      )
    if (lastByKey && ts <= lastByKey.timestamp)
      throw new ConfigError(
        `precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: PrecompileUpgrade (${key}) at [${i}] has timestamp ${ts}, previous timestamp of same key ${lastByKey.timestamp}`,
      )
    verifyPrecompileConfig(upgrade, networkUpgrades)
    last.set(key, { timestamp: ts, disabled: upgrade.disable })
    previous = ts
  })
}

/** `verifyStateUpgrades`: timestamps present, non-zero, strictly increasing. */
export function verifyStateUpgrades(stateUpgrades: readonly StateUpgrade[]): void {
  let previous: bigint | undefined
  stateUpgrades.forEach((upgrade, i) => {
    const ts = upgrade.blockTimestamp
    if (ts === undefined) throw new ConfigError(`state upgrade config block timestamp cannot be nil: StateUpgrade[${i}]`)
    if (ts === 0n) throw new ConfigError(`state upgrade config block timestamp must be greater than 0: StateUpgrade[${i}] has timestamp 0`)
    if (previous !== undefined && ts <= previous)
      throw new ConfigError(
        `state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[${i}] has timestamp ${ts}, previous timestamp ${previous}`,
      )
    previous = ts
  })
}

// --- compatibility with a running chain ---

/** `IsForkTransition`: `ts` activates between a block at `parent` (undefined at genesis) and one at `current`. */
export function isForkTransition(ts: bigint | undefined, parent: bigint | undefined, current: bigint): boolean {
  if (ts === undefined) return false
  const parentForked = parent !== undefined && ts <= parent
  return !parentForked && ts <= current
}

function activatingConfigs(
  genesisPrecompiles: readonly PrecompileConfig[],
  upgrades: readonly PrecompileConfig[],
  key: PrecompileKey,
  time: bigint,
): PrecompileConfig[] {
  const out: PrecompileConfig[] = []
  const genesis = genesisPrecompiles.find((c) => c.key === key)
  if (genesis && isForkTransition(genesis.blockTimestamp, undefined, time)) out.push(genesis)
  for (const u of upgrades) if (u.key === key && isForkTransition(u.blockTimestamp, undefined, time)) out.push(u)
  return out
}

type CompatError = { message: string; rewindTo: bigint }

/** geth's `newTimestampCompatError` + `ConfigCompatError.Error()`. */
function compatError(what: string, stored: bigint | undefined, next: bigint | undefined): CompatError {
  let rewind: bigint | undefined
  if (stored === undefined) rewind = next
  else if (next === undefined || stored < next) rewind = stored
  else rewind = next
  const rewindTo = rewind !== undefined && rewind !== 0n ? rewind - 1n : 0n
  const show = (v: bigint | undefined) => (v === undefined ? 'nil' : v.toString())
  return {
    message: `mismatching ${what} in database (have timestamp ${show(stored)}, want timestamp ${show(next)}, rewindto timestamp ${rewindTo})`,
    rewindTo,
  }
}

function checkPrecompilesCompatible(
  old: Pick<SubnetChainConfig, 'genesisPrecompiles' | 'precompileUpgrades'>,
  newUpgrades: readonly PrecompileConfig[],
  time: bigint,
): CompatError | undefined {
  for (const key of PRECOMPILE_KEYS) {
    const active = activatingConfigs(old.genesisPrecompiles, old.precompileUpgrades, key, time)
    const next = activatingConfigs(old.genesisPrecompiles, newUpgrades, key, time)
    for (let i = 0; i < active.length; i++) {
      const upgrade = active[i] as PrecompileConfig
      const other = next[i]
      if (!other) return compatError(`missing PrecompileUpgrade[${i}]`, upgrade.blockTimestamp, undefined)
      if (!precompileConfigsEqual(upgrade, other))
        return compatError(`PrecompileUpgrade[${i}]`, upgrade.blockTimestamp, other.blockTimestamp)
    }
    if (next.length > active.length)
      return compatError(`cannot retroactively enable PrecompileUpgrade[${active.length}]`, undefined, next[active.length]?.blockTimestamp)
  }
  return undefined
}

/**
 * `checkPrecompilesCompatible` under geth's `CheckCompatible` loop, for new precompile upgrades on
 * a chain whose last accepted block is at `headTimestamp`: entries active by then must be kept
 * unchanged, and none may be added at or before it. Throws the `ConfigCompatError` message, e.g.
 * `mismatching cannot retroactively enable PrecompileUpgrade[1] in database (have timestamp nil,
 * want timestamp 5, rewindto timestamp 4)`. The loop re-checks at the rewind time, so the error
 * reported is the earliest conflict.
 */
export function verifyUpgradeCompatible(
  old: Pick<SubnetChainConfig, 'genesisPrecompiles' | 'precompileUpgrades'>,
  newUpgrades: readonly PrecompileConfig[],
  headTimestamp: bigint,
): void {
  let time = headTimestamp
  let lastErr: CompatError | undefined
  for (;;) {
    const err = checkPrecompilesCompatible(old, newUpgrades, time)
    if (!err || (lastErr && err.rewindTo === lastErr.rewindTo)) break
    lastErr = err
    if (err.rewindTo > 0n) time = err.rewindTo
  }
  if (lastErr) throw new ConfigError(lastErr.message)
}

/**
 * A running chain's config with a new upgrade.json (what a node restart with new upgrade bytes
 * does): the precompile and state upgrades are replaced after verification against the chain's
 * genesis precompiles, then checked for compatibility with the chain at `headTimestamp`.
 * Changing `networkUpgradeOverrides` on a running chain is not supported here.
 */
export function withUpgradeJson(cfg: SubnetChainConfig, upgradeJson: unknown, headTimestamp: bigint): SubnetChainConfig {
  const upgrades = wrap('failed to parse upgrade bytes', () => parseUpgradeJson(upgradeJson))
  if (upgrades.networkUpgradeOverrides && !sameOverrides(upgrades.networkUpgradeOverrides, cfg.networkUpgradeOverrides))
    throw new ConfigError('changing networkUpgradeOverrides of a running chain is not supported')
  wrap('failed to verify genesis', () => {
    wrap('invalid precompile upgrades', () =>
      verifyPrecompileUpgrades(cfg.genesisPrecompiles, upgrades.precompileUpgrades, cfg.networkUpgrades),
    )
    wrap('invalid state upgrades', () => verifyStateUpgrades(upgrades.stateUpgrades))
  })
  verifyUpgradeCompatible(cfg, upgrades.precompileUpgrades, headTimestamp)
  return { ...cfg, precompileUpgrades: upgrades.precompileUpgrades, stateUpgrades: upgrades.stateUpgrades }
}

function sameOverrides(a: NetworkUpgradeOverrides, b: NetworkUpgradeOverrides | undefined): boolean {
  return UPGRADE_ORDER.every((name) => a[name] === b?.[name])
}
