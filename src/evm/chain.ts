import { createBlock, type Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { createStateManager, installDirectCommit, setStateRootEmptyingCaches } from './ethereumjsInternals.js'
import { type TypedTransaction } from '@ethereumjs/tx'
import { Address, bytesToHex, createAddressFromString, equalsBytes, hexToBytes, type MapDB } from '@ethereumjs/util'
import { createVM, type VM } from '@ethereumjs/vm'
import type { Clock } from '../core/clock.js'
import { InvalidArgumentError } from '../core/errors.js'
import { TypedEmitter } from '../core/events.js'
import type { Hex } from '../core/hex.js'
import { createMutex, type Mutex, type MutexWaitObserver } from '../core/mutex.js'
import { createEvmCommon, forkActiveAt, type ChainUpgrades } from './common.js'
import { createCustomCrypto } from './crypto.js'
import './debugColors.js'
import { jumpAnalysisCache } from './jumpAnalysisCache.js'
import { UnknownBlockError } from './errors.js'
import type { FeeRules, NextBlockFees, ParentHeaderInfo } from './feeRules.js'
import { Miner } from './miner.js'
import { TxPool, type PoolTx } from './pool.js'
import { installFrameUnwind } from './statefulHost.js'
import { ChainStore } from './store.js'
import { TrieNodeMap } from './trieNodes.js'
import { StoreBlockchain } from './storeBlockchain.js'
import type { BlockTag, ChainEvents, StoredBlock } from './types.js'
import type { AccessListEntry } from './warp/predicate.js'
import { DEFAULT_UNPROTECTED_TX_POLICY, type UnprotectedTxPolicy } from './unprotectedTxs.js'
import { TxSharing } from './txSharing.js'

/** Fees are not burned on Avalanche EVM chains: the whole fee goes to this coinbase. */
export const BLACKHOLE_ADDRESS: Hex = '0x0100000000000000000000000000000000000000'

export type GenesisAccount = {
  balance: bigint
  nonce?: bigint
  code?: Hex
  storage?: Record<Hex, Hex>
}

export type MiningMode =
  | { mode: 'auto' }
  | { mode: 'manual' }
  /** A block every `interval` seconds of network time (anvil's interval mining). */
  | { mode: 'interval'; interval: number }

export type EvmChainOptions = {
  /** Primary alias, `C` for the contract chain. */
  alias: string
  chainId: bigint
  clock: Clock
  feeRules: FeeRules
  upgrades: ChainUpgrades
  genesis: {
    timestamp: bigint
    alloc: Record<Hex, GenesisAccount>
    gasLimit: bigint
    baseFeePerGas: bigint
    coinbase?: Hex
    extraData?: Hex
  }
  mining?: MiningMode
  /** Coinbase of built blocks; the blackhole address unless fee recipients are allowed. */
  coinbase?: Hex
  /** `coreth` (the C-chain) or `subnet-evm` (L1 chains): header JSON and the extension methods differ. */
  flavour?: ChainFlavour
  /** Subnet-EVM behaviour layered on the chain (precompiles, allow lists, fee manager). */
  hooks?: ChainHooks
  /** Told how long each task waited for the chain lock (the nodes' `lock.profile`). */
  onLockWait?: MutexWaitObserver
  /** Which unprotected (pre-EIP-155) transactions the RPC accepts; coreth's defaults when absent. */
  unprotectedTxs?: UnprotectedTxPolicy
}

export type ChainFlavour = 'coreth' | 'subnet-evm'

/**
 * Where an L1 chain's rules enter the generic chain: each hook runs at a fixed point of block
 * building, admission or VM creation. The C-chain has its genesis fields and its atomic
 * transactions (`beforeSeal`).
 */
export type ChainHooks = {
  /** Writes the genesis state that precedes `alloc` (precompile activations at genesis). */
  genesisState?(state: MerkleStateManager, timestamp: bigint): Promise<void>
  /** Header fields of the genesis block beyond Ethereum's (`blockGasCost`, Granite's fields). */
  genesisExtras?(timestamp: bigint): Record<string, bigint>
  /** Adds chain-specific behaviour to a VM (stateful precompiles); applied to every copy. */
  prepareVM?(vm: VM): void
  /** Runs on the live state before a block's transactions (precompile upgrades). Under the lock. */
  beforeBlock?(chain: EvmChain, block: { number: bigint; timestamp: bigint; parentTimestamp: bigint }): Promise<void>
  /**
   * Runs on a block's state after its transactions, before it is sealed: the C-chain applies its
   * atomic transactions there, as coreth's `onFinalizeAndAssemble` does. Under the lock.
   */
  beforeSeal?(chain: EvmChain, block: { number: bigint; timestamp: bigint; baseFee: bigint }): Promise<void>
  /** Refreshes what the hooks cache from the head's state; after genesis, each block and a revert. */
  afterHeadChange?(chain: EvmChain): Promise<void>
  /**
   * Before an eth_call / eth_estimateGas message runs with `accessList` (warp predicates are
   * verified for it); returns the extra intrinsic gas its predicates cost. Under the lock.
   */
  beginCall?(chain: EvmChain, accessList: readonly AccessListEntry[]): bigint
  /** Extra intrinsic gas of a pool transaction's access list (warp predicates); throws when one does not parse. */
  intrinsicGasDelta?(chain: EvmChain, accessList: readonly AccessListEntry[]): bigint
  /** Why a transaction from `from` is refused at admission (tx allow list), if it is. Under the lock. */
  admissionRefusal?(chain: EvmChain, from: Hex): Promise<string | undefined>
  /** The coinbase of a block built now (reward manager, fee recipients). */
  coinbase?(chain: EvmChain): Hex
}

/** Block-time rules set by cheat codes; part of a snapshot. */
export type TimingState = {
  /** Exact timestamp of the next block (evm_setNextBlockTimestamp). */
  nextTimestamp: bigint | undefined
  /** Fixed seconds between blocks (anvil_setBlockTimestampInterval). */
  interval: bigint | undefined
}

export type ChainSnapshot = {
  height: bigint
  stateRoot: Uint8Array
  pool: PoolTx[]
  timing: TimingState
  mining: MiningMode
  nextIntervalAt: bigint | undefined
  impersonated: Set<Hex>
  autoImpersonate: boolean
}

/**
 * One EVM chain: state, blocks, pool and miner on @ethereumjs/vm. Every read or write of live
 * state goes through `lock`, so a block being built is never observed half-way.
 */
export class EvmChain {
  readonly alias: string
  readonly chainId: bigint
  readonly common: Common
  readonly clock: Clock
  readonly feeRules: FeeRules
  readonly events = new TypedEmitter<ChainEvents>()
  readonly store: ChainStore
  readonly pool = new TxPool()
  readonly lock: Mutex
  readonly miner: Miner = new Miner(this)
  readonly vm: VM
  readonly blockchain: StoreBlockchain
  readonly stateManager: MerkleStateManager
  /** What the transactions this chain keeps share (one `Common` per hardfork, empty data, recipients). */
  readonly txSharing: TxSharing
  readonly flavour: ChainFlavour
  readonly hooks: ChainHooks
  /** Which unprotected (pre-EIP-155) transactions the RPC accepts (the chain config's keys). */
  readonly unprotectedTxs: UnprotectedTxPolicy
  #coinbase: Hex
  mining: MiningMode
  timing: TimingState = { nextTimestamp: undefined, interval: undefined }
  /** Accounts whose transactions are accepted unsigned (anvil_impersonateAccount). */
  impersonated = new Set<Hex>()
  autoImpersonate = false
  /** Network time at which interval mining builds its next block. */
  nextIntervalAt: bigint | undefined

  private constructor(init: {
    options: EvmChainOptions
    common: Common
    vm: VM
    blockchain: StoreBlockchain
    stateManager: MerkleStateManager
    store: ChainStore
    genesis: Block
  }) {
    this.store = init.store
    const { options } = init
    this.alias = options.alias
    this.chainId = options.chainId
    this.common = init.common
    this.txSharing = new TxSharing(init.common)
    this.clock = options.clock
    this.feeRules = options.feeRules
    this.vm = init.vm
    this.blockchain = init.blockchain
    this.stateManager = init.stateManager
    this.#coinbase = (options.coinbase ?? BLACKHOLE_ADDRESS).toLowerCase() as Hex
    this.flavour = options.flavour ?? 'coreth'
    this.lock = createMutex(options.onLockWait)
    this.hooks = options.hooks ?? {}
    this.unprotectedTxs = options.unprotectedTxs ?? DEFAULT_UNPROTECTED_TX_POLICY
    this.mining = options.mining ?? { mode: 'auto' }
    if (this.mining.mode === 'interval' && !(Number.isSafeInteger(this.mining.interval) && this.mining.interval >= 1))
      throw new InvalidArgumentError(`the mining interval must be a whole number of seconds, 1 or more, got ${this.mining.interval}`)
    if (this.mining.mode === 'interval')
      this.nextIntervalAt = BigInt(options.clock.now()) + BigInt(this.mining.interval)
    const extras = options.hooks?.genesisExtras?.(options.genesis.timestamp)
    this.store.append({ block: init.genesis, hash: bytesToHex(init.genesis.hash()) as Hex, number: 0n, txs: [], ...(extras ? { extras } : {}) })
  }

  /** Coinbase of the next block: the blackhole address unless the L1's rules name another. */
  get coinbase(): Hex {
    return this.hooks.coinbase?.(this) ?? this.#coinbase
  }

  set coinbase(address: Hex) {
    this.#coinbase = address.toLowerCase() as Hex
  }

  static async create(options: EvmChainOptions): Promise<EvmChain> {
    await jumpAnalysisCache
    installDirectCommit()
    const common = createEvmCommon({
      chainId: options.chainId,
      name: `l1sim-${options.alias}`,
      upgrades: options.upgrades,
      customCrypto: createCustomCrypto(),
    })
    // The rules of the genesis block; the miner moves them to each new block's timestamp.
    common.setHardforkBy({ blockNumber: 0n, timestamp: options.genesis.timestamp })
    // LRU caches in front of the trie: admission and execution read the same few accounts. Sized
    // for a test network: a revert clears them, and clearing an LRU cache costs time in
    // proportion to its capacity (100k entries: 0.3 ms each), not to what it holds.
    // Reads are cached as clean (ethereumjsInternals.ts): a block flushes only what it wrote, and
    // an eth_call's revert keeps the values it read warm.
    const stateManager = createStateManager({ common }, { account: 20_000, storage: 20_000, code: 5_000 })
    // Every version of the state stays in this map (history costs no replay): a compact one.
    ;(stateManager as unknown as { _getCodeDB(): { db: MapDB<string, string | Uint8Array> } })._getCodeDB().db._database = new TrieNodeMap()
    await options.hooks?.genesisState?.(stateManager, options.genesis.timestamp)
    for (const [address, account] of Object.entries(options.genesis.alloc)) {
      await writeAccount(stateManager, address as Hex, account)
    }
    const stateRoot = await stateManager.getStateRoot()
    const genesis = createBlock(
      {
        header: {
          number: 0n,
          timestamp: options.genesis.timestamp,
          gasLimit: options.genesis.gasLimit,
          baseFeePerGas: options.genesis.baseFeePerGas,
          coinbase: options.genesis.coinbase ?? '0x0000000000000000000000000000000000000000',
          stateRoot,
          difficulty: 1n,
          extraData: options.genesis.extraData ?? '0x',
          ...cancunHeaderFields(common, options.genesis.timestamp),
        },
        withdrawals: forkActiveAt(common, 'shanghai', options.genesis.timestamp) ? [] : undefined,
      },
      { common, setHardfork: true, skipConsensusFormatValidation: true },
    )
    const store = new ChainStore()
    const blockchain = new StoreBlockchain(store)
    const vm = await createVM({ common, stateManager, blockchain, setHardfork: true, evmOpts: { customOpcodes: [PREVRANDAO_IS_DIFFICULTY] } })
    installFrameUnwind(vm)
    options.hooks?.prepareVM?.(vm)
    const chain = new EvmChain({ options, common, vm, blockchain, stateManager, store, genesis })
    await chain.hooks.afterHeadChange?.(chain)
    return chain
  }

  get head(): StoredBlock {
    return this.store.head
  }

  /** Resolves a block tag to a stored block, or throws {@link UnknownBlockError}. */
  resolveBlock(tag: BlockTag): StoredBlock {
    const found = this.findBlock(tag)
    if (found) return found
    // coreth's wording: numbers above the last accepted block are "unfinalized".
    if (typeof tag === 'bigint' && tag > this.store.height) throw new UnknownBlockError('cannot query unfinalized data')
    throw new UnknownBlockError(typeof tag === 'object' ? 'header for hash not found' : 'header not found')
  }

  findBlock(tag: BlockTag): StoredBlock | undefined {
    if (typeof tag === 'bigint') return this.store.byNumber(tag)
    if (typeof tag === 'object') return this.store.byHash(tag.hash)
    if (tag === 'earliest') return this.store.byNumber(0n)
    return this.store.head
  }

  /** True when `tag` names the live state (latest/pending/safe/finalized, or the head itself). */
  isLive(tag: BlockTag): boolean {
    if (typeof tag === 'string') return tag !== 'earliest' || this.store.height === 0n
    return this.resolveBlock(tag) === this.store.head
  }

  /**
   * Runs `fn` against the state at `tag`: the live state under the lock, or a read-only copy at
   * an older block's state root (the trie keeps every version, so history costs no replay).
   */
  async withState<T>(tag: BlockTag, fn: (state: MerkleStateManager, block: StoredBlock, live: boolean) => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      const block = this.resolveBlock(tag)
      if (block === this.store.head) return fn(this.stateManager, block, true)
      const copy = this.stateManager.shallowCopy(false)
      await copy.setStateRoot(block.block.header.stateRoot)
      return fn(copy, block, false)
    })
  }

  async getAccountFields(address: Hex, tag: BlockTag): Promise<{ balance: bigint; nonce: bigint }> {
    return this.withState(tag, async (state) => {
      const account = await state.getAccount(createAddressFromString(address))
      return { balance: account?.balance ?? 0n, nonce: account?.nonce ?? 0n }
    })
  }

  async getCode(address: Hex, tag: BlockTag): Promise<Uint8Array> {
    return this.withState(tag, (state) => state.getCode(createAddressFromString(address)))
  }

  async getStorageAt(address: Hex, slot: Uint8Array, tag: BlockTag): Promise<Uint8Array> {
    return this.withState(tag, async (state) => {
      const value = await state.getStorage(createAddressFromString(address), slot)
      const out = new Uint8Array(32)
      out.set(value, 32 - value.length)
      return out
    })
  }

  /** Base fee the next block will have if built now. */
  nextBaseFee(): bigint {
    return this.nextFees(this.nextBlockTimestamp()).baseFee
  }

  /** Gas limit of the next block. */
  nextGasLimit(): bigint {
    return this.nextFees(this.nextBlockTimestamp()).gasLimit
  }

  /**
   * The timestamp the next block gets: a cheat code's exact time or interval, else the clock,
   * but at least the chain's minimum delay after the parent (1 s; Granite's 2 s on the C-chain).
   */
  nextBlockTimestamp(): bigint {
    const parent = this.store.head.block.header.timestamp
    if (this.timing.nextTimestamp !== undefined) return this.timing.nextTimestamp
    if (this.timing.interval !== undefined) return parent + this.timing.interval
    const now = BigInt(this.clock.now())
    const earliest = parent + this.feeRules.minBlockDelay(parent)
    return now > earliest ? now : earliest
  }

  parentHeaderInfo(): ParentHeaderInfo {
    const h = this.store.head.block.header
    return { number: h.number, timestamp: h.timestamp, gasUsed: h.gasUsed, gasLimit: h.gasLimit, baseFeePerGas: h.baseFeePerGas ?? 0n, extraData: h.extraData, extras: this.store.head.extras }
  }

  /** Fees, gas limit and available gas of a next block at `timestamp`. */
  nextFees(timestamp: bigint): NextBlockFees {
    return this.feeRules.next(this.parentHeaderInfo(), timestamp)
  }

  /** Header fields of the next block, except the extra data, which depends on its gas use. */
  nextHeaderData(timestamp: bigint, fees: NextBlockFees) {
    return {
      timestamp,
      gasLimit: fees.gasLimit,
      baseFeePerGas: fees.baseFee,
      coinbase: this.coinbase,
      difficulty: 1n,
      ...cancunHeaderFields(this.common, timestamp),
    }
  }

  snapshot(): Promise<ChainSnapshot> {
    return this.lock.run(async () => ({
      height: this.store.height,
      stateRoot: await this.stateManager.getStateRoot(),
      pool: this.pool.all(),
      timing: { ...this.timing },
      mining: { ...this.mining },
      nextIntervalAt: this.nextIntervalAt,
      impersonated: new Set(this.impersonated),
      autoImpersonate: this.autoImpersonate,
    }))
  }

  revert(snapshot: ChainSnapshot): Promise<void> {
    return this.lock.run(async () => {
      const dropped = this.store.truncate(snapshot.height)
      // A chain whose state did not move since the snapshot keeps its caches: they hold that very
      // state (setStateRoot would empty them, ~45,000 slots filled per chain and revert).
      if (!equalsBytes(await this.stateManager.getStateRoot(), snapshot.stateRoot)) await setStateRootEmptyingCaches(this.stateManager, snapshot.stateRoot)
      this.pool.restore(snapshot.pool)
      this.timing = { ...snapshot.timing }
      this.mining = { ...snapshot.mining }
      this.nextIntervalAt = snapshot.nextIntervalAt
      this.impersonated = new Set(snapshot.impersonated)
      this.autoImpersonate = snapshot.autoImpersonate
      this.useRulesOf(this.store.head)
      await this.hooks.afterHeadChange?.(this)
      if (dropped.length > 0) this.events.emit('truncate', { height: snapshot.height })
    })
  }

  /** Nonce of the account in the live state (call under the lock). */
  async liveNonce(address: Hex): Promise<bigint> {
    return (await this.stateManager.getAccount(createAddressFromString(address)))?.nonce ?? 0n
  }

  /** A copy of the VM for scratch work (calls, traces) under the rules of `block`, with the chain's VM additions. */
  async copyVM(block: StoredBlock = this.store.head): Promise<VM> {
    const vm = await this.vm.shallowCopy(false)
    vm.common.setHardforkBy({ blockNumber: block.number, timestamp: block.block.header.timestamp })
    installFrameUnwind(vm)
    this.hooks.prepareVM?.(vm)
    return vm
  }

  /**
   * Points the live VM at the rules (hardfork) of a block's timestamp: Shanghai from Durango,
   * Cancun from Etna. ethereumjs' block builder and calls read the VM's current rules.
   */
  useRulesOf(block: { number: bigint; block: { header: { timestamp: bigint } } } | { number: bigint; timestamp: bigint }): void {
    const timestamp = 'timestamp' in block ? block.timestamp : block.block.header.timestamp
    if (this.rulesSettledAt(timestamp)) return
    this.vm.common.setHardforkBy({ blockNumber: block.number, timestamp })
  }

  /**
   * Whether the live VM's rules are the last scheduled fork's and that fork is active at
   * `timestamp`: past it nothing can change (the common case), so setHardforkBy, which scans the
   * forks, would leave the rules as they are.
   */
  rulesSettledAt(timestamp: bigint): boolean {
    return this.vm.common.hardfork() === 'cancun' && forkActiveAt(this.vm.common, 'cancun', timestamp)
  }

  canSendUnsigned(from: Hex): boolean {
    return this.autoImpersonate || this.impersonated.has(from.toLowerCase() as Hex)
  }
}

