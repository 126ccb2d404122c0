import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, bytesToHex, createAddressFromString, equalsBytes, setLengthLeft } from '@ethereumjs/util'
import type { Hex } from '../core/hex.js'
import { INITIAL_DELAY_EXCESS } from './acp176.js'
import { BLACKHOLE_ADDRESS, type ChainHooks, type EvmChain } from './chain.js'
import type { SubnetChainConfig } from './config/genesis.js'
import { activePrecompileConfig, isDurango, isEtna, isGranite, isPrecompileEnabled, precompileTransitions } from './config/rules.js'
import { PRECOMPILE_ADDRESSES, type PrecompileConfig, type PrecompileKey } from './config/types.js'
import { createWindowFeeRules, EMPTY_PREDICATE_RESULTS, type FeeConfig } from './fees.js'
import type { FeeRules } from './feeRules.js'
import { createPrecompileModules, type PrecompileModule } from './precompiles/index.js'
import { canDeploy, deployerNotAuthorizedMessage } from './precompiles/deployerAllowList.js'
import { readFeeConfig } from './precompiles/feeManager.js'
import { readRewardAddress } from './precompiles/rewardManager.js'
import { getTxAllowListRole, isAllowListEnabled, senderNotAllowListedMessage } from './precompiles/txAllowList.js'
import type { PrecompileState, StatefulPrecompile } from './precompiles/types.js'
import { installStatefulHost } from './statefulHost.js'
import { canonicalValidatorSet, verifyWarpMessage, warpSourceSubnet, type WarpValidatorInput } from './warp/signature.js'
import { createWarpPrecompile } from './warp/precompile.js'
import { accessListGas, encodeBlockPredicateResults, verifyPredicates, WARP_ADDRESS, type AccessListEntry, type PredicateVerification } from './warp/predicate.js'
import type { SignedMessage } from './warp/codec.js'
import type { EVMResult } from '@ethereumjs/evm'
import type { AccessListBytes, TypedTransaction } from '@ethereumjs/tx'
import type { VM } from '@ethereumjs/vm'
import { InvalidArgumentError } from '../core/errors.js'
import { idToString } from '../core/ids.js'
import type { BlockTag } from './types.js'

/** The code subnet-EVM gives an activated precompile's account, so `eth_getCode` is non-empty. */
const PRECOMPILE_CODE = Uint8Array.of(0x01)

