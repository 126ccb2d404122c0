import { InvalidArgumentError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { idFromString, idToString } from '../core/ids.js'
import type { SeededRandom } from '../core/random.js'
import type { Clock } from '../core/clock.js'
import type { MutexWaitObserver } from '../core/mutex.js'
import { createEvmChain, type EvmChain, type MiningMode } from '../evm/chain.js'
import { ConfigError } from '../evm/config/errors.js'
import { parseSubnetGenesis, subnetEvmNetworkDefaults, type SubnetChainConfig } from '../evm/config/genesis.js'
import { L1Rules } from '../evm/l1.js'
import type { WarpEnvironment } from '../evm/warpRules.js'
import { unprotectedTxPolicy, type EvmChainConfig } from '../evm/unprotectedTxs.js'
import { withIcmIf } from '../evm/icm/predeploy.js'
import type { NetworkPreset } from './presets.js'
import { nodeValidatorEntry, type ValidatorEntry } from './validators.js'

/** An L1 in the network options: its EVM chain's genesis and its validators. */
export type L1Options = {
  /** The chain's alias (`/ext/bc/<name>/rpc`); letters, digits, `-` and `_`. */
  name: string
  /** subnet-EVM genesis JSON (object or text): `config` (chainId, feeConfig, precompiles…), `alloc`, `gasLimit`, `timestamp`. */
  genesis: unknown
  /** The chain's upgrade.json (object or text): `precompileUpgrades`, `stateUpgrades`, `networkUpgradeOverrides`. */
  upgrade?: unknown
  /** Validators by node index; every node with weight 100 by default. */
  validators?: { node: number; weight?: bigint | number }[]
  mining?: MiningMode
  /** Coinbase when fee recipients are allowed (a node's `feeRecipient`). */
  feeRecipient?: Hex
  /** Ids the P-chain gave the subnet and chain; derived from the seed and the name otherwise. */
  ids?: { subnetId: string; blockchainId: string }
  /** The chain's config.json as the node reads it (`allow-unprotected-txs`, `allow-unprotected-tx-hashes`); subnet-EVM's defaults otherwise. */
  chainConfig?: EvmChainConfig
}

/** An L1 of the network: ids, its chain and the rules behind it. */
export type L1 = {
  name: string
  subnetId: string
  blockchainId: string
  blockchainIdBytes: Uint8Array
  subnetIdBytes: Uint8Array
  chain: EvmChain
  rules: L1Rules
  config: SubnetChainConfig
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/

/**
 * An L1's genesis or upgrade.json its chain cannot start from: not JSON, or refused as subnet-EVM
 * refuses it. The message names the L1 before the node's own (`L1 dex: failed to verify genesis:
 * …`); `l1` and `reason` keep them apart, so the CLI can name the files it read them from.
 */
export class L1ConfigError extends InvalidArgumentError {
  override name = 'L1ConfigError'
  /** The L1's name. */
  readonly l1: string
  /** What is wrong, as the node says it. */
  readonly reason: string

  constructor(l1: string, reason: string, options: { cause?: unknown } = {}) {
    super(`L1 ${l1}: ${reason}`, options)
    this.l1 = l1
    this.reason = reason
  }
}

export type CreateL1Context = {
  preset: NetworkPreset
  clock: Clock
  random: SeededRandom
  /** The nodes' identities (their BLS keys are read only when needed). */
  nodes: readonly { readonly nodeId: string; readonly blsPublicKey: Hex }[]
  mining: MiningMode | undefined
  /** Whether every L1 starts with the ICM messenger predeployed (the network's `icm` option). */
  icm?: boolean
  /** Told how long each task waited for the chain's lock. */
  onLockWait?: MutexWaitObserver
  /** What warp needs from the network, for an L1 with these ids. */
  warp?: (l1: { blockchainIdBytes: Uint8Array; subnetIdBytes: Uint8Array }) => WarpEnvironment
}

/**
 * Builds an L1's EVM chain from its subnet-EVM genesis: ids derived from the network seed (the
 * P-chain will issue them once it exists), network upgrades defaulting to the preset's, and the
 * subnet-EVM rules as chain hooks.
 */
export async function createL1(options: L1Options, ctx: CreateL1Context): Promise<{ l1: L1; validators: ValidatorEntry[] }> {
  if (typeof options.name !== 'string' || !NAME.test(options.name))
    throw new InvalidArgumentError(`L1 name must be 1 to 64 letters, digits, '-' or '_', got ${JSON.stringify(options.name)}`)
  const parse = (value: unknown, what: string) => {
    if (typeof value !== 'string') return value
    try {
      return JSON.parse(value) as unknown
    } catch (error) {
      throw new L1ConfigError(options.name, `${what} is not valid JSON: ${(error as Error).message}`, { cause: error })
    }
  }
  let config: SubnetChainConfig
  try {
    config = parseSubnetGenesis(parse(options.genesis, 'genesis'), {
      networkDefaults: subnetEvmNetworkDefaults({
        durangoTime: ctx.preset.upgrades.durangoTime,
        etnaTime: ctx.preset.upgrades.etnaTime,
        graniteTime: ctx.preset.upgrades.graniteTime,
      }),
      upgradeJson: options.upgrade === undefined ? undefined : parse(options.upgrade, 'upgrade'),
    })
  } catch (error) {
    if (error instanceof ConfigError) throw new L1ConfigError(options.name, error.shortMessage, { cause: error })
    throw error
  }
  const subnetIdBytes = options.ids ? idFromString(options.ids.subnetId) : ctx.random.derive(`l1/${options.name}/subnet`)
  const blockchainIdBytes = options.ids ? idFromString(options.ids.blockchainId) : ctx.random.derive(`l1/${options.name}/chain`)
  const subnetId = idToString(subnetIdBytes)
  const rules = new L1Rules({
    config,
    feeRecipient: options.feeRecipient,
    warp: ctx.warp?.({ blockchainIdBytes, subnetIdBytes }),
  })
  const chain = await createEvmChain({
    alias: options.name,
    chainId: config.chainId,
    clock: ctx.clock,
    flavour: 'subnet-evm',
    feeRules: rules.feeRules(),
    hooks: rules.hooks(),
    upgrades: {
      shanghaiTime: Number(config.networkUpgrades.durangoTimestamp),
      cancunTime: Number(config.networkUpgrades.etnaTimestamp),
    },
    genesis: {
      timestamp: config.timestamp,
      alloc: withIcmIf(ctx.icm, config.alloc),
      gasLimit: config.gasLimit,
      baseFeePerGas: config.baseFeePerGas ?? config.feeConfig.minBaseFee,
      coinbase: config.coinbase,
      extraData: config.extraData,
    },
    mining: options.mining ?? ctx.mining,
    onLockWait: ctx.onLockWait,
    unprotectedTxs: unprotectedTxPolicy(options.chainConfig, `L1 ${options.name}`),
  })
  const validators = (options.validators ?? ctx.nodes.map((_, node) => ({ node, weight: 100n }))).map(({ node, weight }) => {
    const entry = ctx.nodes[node]
    if (!entry) throw new InvalidArgumentError(`L1 ${options.name}: validator node ${node} does not exist (the network has ${ctx.nodes.length} nodes)`)
    return nodeValidatorEntry(entry, BigInt(weight ?? 100n), config.timestamp)
  })
  return {
    l1: { name: options.name, subnetId, subnetIdBytes, blockchainId: idToString(blockchainIdBytes), blockchainIdBytes, chain, rules, config },
    validators,
  }
}