/**
 * PREVRANDAO (0x44) reads the difficulty, which is always 1 on Avalanche EVM chains (coreth and
 * subnet-EVM `core/evm.go`: `Random` is set to `Difficulty` since Shanghai; before it the opcode
 * was DIFFICULTY). ethereumjs would read the header's mixHash from Paris on.
 */
const PREVRANDAO_IS_DIFFICULTY = {
  opcode: 0x44,
  opcodeName: 'PREVRANDAO',
  baseFee: 2,
  logicFunction(runState: { stack: { push(value: bigint): void } }) {
    runState.stack.push(1n)
  },
}

export async function createEvmChain(options: EvmChainOptions): Promise<EvmChain> {
  return EvmChain.create(options)
}

/** Cancun header fields: no blobs on Avalanche, and a zero parent beacon root (Etna). */
function cancunHeaderFields(common: Common, timestamp: bigint) {
  if (!forkActiveAt(common, 'cancun', timestamp)) return {}
  return { blobGasUsed: 0n, excessBlobGas: 0n, parentBeaconBlockRoot: new Uint8Array(32) }
}

export async function writeAccount(state: MerkleStateManager, address: Hex, account: GenesisAccount): Promise<void> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new InvalidArgumentError(`invalid genesis address ${address}`)
  const addr = createAddressFromString(address)
  await state.modifyAccountFields(addr, { balance: account.balance, nonce: account.nonce ?? 0n })
  if (account.code) await state.putCode(addr, hexToBytes(account.code))
  for (const [slot, value] of Object.entries(account.storage ?? {})) {
    await state.putStorage(addr, hexToBytes(slot as Hex), hexToBytes(value))
  }
}

export type { TypedTransaction, Address }
