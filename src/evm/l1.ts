import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, equalsBytes, setLengthLeft } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import { INITIAL_DELAY_EXCESS } from './acp176.js'
import { BLACKHOLE_ADDRESS, type ChainHooks, type EvmChain } from './chain.js'
import type { SubnetChainConfig } from './config/genesis.js'
import { activePrecompileConfig, isDurango, isEtna, isGranite, isPrecompileEnabled, precompileTransitions } from './config/rules.js'
import { PRECOMPILE_ADDRESSES, type PrecompileConfig, type PrecompileKey } from './config/types.js'
import { createWindowFeeRules, type FeeConfig } from './fees.js'
import type { FeeRules } from './feeRules.js'
import { createPrecompileModules, type PrecompileModule } from './precompiles/index.js'
import { canDeploy, deployerNotAuthorizedMessage } from './precompiles/deployerAllowList.js'
import { readFeeConfig } from './precompiles/feeManager.js'
import { readRewardAddress } from './precompiles/rewardManager.js'
import { getTxAllowListRole, isAllowListEnabled, senderNotAllowListedMessage } from './precompiles/txAllowList.js'
import type { PrecompileState, StatefulPrecompile } from './precompiles/types.js'
import { installStatefulHost } from './statefulHost.js'
import { WARP_ADDRESS, type AccessListEntry } from './warp/predicate.js'
import type { SignedMessage } from './warp/codec.js'
import { activatePrecompileAccount, WarpRules, type WarpEnvironment } from './warpRules.js'
import type { BlockTag } from './types.js'

export type L1RulesOptions = {
  config: SubnetChainConfig
  warp?: WarpEnvironment
  /** Coinbase when fee recipients are allowed (a node's `feeRecipient`); the blackhole by default. */
  feeRecipient?: Hex
  /** Extra precompile modules by address (warp at 0x…05), beside the five of `precompiles/`. */
  extraModules?: PrecompileModule[]
}

/** The fee config governing the block after some block, and when the fee manager last changed it. */
export type FeeConfigAt = { feeConfig: FeeConfig; lastChangedAt: bigint | undefined }

/**
 * Subnet-EVM's rules for one L1 chain, as chain hooks: precompile activation at block start, the
 * precompiles themselves inside the EVM, the tx allow list at admission and in blocks, the
 * deployer allow list on every create, the fee manager's config for the next block and the
 * reward manager's coinbase. What it reads from the head's state is cached after each head change,
 * because the fee rules and the coinbase are asked synchronously.
 */
export class L1Rules {
  config: SubnetChainConfig
  readonly modules: Map<Hex, PrecompileModule>
  readonly feeRecipient: Hex
  /** Warp's precompile, predicates and block results, shared with the C-chain; undefined without a warp environment. */
  readonly warp: WarpRules | undefined
  #head:
    | {
        feeConfig: FeeConfigAt
        reward: { address: Hex; allowFeeRecipients: boolean } | undefined
        timestamp: bigint
        storedFee: { root: Uint8Array | undefined; value: FeeConfigAt } | undefined
        storedReward: { root: Uint8Array | undefined; value: { address: Hex; allowFeeRecipients: boolean } } | undefined
      }
    | undefined

