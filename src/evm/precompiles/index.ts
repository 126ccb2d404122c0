import type { Hex } from '../../core/hex.js'
import type { PrecompileConfig, PrecompileKey } from '../config/types.js'
import type { FeeConfig } from '../fees.js'
import { configureAllowList } from './allowList.js'
import { DEPLOYER_ALLOW_LIST_ADDRESS, deployerAllowListPrecompile } from './deployerAllowList.js'
import { FEE_MANAGER_ADDRESS, configureFeeManager, feeManagerPrecompile } from './feeManager.js'
import { NATIVE_MINTER_ADDRESS, configureNativeMinter, nativeMinterPrecompile } from './nativeMinter.js'
import { REWARD_MANAGER_ADDRESS, configureRewardManager, rewardManagerPrecompile } from './rewardManager.js'
import { TX_ALLOW_LIST_ADDRESS, txAllowListPrecompile } from './txAllowList.js'
import { PrecompileError, type PrecompileState, type StatefulPrecompile } from './types.js'

/** What a module's `Configure` needs besides its own config. */
export type ConfigureContext = {
  /** The block whose start activates the precompile (feeManager's lastChangedAt). */
  blockNumber: bigint
  /** The chain's genesis `feeConfig`, stored by feeManager when it has no initialFeeConfig. */
  genesisFeeConfig: FeeConfig
  /** The chain's genesis `allowFeeRecipients`, used by rewardManager without initialRewardConfig. */
  genesisAllowFeeRecipients: boolean
}

/**
 * A stateful precompile module (subnet-EVM `modules.Module`). `configure` runs on activation,
 * after the integration layer has set the account's nonce to 1 and code to 0x01; it is given
 * only configs of its own key.
 */
export type PrecompileModule = {
  key: PrecompileKey
  address: Hex
  run: StatefulPrecompile
  configure(state: PrecompileState, config: PrecompileConfig, ctx: ConfigureContext): Promise<void>
}

function wrongConfig(expected: PrecompileKey, got: PrecompileConfig): PrecompileError {
  return new PrecompileError(`expected config type ${expected}, got ${got.key}`)
}

const MODULES: PrecompileModule[] = [
  {
    key: 'contractDeployerAllowListConfig',
    address: DEPLOYER_ALLOW_LIST_ADDRESS,
    run: deployerAllowListPrecompile,
    async configure(state, config) {
      if (config.key !== 'contractDeployerAllowListConfig') throw wrongConfig('contractDeployerAllowListConfig', config)
      await configureAllowList(state, DEPLOYER_ALLOW_LIST_ADDRESS, config)
    },
  },
  {
    key: 'contractNativeMinterConfig',
    address: NATIVE_MINTER_ADDRESS,
    run: nativeMinterPrecompile,
    async configure(state, config) {
      if (config.key !== 'contractNativeMinterConfig') throw wrongConfig('contractNativeMinterConfig', config)
      await configureNativeMinter(state, config)
    },
  },
  {
    key: 'txAllowListConfig',
    address: TX_ALLOW_LIST_ADDRESS,
    run: txAllowListPrecompile,
    async configure(state, config) {
      if (config.key !== 'txAllowListConfig') throw wrongConfig('txAllowListConfig', config)
      await configureAllowList(state, TX_ALLOW_LIST_ADDRESS, config)
    },
  },
  {
    key: 'feeManagerConfig',
    address: FEE_MANAGER_ADDRESS,
    run: feeManagerPrecompile,
    async configure(state, config, ctx) {
      if (config.key !== 'feeManagerConfig') throw wrongConfig('feeManagerConfig', config)
      await configureFeeManager(state, config, ctx.blockNumber, ctx.genesisFeeConfig)
    },
  },
  {
    key: 'rewardManagerConfig',
    address: REWARD_MANAGER_ADDRESS,
    run: rewardManagerPrecompile,
    async configure(state, config, ctx) {
      if (config.key !== 'rewardManagerConfig') throw wrongConfig('rewardManagerConfig', config)
      await configureRewardManager(state, config, ctx.genesisAllowFeeRecipients)
    },
  },
]

/**
 * The modules by address, in address order (subnet-EVM applies activations in that order). Warp
 * (0x…05) is added by the integration layer; keep the order when adding others.
 */
export function createPrecompileModules(): Map<Hex, PrecompileModule> {
  return new Map(MODULES.map((m) => [m.address, m]))
}

/** A shared table of the five non-warp modules, for the integration layer to extend with warp. */
export const PRECOMPILE_MODULES: Map<Hex, PrecompileModule> = createPrecompileModules()

/** Modules of a table sorted by address, the order activations are applied in. */
export function modulesInAddressOrder(modules: Map<Hex, PrecompileModule>): PrecompileModule[] {
  return [...modules.values()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
}

export * from './abi.js'
export * from './allowList.js'
export * from './contract.js'
export * from './deployerAllowList.js'
export * from './feeManager.js'
export * from './nativeMinter.js'
export * from './rewardManager.js'
export * from './txAllowList.js'