/** What warp needs from the network: ids and the validator sets that sign. */
export type WarpEnvironment = {
  networkId: number
  blockchainId: Uint8Array
  subnetId: Uint8Array
  /** The subnet a chain belongs to (the primary network's empty id for C, X and P); undefined for an unknown chain. */
  subnetOf(chainId: Uint8Array): Uint8Array | undefined
  /** A subnet's validators now (the emulator has no P-chain heights yet). */
  validatorsOf(subnetId: Uint8Array): readonly WarpValidatorInput[]
}

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
  readonly warp: WarpEnvironment | undefined
  /** Predicates of the transaction in execution (everything runs under the chain lock). */
  #predicates: PredicateVerification | undefined
  /** Extra intrinsic gas of the transaction in execution: warp predicates cost more than access-list keys. */
  #pendingIntrinsic = 0n
  /** Predicate results of the block being built: tx hash → failed bits of its warp tuples (`predicate.BlockResults`). */
  #blockPredicateResults: Map<Hex, Uint8Array> | undefined
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
    this.warp = options.warp
    if (options.warp) {
      const warp = options.warp
      this.modules.set(WARP_ADDRESS, {
        key: 'warpConfig',
        address: WARP_ADDRESS,
        run: createWarpPrecompile({
          networkId: warp.networkId,
          blockchainId: warp.blockchainId,
          getPredicate: (index) => this.#predicates?.getPredicate(index),
        }),
        configure: async () => undefined, // warp's Configure does nothing
      })
    }
  }

  /**
   * Verifies a signed warp message as the chain does for a predicate at `timestamp`: the source
   * subnet's validators (or this chain's own for primary-network messages), the quorum of the
   * active warp config. Returns the error text, or undefined when it verifies.
   */
  verifyWarp(message: SignedMessage, timestamp: bigint): string | undefined {
    const warp = this.warp
    const config = activePrecompileConfig(this.config, 'warpConfig', timestamp)
    if (!warp || !config || config.key !== 'warpConfig') return 'warp is not active'
    const sourceSubnetId = warp.subnetOf(message.unsigned.sourceChainId)
    if (!sourceSubnetId) return `cannot verify warp signature: failed to get subnetID for chain ${idToString(message.unsigned.sourceChainId)}`
    const subnet = warpSourceSubnet({
      sourceChainId: message.unsigned.sourceChainId,
      sourceSubnetId,
      ownSubnetId: warp.subnetId,
      requirePrimaryNetworkSigners: config.requirePrimaryNetworkSigners,
    })
    return verifyWarpMessage({
      message,
      networkId: warp.networkId,
      validators: canonicalValidatorSet(warp.validatorsOf(subnet)),
      quorumNumerator: config.quorumNumerator,
    })
  }

  /**
   * Sets up the predicates of a transaction about to run with `accessList` in a block at
   * `timestamp`, and returns how much more intrinsic gas its warp tuples cost than plain
   * access-list keys (`AccessListGasWithPredicates`). Throws when a predicate does not parse.
   */
  beginTransaction(accessList: readonly AccessListEntry[], timestamp: bigint): bigint {
    this.#predicates = undefined
    // A transaction refused between 'beforeTx' and its call (runTx's own intrinsic or balance
    // checks) leaves its charge pending; a new message must not pay it (eth_call runs no beforeTx).
    this.#pendingIntrinsic = 0n
    if (!this.enabled('warpConfig', timestamp) || !accessList.some((t) => isWarpTuple(t))) return 0n
    const granite = isGranite(this.config, timestamp)
    const delta = accessListGas(accessList, { warpActive: true, isGranite: granite }) - accessListGas(accessList, { warpActive: false, isGranite: granite })
    this.#predicates = verifyPredicates(accessList, (message) => this.verifyWarp(message, timestamp))
    return delta
  }

  /** Extra intrinsic gas of a pool transaction's warp predicates; throws when one does not parse. */
  intrinsicGasDelta(accessList: readonly AccessListEntry[], timestamp: bigint): bigint {
    if (!this.enabled('warpConfig', timestamp) || !accessList.some((t) => isWarpTuple(t))) return 0n
    const granite = isGranite(this.config, timestamp)
    return accessListGas(accessList, { warpActive: true, isGranite: granite }) - accessListGas(accessList, { warpActive: false, isGranite: granite })
  }

  /** Subnet-EVM's window fee rules, priced with the fee config in force after the head. */
  feeRules(): FeeRules {
    const rules = createWindowFeeRules({
      feeConfig: () => this.#head?.feeConfig.feeConfig ?? this.config.feeConfig,
      isDurango: (t) => isDurango(this.config, t),
      isGranite: (t) => isGranite(this.config, t),
    })
    if (!this.warp) return rules
    // From Durango the header's extra data ends with the block's predicate results, empty unless
    // a transaction of the block carried warp predicates.
    return {
      ...rules,
      next: (parent, timestamp) => {
        const fees = rules.next(parent, timestamp)
        return { ...fees, extraData: (gasUsed) => this.#withPredicateResults(fees.extraData(gasUsed)) }
      },
    }
  }

  #withPredicateResults(extra: Uint8Array): Uint8Array {
    const results = this.#blockPredicateResults
    if (!results || results.size === 0 || extra.length < EMPTY_PREDICATE_RESULTS.length) return extra
    const window = extra.subarray(0, extra.length - EMPTY_PREDICATE_RESULTS.length)
    const encoded = encodeBlockPredicateResults(new Map([...results].map(([hash, bits]) => [hash, new Map([[WARP_ADDRESS, bits]])])))
    const out = new Uint8Array(window.length + encoded.length)
    out.set(window)
    out.set(encoded, window.length)
    return out
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
        if (this.warp) this.#watchTransactions(vm)
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
        this.#blockPredicateResults = new Map()
        const transitions = precompileTransitions(this.config, block.parentTimestamp, block.timestamp)
        if (transitions.length > 0) await this.#applyTransitions(stateAdapter(chain.stateManager), chain.stateManager, transitions, block.number)
      },
      afterHeadChange: async (chain) => {
        this.#building = undefined
        this.#blockPredicateResults = undefined
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

  /**
   * Warp predicates live in a transaction's access list: before each transaction the VM runs,
   * they are verified and their extra intrinsic gas is charged from the top call's gas (ethereumjs
   * computes intrinsic gas itself and its transactions are frozen, so the difference is taken there).
   */
  #watchTransactions(vm: VM): void {
    vm.events.on('beforeTx', (tx: TypedTransaction) => {
      const list = 'accessList' in tx ? accessListOf(tx.accessList as AccessListBytes) : []
      this.#pendingIntrinsic = this.beginTransaction(list, this.#blockTimestamp())
    })
    // A transaction the block includes records its warp tuples' failed bits (`SetTxResults`).
    vm.events.on('afterTx', (event: { transaction: TypedTransaction }) => {
      const failed = this.#predicates?.failed
      if (this.#blockPredicateResults && failed) this.#blockPredicateResults.set(bytesToHex(event.transaction.hash()), failed)
    })
    const evm = vm.evm as unknown as { runCall(opts: { message?: unknown; gasLimit?: bigint }): Promise<EVMResult> }
    const runCall = evm.runCall.bind(evm)
    evm.runCall = async (opts) => {
      const extra = opts.message === undefined ? this.#pendingIntrinsic : 0n
      if (extra === 0n) return runCall(opts)
      this.#pendingIntrinsic = 0n
      if ((opts.gasLimit ?? 0n) < extra) throw new InvalidArgumentError(`intrinsic gas too low: warp predicates need ${extra} more gas`)
      const result = await runCall({ ...opts, gasLimit: opts.gasLimit! - extra })
      result.execResult.executionGasUsed += extra
      return result
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
      const account = (await sm.getAccount(at)) ?? new Account()
      account.nonce = 1n
      await sm.putAccount(at, account)
      await sm.putCode(at, PRECOMPILE_CODE)
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

const isWarpTuple = (tuple: AccessListEntry) =>
  (typeof tuple.address === 'string' ? tuple.address.toLowerCase() : `0x${Buffer.from(tuple.address).toString('hex')}`) === WARP_ADDRESS

/** ethereumjs' access-list bytes as warp's tuples. */
export function accessListOf(list: AccessListBytes): AccessListEntry[] {
  return list.map(([address, storageKeys]) => ({ address, storageKeys }))
}