  constructor(options: L1RulesOptions) {
    this.config = options.config
    this.modules = createPrecompileModules()
    for (const module of options.extraModules ?? []) this.modules.set(module.address, module)
    this.feeRecipient = (options.feeRecipient ?? BLACKHOLE_ADDRESS).toLowerCase() as Hex
    this.warp = options.warp && new WarpRules({ env: options.warp, configAt: (t) => this.#warpConfigAt(t), isGranite: (t) => isGranite(this.config, t) })
    if (this.warp) {
      this.modules.set(WARP_ADDRESS, {
        key: 'warpConfig',
        address: WARP_ADDRESS,
        run: this.warp.precompile,
        configure: async () => undefined, // warp's Configure does nothing
      })
    }
  }

  #warpConfigAt(timestamp: bigint) {
    if (!this.enabled('warpConfig', timestamp)) return undefined
    const config = activePrecompileConfig(this.config, 'warpConfig', timestamp)
    return config?.key === 'warpConfig' ? config : undefined
  }

  /** Verifies a signed warp message as a predicate of a block at `timestamp` (see {@link WarpRules.verify}). */
  verifyWarp(message: SignedMessage, timestamp: bigint): string | undefined {
    return this.warp ? this.warp.verify(message, timestamp) : 'warp is not active'
  }

  /** Sets up a transaction's warp predicates; returns their extra intrinsic gas (see {@link WarpRules.beginTransaction}). */
  beginTransaction(accessList: readonly AccessListEntry[], timestamp: bigint): bigint {
    return this.warp?.beginTransaction(accessList, timestamp) ?? 0n
  }

  /** Extra intrinsic gas of a pool transaction's warp predicates; throws when one does not parse. */
  intrinsicGasDelta(accessList: readonly AccessListEntry[], timestamp: bigint): bigint {
    return this.warp?.intrinsicGasDelta(accessList, timestamp) ?? 0n
  }

  /** Subnet-EVM's window fee rules, priced with the fee config in force after the head. */
  feeRules(): FeeRules {
    const rules = createWindowFeeRules({
      feeConfig: () => this.#head?.feeConfig.feeConfig ?? this.config.feeConfig,
      isDurango: (t) => isDurango(this.config, t),
      isGranite: (t) => isGranite(this.config, t),
    })
    return this.warp ? this.warp.withPredicateResults(rules) : rules
  }

  /** Whether a precompile is enabled at a timestamp; asked several times per transaction, so memoized per timestamp. */
  enabled(key: PrecompileKey, timestamp: bigint): boolean {
    if (this.#enabledAt !== timestamp || this.#enabledFor !== this.config) {
      this.#enabledAt = timestamp
      this.#enabledFor = this.config
      this.#enabledCache.clear()
    }
    let enabled = this.#enabledCache.get(key)
    if (enabled === undefined) this.#enabledCache.set(key, (enabled = isPrecompileEnabled(this.config, key, timestamp)))
    return enabled
  }

  #enabledAt: bigint | undefined
  #enabledFor: SubnetChainConfig | undefined
  readonly #enabledCache = new Map<PrecompileKey, boolean>()

  /**
   * A precompile's stored state, re-read only when its account's storage root moved (a block
   * that did not touch the fee manager leaves its config as it was: nine slot reads saved).
   */
  async #readIfChanged<T>(sm: MerkleStateManager, address: Hex, previous: { root: Uint8Array | undefined; value: T } | undefined, read: () => Promise<T>) {
    const root = (await sm.getAccount(createAddressFromString(address)))?.storageRoot
    if (previous && root && previous.root && equalsBytes(previous.root, root)) return previous
    return { root, value: await read() }
  }

  /** `GetFeeConfigAt(header)`: the genesis config unless the fee manager is enabled at the block. */
  async feeConfigAt(chain: EvmChain, tag: BlockTag): Promise<FeeConfigAt> {
    return chain.withState(tag, async (state, block) => {
      if (!this.enabled('feeManagerConfig', block.block.header.timestamp)) return { feeConfig: this.config.feeConfig, lastChangedAt: 0n }
      return readFeeConfig(stateAdapter(state))
    })
  }

  hooks(): ChainHooks {
    return {
      genesisState: async (state, timestamp) => {
        await this.#applyTransitions(stateAdapter(state), state, precompileTransitions(this.config, undefined, timestamp), 0n)
      },
      genesisExtras: (timestamp) => {
        const extras: Record<string, bigint> = {}
        // Etna at genesis: the genesis header carries a zero block gas cost (block 1 starts from 0).
        if (isEtna(this.config, timestamp)) extras.blockGasCost = 0n
        if (isGranite(this.config, timestamp)) Object.assign(extras, { timestampMilliseconds: timestamp * 1000n, minDelayExcess: INITIAL_DELAY_EXCESS })
        return extras
      },
      prepareVM: (vm) => {
        this.warp?.watchTransactions(vm, () => this.#blockTimestamp())
        installStatefulHost(vm, {
          precompileAt: (address, timestamp) => this.#precompileAt(address, timestamp),
          rules: (block) => ({ isDurango: isDurango(this.config, block.timestamp), isGranite: isGranite(this.config, block.timestamp), blockNumber: block.number, timestamp: block.timestamp }),
          createRefusal: async (origin, timestamp, state) => {
            if (!this.enabled('contractDeployerAllowListConfig', timestamp)) return undefined
            return (await canDeploy(state, origin)) ? undefined : deployerNotAuthorizedMessage(origin)
          },
        })
      },
      beforeBlock: async (chain, block) => {
        this.#building = block.timestamp
        this.warp?.beginBlock()
        const transitions = precompileTransitions(this.config, block.parentTimestamp, block.timestamp)
        if (transitions.length > 0) await this.#applyTransitions(stateAdapter(chain.stateManager), chain.stateManager, transitions, block.number)
      },
      afterHeadChange: async (chain) => {
        this.#building = undefined
        this.warp?.endBlock()
        const sm = chain.stateManager
        const state = stateAdapter(sm)
        const timestamp = chain.head.block.header.timestamp
        const previous = this.#head
        const stored = this.enabled('feeManagerConfig', timestamp)
          ? await this.#readIfChanged(sm, PRECOMPILE_ADDRESSES.feeManagerConfig, previous?.storedFee, () => readFeeConfig(state))
          : undefined
        const storedReward = this.enabled('rewardManagerConfig', timestamp)
          ? await this.#readIfChanged(sm, PRECOMPILE_ADDRESSES.rewardManagerConfig, previous?.storedReward, () => readRewardAddress(state))
          : undefined
        this.#head = {
          feeConfig: stored?.value ?? { feeConfig: this.config.feeConfig, lastChangedAt: 0n },
          reward: storedReward?.value,
          timestamp,
          storedFee: stored,
          storedReward,
        }
      },
      beginCall: (_chain, accessList) => this.beginTransaction(accessList, this.#blockTimestamp()),
      intrinsicGasDelta: (chain, accessList) => this.intrinsicGasDelta(accessList, chain.head.block.header.timestamp),
      admissionRefusal: async (chain, from) => {
        // In a block, the block's rules (its activations ran in beforeBlock); in the pool, the head's.
        if (!this.enabled('txAllowListConfig', this.#building ?? chain.head.block.header.timestamp)) return undefined
        const role = await getTxAllowListRole(stateAdapter(chain.stateManager), from)
        return isAllowListEnabled(role) ? undefined : senderNotAllowListedMessage(from)
      },
      coinbase: () => {
        const reward = this.#head?.reward
        if (reward) return reward.allowFeeRecipients ? this.feeRecipient : reward.address
        return this.config.allowFeeRecipients ? this.feeRecipient : BLACKHOLE_ADDRESS
      },
    }
  }

  /** The timestamp of the block being built, else the head's (calls run on the head's rules). */
  #blockTimestamp(): bigint {
    return this.#building ?? this.#head?.timestamp ?? 0n
  }

  /** Timestamp of the block being built, between beforeBlock and the block's end. */
  #building: bigint | undefined

  #precompileAt(address: Hex, timestamp: bigint): StatefulPrecompile | undefined {
    const module = this.modules.get(address)
    if (!module || !this.enabled(module.key, timestamp)) return undefined
    return module.run
  }

  /**
   * `ApplyPrecompileActivations`: a disabling config wipes the account (code, nonce, balance and
   * every slot, so a re-enable starts clean); an enabling one sets nonce 1 and code 0x01, then
   * writes only its own config.
   */
  async #applyTransitions(state: PrecompileState, sm: MerkleStateManager, transitions: PrecompileConfig[], blockNumber: bigint): Promise<void> {
    for (const config of transitions) {
      const address = PRECOMPILE_ADDRESSES[config.key]
      const at = createAddressFromString(address)
      if (config.disable) {
        await sm.clearStorage(at)
        await sm.deleteAccount(at)
        continue
      }
      await activatePrecompileAccount(sm, address)
      const module = this.modules.get(address)
      await module?.configure(state, config, {
        blockNumber,
        genesisFeeConfig: this.config.feeConfig,
        genesisAllowFeeRecipients: this.config.allowFeeRecipients,
      })
    }
  }
}

/** A {@link PrecompileState} over a state manager, for activations outside the EVM. */
export function stateAdapter(sm: MerkleStateManager): PrecompileState {
  return {
    async getStorage(address, slot) {
      return setLengthLeft(await sm.getStorage(createAddressFromString(address), slot), 32)
    },
    async putStorage(address, slot, value) {
      await sm.putStorage(createAddressFromString(address), slot, value)
    },
    async addBalance(address, amount) {
      const at = createAddressFromString(address)
      const account = (await sm.getAccount(at)) ?? new Account()
      account.balance += amount
      await sm.putAccount(at, account)
    },
  }
}
