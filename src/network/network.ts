import { hexToBytes } from '@ethereumjs/util'
import { createClock, type Clock, type ClockMode, type ClockOptions } from '../core/clock.js'
import { InvalidArgumentError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { DEFAULT_MNEMONIC, createNodeIdentity, deriveDevAccounts, type DevAccount, type NodeIdentity } from '../core/keys.js'
import { createSeededRandom, type SeededRandom } from '../core/random.js'
import { createEvmChain, type ChainHooks, type ChainSnapshot, type EvmChain, type MiningMode } from '../evm/chain.js'
import { createCChainRules } from '../evm/cchainRules.js'
import type { WarpEnvironment, WarpRules } from '../evm/warpRules.js'
import { unprotectedTxPolicy, type EvmChainConfig } from '../evm/unprotectedTxs.js'
import { withIcmIf } from '../evm/icm/predeploy.js'
import { idFromString, idToString, PRIMARY_NETWORK_ID } from '../core/ids.js'
import { createL1, type CreateL1Context, type L1, type L1Options } from './l1.js'
import { nodeValidatorEntry, ValidatorRegistry } from './validators.js'
import { FaultState } from './faults.js'
import { mineDueIntervalBlocks } from './intervalMining.js'
import { SimNode, type NodeEnvironment, type NodeOptions } from './node.js'
import { WaitRecorder } from './profiler.js'
import { NetworkUptime } from './uptime.js'
import { PrimaryNetwork, type PrimarySnapshot } from './primary.js'
import { buildNetworkGenesis, GENESIS_VERSION, type GenesisVersion } from './genesis.js'
import type { UptimeFn, ValidatorSetListener } from '../platform/pchain/chain.js'
import { PWallet } from '../platform/pchain/wallet.js'
import type { PChainSignedTx } from '../platform/txs.js'
import { Keychain, XWallet } from '../platform/xchain/wallet.js'
import { addressFromPrivateKey } from '../platform/secp256k1fx.js'
import { SUBNET_EVM_ID } from './version.js'
import { createSignatureAggregator, type AggregateSignaturesRequest, type SignatureAggregator } from './aggregator.js'
import { warpRequestOfTx } from './txWarpMessages.js'
import { findWarpMessage, signWarpMessage, warpBlockHashMessage, type SignWarpOptions } from './warp.js'
import { INITIALLY_ACTIVE_TIME, lastUpgradeTime, NETWORK_PRESETS, type NetworkPreset, type NetworkPresetName } from './presets.js'
import type { DataApiOptions } from '../api/routes/data/config.js'
import { createRelayer, type IcmRelayer, type RelayerOptions } from './relayer.js'
import { createMethodRegistry, type AbiEntry, type ContractArtifact, type MethodRegistry } from '../indexer/methods.js'

export type NetworkOptions = {
  /** `local` (default, network id 12345), `fuji` (5) or `mainnet` (1): ids, HRP and chain ids. */
  preset?: NetworkPresetName
  /** Number of simulated nodes (default 5). */
  nodes?: number
  mnemonic?: string
  /** Dev accounts derived from the mnemonic (default 20). */
  accounts?: number
  /** Native balance of each dev account in wei (default 10,000 tokens). */
  balance?: bigint
  /** Seed of every derived id and key; same seed, same network. */
  seed?: string
  clock?: ClockOptions
  mining?: MiningMode
  /** L1s with their subnet-EVM chains, beside the C-chain. */
  l1s?: L1Options[]
  /**
   * Interchain Messaging: l1sim's TeleporterMessenger-compatible messenger at TeleporterMessenger
   * v1's canonical address on the C-chain and every L1 from genesis, as if its keyless deployment
   * had run there (see {@link withIcmMessenger}).
   */
  icm?: boolean
  /** The C-chain's config.json as the node reads it (`allow-unprotected-txs`, `allow-unprotected-tx-hashes`); coreth's defaults otherwise. */
  cChainConfig?: EvmChainConfig
  /** Settings of every simulated node (admin API, data and profile directories, loggers, health checks). */
  node?: NodeOptions
  /** The /v1 data API's settings (prices, API keys and rate limits, its own port). */
  dataApi?: DataApiOptions
  /**
   * The genesis layout (see {@link GenesisVersion}): 3, avalanchego's with the C-Chain's warp account, unless a snapshot file
   * saved before it is loaded (its options have none: 1). Not meant to be set by hand.
   */
  genesisVersion?: GenesisVersion
  /** The built-in ICM relayer's settings (mode `auto` by default); see {@link createRelayer}. */
  relayer?: RelayerOptions
}

export const DEFAULT_DEV_BALANCE = 10_000n * 10n ** 18n

type NetworkSnapshot = {
  clock: ReturnType<Clock['snapshot']>
  chains: Map<string, ChainSnapshot>
  validators: ReturnType<ValidatorRegistry['snapshot']>
  uptime: ReturnType<NetworkUptime['snapshot']>
  primary: PrimarySnapshot
}

/**
 * The whole emulated network: one clock, the nodes, and the chains (the C-chain today). It owns
 * network-wide snapshots, so `evm_snapshot` on any chain captures every chain and the clock.
 */
export class Network {
  readonly preset: NetworkPreset
  readonly presetName: NetworkPresetName
  readonly clock: Clock
  readonly nodes: SimNode[]
  readonly devAccounts: DevAccount[]
  /** Private keys of the dev accounts by lower-case address (eth_sendTransaction signs with them). */
  readonly signers: ReadonlyMap<Hex, Uint8Array>
  readonly cChain: EvmChain
  /** The C-chain's warp (its precompile and the rules it verifies messages with). */
  readonly cWarp: WarpRules
  /** L1s in the order the options gave them. */
  readonly l1s: L1[]
  /** Every subnet's validator set (the primary network's under its subnet id). */
  readonly validators: ValidatorRegistry
  /** What is broken (disconnected nodes, stalled chains, full disks…): see {@link FaultState}. */
  readonly faults: FaultState
  /** Every node's view of every validator's uptime. */
  readonly uptime: NetworkUptime
  /** Time tasks spent queued for chain locks (the nodes' `lock.profile`). */
  readonly waits: WaitRecorder
  /** The P-chain, the X-chain, shared memory and the C-chain's atomic transactions. */
  readonly primary: PrimaryNetwork
  /** The /v1 data API's settings, as given (see {@link DataApiOptions}). */
  readonly dataApi: DataApiOptions
  /** Selector → signature for the data API's `Method.methodName`: built-ins plus {@link registerAbi}. */
  readonly methods: MethodRegistry = createMethodRegistry()
  /** The options the network was created with, its clock's start resolved (a file snapshot recreates it from them). */
  readonly options: NetworkOptions
  readonly #random: SeededRandom
  readonly #l1Context: CreateL1Context
  readonly #snapshots = new Map<bigint, NetworkSnapshot>()
  #nextSnapshotId = 1n
  #initial: NetworkSnapshot | undefined
  #timer: NodeJS.Timeout | undefined
  /** Subnet-EVM chains being started from the P-chain, by blockchain id. */
  readonly #chainStarts = new Map<string, Promise<L1 | undefined>>()
  /** The last {@link tick} pass, which the next one waits for. */
  #ticks: Promise<void> = Promise.resolve()
  #aggregator: SignatureAggregator | undefined
  #relayer: IcmRelayer | undefined
  /** Told of each subnet-EVM chain started from the P-chain. */
  readonly #chainListeners = new Set<(chain: EvmChain) => void>()
  /** Work that runs at the end of each {@link tick} (the relayer's delayed deliveries). */
  readonly #tickListeners = new Set<() => Promise<unknown>>()

  private constructor(init: {
    presetName: NetworkPresetName
    clock: Clock
    nodes: SimNode[]
    devAccounts: DevAccount[]
    cChain: EvmChain
    cWarp: WarpRules
    l1s: L1[]
    validators: ValidatorRegistry
    faults: FaultState
    uptime: NetworkUptime
    waits: WaitRecorder
    primary: PrimaryNetwork
    random: SeededRandom
    l1Context: CreateL1Context
    dataApi: DataApiOptions
    options: NetworkOptions
  }) {
    this.options = init.options
    this.presetName = init.presetName
    this.preset = NETWORK_PRESETS[init.presetName]
    this.clock = init.clock
    this.nodes = init.nodes
    this.devAccounts = init.devAccounts
    this.signers = new Map(init.devAccounts.map((a) => [a.address.toLowerCase() as Hex, hexToBytes(a.privateKey)]))
    this.cChain = init.cChain
    this.cWarp = init.cWarp
    this.l1s = init.l1s
    this.validators = init.validators
    this.faults = init.faults
    this.uptime = init.uptime
    this.waits = init.waits
    this.primary = init.primary
    this.#random = init.random
    this.#l1Context = init.l1Context
    this.dataApi = init.dataApi
  }

  static async create(options: NetworkOptions = {}): Promise<Network> {
    const presetName = options.preset ?? 'local'
    const preset = NETWORK_PRESETS[presetName]
    if (!preset) throw new InvalidArgumentError(`unknown network preset "${presetName}" (local, fuji or mainnet)`)
    const nodeCount = options.nodes ?? 5
    if (!Number.isInteger(nodeCount) || nodeCount < 1 || nodeCount > 100)
      throw new InvalidArgumentError(`nodes must be an integer from 1 to 100, got ${nodeCount}`)
    const random = createSeededRandom(options.seed ?? 'l1sim')
    const clock = createClock(options.clock)
    const { wallNow: _wallNow, ...clockSettings } = options.clock ?? {}
    const genesisVersion = options.genesisVersion ?? GENESIS_VERSION
    const created: NetworkOptions = { ...options, clock: { ...clockSettings, mode: clock.mode, start: clock.nowMs() / 1000 }, genesisVersion }
    const devAccounts = deriveDevAccounts({ mnemonic: options.mnemonic ?? DEFAULT_MNEMONIC, count: options.accounts ?? 20 })
    const identities = Array.from({ length: nodeCount }, (_, index) => createNodeIdentity(random.derive(`node/${index}`)))
    const nodeIds = identities.map((identity) => identity.nodeId)
    const waits = new WaitRecorder()
    const balance = options.balance ?? DEFAULT_DEV_BALANCE
    // The genesis validators start with the P-chain (as its genesis stakers do): the uptime
    // trackers count from the registry's start and the P-chain divides by the time since its
    // staker's start, so the two must be the same instant or the percentage leaves 0–100.
    const genesisTime = clock.now()
    const genesis = buildNetworkGenesis({ presetName, preset, genesisTime, nodes: identities, version: genesisVersion })
    // The C-chain's blocks take the atomic txs waiting in the primary network's mempool, once it exists.
    let sealAtomicTxs: NonNullable<ChainHooks['beforeSeal']> = async () => {}
    const validators = new ValidatorRegistry()
    const l1s: L1[] = []
    // Warp on any chain of the network: its sources' subnets and their validators, read when a message is verified.
    const warpEnv = (blockchainId: Uint8Array, subnetId: Uint8Array): WarpEnvironment => ({
      networkId: preset.networkId,
      blockchainId,
      subnetId,
      subnetOf: (chainId) => subnetOfChain(preset, l1s, chainId),
      validatorsOf: (subnetId) => validators.get(idToString(subnetId)),
      canonicalSetOf: (subnetId) => validators.canonical(idToString(subnetId)),
    })
    const cRules = createCChainRules({
      upgrades: preset.upgrades,
      warp: warpEnv(idFromString(preset.cChainId), new Uint8Array(32)),
      beforeSeal: (chain, block) => sealAtomicTxs(chain, block),
      warpAccountInGenesis: genesisVersion >= 3,
    })
    const cChain = await createEvmChain({
      alias: 'C',
      chainId: BigInt(preset.evmChainId),
      clock,
      feeRules: cRules.feeRules,
      upgrades: { shanghaiTime: preset.upgrades.durangoTime, cancunTime: preset.upgrades.etnaTime },
      // Dated as the local C-chain genesis (avalanchego genesis_local, 2020-12-05) or, on fuji and
      // mainnet, at their latest upgrade in force at the start: calls and estimates on a fresh
      // network's head run the rules of its time (a fuji genesis dated 2020 refused PUSH0 until a
      // block was mined), and the first block, months or years later, starts with full ACP-176
      // capacity. Its gas limit and base fee are ACP-176's (10M, 1 wei) rather than the real
      // genesis' 100M and 225 gwei: the pool checks gas against the head's limit and calls price
      // against the head's base fee, and a fresh chain would otherwise take transactions no block
      // can hold and refuse the fees eth_gasPrice suggests.
      genesis: {
        timestamp: BigInt(Math.max(Math.min(INITIALLY_ACTIVE_TIME, clock.now()), lastUpgradeTime(preset.upgrades, clock.now()) ?? 0)),
        gasLimit: 10_000_000n,
        baseFeePerGas: 1n,
        extraData: '0x00',
        // The genesis' own accounts (ewoq on local), then the dev accounts.
        alloc: withIcmIf(options.icm, Object.fromEntries([...Object.entries(genesis.cAlloc).map(([address, value]) => [address, { balance: value }]), ...devAccounts.map((a) => [a.address.toLowerCase(), { balance }])])),
      },
      mining: options.mining,
      hooks: cRules.hooks,
      onLockWait: waits.observer('chain C'),
      unprotectedTxs: unprotectedTxPolicy(options.cChainConfig, 'C-chain'),
    })
    validators.set(PRIMARY_NETWORK_ID, identities.map((n, i) => nodeValidatorEntry(n, genesis.weights[i]!, BigInt(genesisTime))))
    const l1Context: CreateL1Context = {
      preset,
      clock,
      random,
      nodes: identities,
      mining: options.mining,
      icm: options.icm,
      warp: ({ blockchainIdBytes, subnetIdBytes }) => warpEnv(blockchainIdBytes, subnetIdBytes),
    }
    for (const l1Options of options.l1s ?? []) {
      if (l1s.some((l) => l.name === l1Options.name) || l1Options.name === 'C' || l1Options.name === 'X' || l1Options.name === 'P')
        throw new InvalidArgumentError(`L1 name ${JSON.stringify(l1Options.name)} is already taken`)
      const { l1, validators: set } = await createL1(l1Options, { ...l1Context, onLockWait: waits.observer(`chain ${l1Options.name}`) })
      validators.set(l1.subnetId, set)
      l1s.push(l1)
    }
    // The P-chain's sets: its primary-network validators join the simulated nodes (genesis
    // validators); its subnets and L1s are its own.
    const genesisPrimary = validators.get(PRIMARY_NETWORK_ID)
    const pchainSets: ValidatorSetListener = {
      set: (subnetId, entries, at) =>
        validators.set(subnetId, subnetId === PRIMARY_NETWORK_ID ? [...genesisPrimary, ...entries.filter((e) => !genesisPrimary.some((g) => g.nodeId === e.nodeId))] : entries, at),
    }
    let uptimeOf: UptimeFn = () => 1
    const primary = new PrimaryNetwork({
      presetName,
      preset,
      clock,
      genesisTime,
      cChain,
      devAccounts,
      validators: pchainSets,
      uptime: (nodeId, subnetId, start, end) => uptimeOf(nodeId, subnetId, start, end),
      genesisTxId: random.derive('pchain/genesis-utxos'),
      genesis,
      // Manual or interval mining leaves P-chain txs Processing until the next tick, as EVM txs wait for a block.
      pchainBuild: !options.mining || options.mining.mode === 'auto' ? 'auto' : 'manual',
    })
    sealAtomicTxs = (_chain, block) => primary.sealAtomicTxs(block)
    const now = () => clock.now()
    const faults = new FaultState({ nodeCount, now })
    if (options.node?.bootstrapDelay !== undefined) faults.delayBootstrap(options.node.bootstrapDelay)
    const uptime = new NetworkUptime(nodeIds)
    for (let a = 0; a < nodeCount; a++) for (let b = a; b < nodeCount; b++) uptime.setLinked(a, b, true, now())
    const env: NodeEnvironment = {
      preset,
      faults,
      validators,
      uptime,
      now,
      startedAt: now(),
      nodeIds,
      chains: [
        { chain: cChain, subnetId: PRIMARY_NETWORK_ID, blockchainId: preset.cChainId },
        ...l1s.map((l) => ({ chain: l.chain, subnetId: l.subnetId, l1Name: l.name, blockchainId: l.blockchainId })),
      ],
      waits,
      otherChains: [primary.pHealthSubject, primary.xHealthSubject],
    }
    const nodes = identities.map((identity, index) => new SimNode({ index, identity, options: options.node ?? {}, env }))
    const network = new Network({ presetName, clock, nodes, devAccounts, cChain, cWarp: cRules.warp, l1s, validators, faults, uptime, waits, primary, random, l1Context, dataApi: options.dataApi ?? {}, options: created })
    // Rewards need 80% uptime as node 0 measured it; a validator that is not a simulated node has
    // no node to measure and counts as always up.
    uptimeOf = (nodeId, subnetId, start, end) =>
      nodeIds.includes(nodeId) ? (uptime.tracker(0, subnetId).uptimeFraction(nodeId, Math.min(end, clock.now()), start) ?? 1) : 1
    network.#wire()
    network.#relayer = createRelayer(network, options.relayer)
    for (const node of nodes) await node.start(clock, options.node?.healthCheckFrequency ?? 30)
    network.#initial = await network.#capture()
    if (clock.mode === 'realtime') network.#startTimer()
    return network
  }

  /** The seeded randomness behind every derived id and key (a file snapshot keeps its stream positions). */
  get random(): SeededRandom {
    return this.#random
  }

  /**
   * Writes the whole network to a snapshot file, atomically (see `saveNetwork` in src/snapshot).
   * The file format lives in `snapshot/`, a layer above this one, which imports the network: a
   * dynamic import keeps that one-way at load time and spares every network the format code.
   */
  async save(path: string): Promise<{ path: string; bytes: number; sha256: string }> {
    const { saveNetwork } = await import('../snapshot/index.js')
    return saveNetwork(this, path)
  }

  /** Switches the clock between manual and realtime, starting or stopping the timer that follows the wall clock. */
  setClockMode(mode: ClockMode): void {
    this.clock.setMode(mode)
    if (mode === 'realtime' && !this.#timer) this.#startTimer()
    if (mode === 'manual' && this.#timer) {
      clearInterval(this.#timer)
      this.#timer = undefined
    }
  }

  get chains(): EvmChain[] {
    return [this.cChain, ...this.l1s.map((l) => l.chain)]
  }

  /** Names the functions of a JSON ABI in the data API's `Method.methodName`; returns their signatures. */
  registerAbi(abi: readonly AbiEntry[]): string[] {
    return this.methods.registerAbi(abi)
  }

  /** {@link registerAbi} for a Hardhat or Foundry artifact (`{contractName?, abi, bytecode?}`). */
  registerArtifact(artifact: ContractArtifact): string[] {
    return this.methods.registerArtifact(artifact)
  }

  /** Finds an EVM chain by alias (`C`, an L1's name) or blockchain id. */
  chain(id: string): EvmChain | undefined {
    if (id === 'C' || id === 'evm' || id === this.preset.cChainId) return this.cChain
    return this.l1(id)?.chain
  }

  /** Whether a blockchain id is the P-, X- or C-chain's. */
  chainIsPrimary(id: string): boolean {
    return id === this.preset.pChainId || id === this.preset.xChainId || id === this.preset.cChainId
  }

  /** An unsigned warp message the C-chain or an L1 sent, by message id (see {@link findWarpMessage}). */
  warpMessage(id: Hex | Uint8Array): Uint8Array | undefined {
    return findWarpMessage(this, id)
  }

  /** The signed form of an unsigned warp message, signed by its source subnet's validators. */
  signWarpMessage(unsigned: Uint8Array, options?: SignWarpOptions): Uint8Array {
    return signWarpMessage(this, unsigned, options)
  }

  /**
   * The signature aggregator (icm-services' `signature-aggregator`): a quorum of the signing
   * subnet's validators sign what the network produced; see {@link createSignatureAggregator}.
   */
  get signatureAggregator(): SignatureAggregator {
    return (this.#aggregator ??= createSignatureAggregator(this))
  }

  /** Aggregates signatures for a warp message the network produced; throws an `AggregationError` as the real aggregator refuses. */
  aggregateSignatures(request: AggregateSignaturesRequest): Uint8Array {
    return this.signatureAggregator.aggregate(request)
  }

  /**
   * Aggregates signatures for the warp message a transaction gave rise to (a P-chain tx's ACP-77
   * message, an EVM tx's `sendWarpMessage`; see `txWarpMessages.ts`), through the same aggregator;
   * throws a `TxWarpMessageError` for a tx it does not have or that made none.
   */
  aggregateSignaturesOfTx(txHash: string): Uint8Array {
    return this.signatureAggregator.aggregate(warpRequestOfTx(this, txHash))
  }

  /** The unsigned warp message of a C-chain or L1 block's hash (for `getVerifiedWarpBlockHash`); sign it with {@link signWarpMessage}. */
  warpBlockHashMessage(chain: string, blockHash: Hex | Uint8Array): Uint8Array {
    return warpBlockHashMessage(this, chain, blockHash)
  }

  /** The built-in ICM relayer (icm-relayer for every chain of the network): see {@link createRelayer}. */
  get relayer(): IcmRelayer {
    return this.#relayer!
  }

  /** Calls `listener` with each EVM chain started from the P-chain from now on; returns the unsubscribe. */
  onChainAdded(listener: (chain: EvmChain) => void): () => void {
    this.#chainListeners.add(listener)
    return () => this.#chainListeners.delete(listener)
  }

  /** Runs `task` at the end of each {@link tick} (after time-driven blocks); returns the unsubscribe. */
  onTick(task: () => Promise<unknown>): () => void {
    this.#tickListeners.add(task)
    return () => this.#tickListeners.delete(task)
  }

  /** Finds an L1 by name or blockchain id. */
  l1(id: string): L1 | undefined {
    return this.l1s.find((l) => l.name === id || l.blockchainId === id)
  }

  /**
   * Keeps the nodes' views current: uptime tracking follows validator sets and connections (a
   * disconnected node stops gaining uptime in every other node's view), and each node's chain
   * logger records accepted blocks.
   */
  #wire(): void {
    // A subnet-EVM chain starts when its CreateChainTx is accepted, however the tx was issued.
    const pchain = this.primary.pchain
    pchain.events.on('block', (block) => {
      for (const txId of block.txs) if (pchain.state.getTx(txId)?.type === 'CreateChainTx') void this.startChainFromP(txId).catch(() => undefined)
    })
    for (const subnetId of this.validators.subnetIds()) this.uptime.syncSubnet(subnetId, this.validators.current(subnetId), this.clock.now())
    this.validators.events.on('change', ({ subnetId, validators, at }) => this.uptime.syncSubnet(subnetId, validators, at ?? this.clock.now()))
    this.faults.events.on('change', () => {
      const now = this.clock.now()
      for (let a = 0; a < this.nodes.length; a++)
        for (let b = a + 1; b < this.nodes.length; b++) this.uptime.setLinked(a, b, this.faults.linked(a, b), now)
    })
    for (const chain of this.chains) {
      const name = chain.alias
      chain.events.on('block', (block) => {
        for (const node of this.nodes) {
          const logger = node.loggers.get(name)
          if (logger.isEnabled('DEBUG')) logger.debug('accepted block', { height: Number(block.number), hash: block.hash, txs: block.txs.length })
        }
      })
    }
  }

  /** The P- and X-chain wallets of a dev account (its secp256k1 key), or undefined for an unknown index. */
  wallets(account: number) {
    const dev = this.devAccounts[account]
    if (!dev) return undefined
    const key = hexToBytes(dev.privateKey)
    const keychain = new Keychain([key])
    return {
      p: new PWallet(this.primary.pchain, keychain, { sharedMemory: this.primary.sharedMemory, warpKey: (nodeId) => this.nodes.find((n) => n.nodeId === nodeId)?.identity }),
      x: new XWallet(this.primary.xchain, keychain),
      keychain,
      key,
      /** The 20-byte address of the account on P and X. */
      address: addressFromPrivateKey(key),
    }
  }

  /** A new validator identity (NodeID, BLS key and proof of possession) from the network seed. */
  newValidatorIdentity(): NodeIdentity {
    return createNodeIdentity(this.#random.next('extra-validator'))
  }

  /**
   * Moves a dev account's AVAX (nAVAX) between P, X and C: an export on `from`, then the import on
   * `to` of everything the account has waiting there. C-side amounts are in nAVAX too (1 nAVAX =
   * 1 gwei of the C-chain balance).
   */
  async transfer(args: { from: string; to: string; amount: bigint; account: number }): Promise<{ exportTxId: string; importTxId: string }> {
    const w = this.wallets(args.account)
    if (!w) throw new InvalidArgumentError(`account ${args.account} does not exist`)
    const ids = { P: this.preset.pChainId, X: this.preset.xChainId, C: this.preset.cChainId } as Record<string, string>
    const from = args.from.toUpperCase()
    const to = args.to.toUpperCase()
    if (!ids[from] || !ids[to] || from === to) throw new InvalidArgumentError(`transfer goes between two of P, X and C, got ${args.from} → ${args.to}`)
    const { xchain } = this.primary
    let exportTxId: string
    if (from === 'P') exportTxId = w.p.exportTo(ids[to]!, { to: w.address, amount: args.amount }).txId
    else if (from === 'X') exportTxId = xchain.issueTx(w.x.export({ destinationChain: ids[to]!, to: w.address, amount: args.amount })).txId
    else exportTxId = (await this.primary.exportFromC({ destinationChain: ids[to]!, to: w.address, amount: args.amount, privateKey: w.key })).txId
    let importTxId: string
    if (to === 'P') importTxId = w.p.importFrom(ids[from]!, { to: w.address }).txId
    else if (to === 'X') importTxId = xchain.issueTx(w.x.import({ sourceChain: ids[from]! })).txId
    else importTxId = (await this.primary.importToC({ sourceChain: ids[from]!, to: hexToBytes(this.devAccounts[args.account]!.address), keychain: w.keychain })).txId
    return { exportTxId, importTxId }
  }

  /**
   * Starts the EVM chain of a CreateChainTx the P-chain accepted, when its VM is subnet-EVM: the
   * genesis from the tx, the P-chain's subnet and chain ids, served by every node at
   * `/ext/bc/<blockchain id>/rpc` (and by its name when free). Other VMs are recorded on the P-chain only.
   */
  startChainFromP(blockchainId: string): Promise<L1 | undefined> {
    // One start per chain: the acceptance listener and the caller that issued the tx may both ask.
    let starting = this.#chainStarts.get(blockchainId)
    if (!starting) {
      starting = this.#startChainFromP(blockchainId).finally(() => this.#chainStarts.delete(blockchainId))
      this.#chainStarts.set(blockchainId, starting)
    }
    return starting
  }

  /** Waits for the chains accepted CreateChainTxs are starting (a failed start is the starter's to report). */
  async chainStartsSettled(): Promise<void> {
    await Promise.allSettled([...this.#chainStarts.values()])
  }

  /**
   * Issues a signed P-chain tx as `platform.issueTx` does: through the P-chain's mempool (verified,
   * then built at once unless the build mode waits for the next tick); a subnet-EVM chain the tx
   * creates is running when this returns. Throws `PChainIssueError` with the node's text.
   */
  async issuePChainTx(signed: PChainSignedTx): Promise<string> {
    const txId = this.primary.pchain.mempool.issue(signed)
    await this.chainStartsSettled()
    return txId
  }

  async #startChainFromP(blockchainId: string): Promise<L1 | undefined> {
    const record = this.primary.pchain.state.getBlockchain(blockchainId)
    if (!record || record.vmId !== SUBNET_EVM_ID || this.l1(blockchainId)) return this.l1(blockchainId)
    const nameFree = /^[A-Za-z0-9_-]{1,64}$/.test(record.name) && !this.chain(record.name) && !['P', 'X', 'C'].includes(record.name)
    const name = nameFree ? record.name : blockchainId
    const { l1 } = await createL1(
      // The P-chain keeps the genesis bytes as hex; subnet-EVM's genesis is JSON text.
      { name, genesis: Buffer.from(record.genesisData.replace(/^0x/, ''), 'hex').toString('utf8'), ids: { subnetId: record.subnetId, blockchainId } },
      { ...this.#l1Context, onLockWait: this.waits.observer(`chain ${name}`) },
    )
    this.l1s.push(l1)
    for (const node of this.nodes) node.addChain(l1.chain, l1.subnetId, l1.blockchainId)
    for (const listener of this.#chainListeners) listener(l1.chain)
    return l1
  }

  /** A node by index or NodeID. */
  node(id: number | string): SimNode | undefined {
    return typeof id === 'number' ? this.nodes[id] : this.nodes.find((n) => n.nodeId === id)
  }

  /**
   * Disconnects primary-network (or a subnet's) validators, heaviest first, until at least
   * `fraction` of the stake is cut off; returns the nodes disconnected.
   */
  disconnectStake(fraction: number, subnetId: string = PRIMARY_NETWORK_ID): SimNode[] {
    const chosen = this.#heaviestStake(fraction, subnetId)
    for (const node of chosen) this.faults.disconnectNode(node.index)
    return chosen
  }

  /**
   * Has a subnet's (or the primary network's) validators, heaviest first, withhold their warp
   * signatures until at least `fraction` of the stake signs nothing; they stay connected, so the
   * aggregator counts their stake as reachable and fails on the signatures it collects (or passes
   * with a lower `quorum-percentage`). Returns the nodes that withhold.
   */
  withholdWarpStake(fraction: number, subnetId: string = PRIMARY_NETWORK_ID): SimNode[] {
    const chosen = this.#heaviestStake(fraction, subnetId)
    for (const node of chosen) this.faults.withholdWarpSignatures(node.index)
    return chosen
  }

  /** The subnet's simulated validators, heaviest first, until at least `fraction` of its stake is among them. */
  #heaviestStake(fraction: number, subnetId: string): SimNode[] {
    if (!(fraction > 0 && fraction <= 1)) throw new InvalidArgumentError(`fraction must be above 0 and at most 1, got ${fraction}`)
    const validators = [...this.validators.get(subnetId)].sort((a, b) => (a.weight === b.weight ? 0 : a.weight > b.weight ? -1 : 1))
    const total = validators.reduce((sum, v) => sum + v.weight, 0n)
    let cut = 0n
    const chosen: SimNode[] = []
    for (const v of validators) {
      if (Number(cut) / Number(total) >= fraction) break
      const node = this.node(v.nodeId)
      if (!node) continue
      chosen.push(node)
      cut += v.weight
    }
    return chosen
  }

  async #capture(): Promise<NetworkSnapshot> {
    const chains = new Map<string, ChainSnapshot>()
    for (const chain of this.chains) chains.set(chain.alias, await chain.snapshot())
    return { clock: this.clock.snapshot(), chains, validators: this.validators.snapshot(), uptime: this.uptime.snapshot(), primary: this.primary.snapshot() }
  }

  async #restore(snapshot: NetworkSnapshot): Promise<void> {
    this.clock.restore(snapshot.clock)
    this.validators.restore(snapshot.validators)
    this.uptime.restore(snapshot.uptime)
    this.primary.restore(snapshot.primary, true)
    for (const chain of this.chains) await chain.revert(snapshot.chains.get(chain.alias)!)
  }

  /** Captures every chain and the clock; returns the snapshot id (1, 2, … as anvil counts). */
  async snapshot(): Promise<bigint> {
    const id = this.#nextSnapshotId++
    this.#snapshots.set(id, await this.#capture())
    return id
  }

  /**
   * Returns to snapshot `id`. As in Hardhat and anvil, the snapshot is used up, and so is every
   * snapshot taken after it. Returns false for an unknown id and changes nothing.
   */
  async revert(id: bigint): Promise<boolean> {
    const snapshot = this.#snapshots.get(id)
    if (!snapshot) return false
    for (const key of [...this.#snapshots.keys()]) if (key >= id) this.#snapshots.delete(key)
    await this.#restore(snapshot)
    return true
  }

  /** Back to the state right after the network was created (or its scenario loaded). */
  /**
   * Makes the current state the one {@link reset} returns to (a scenario marks the state it leaves
   * the network in). In-memory snapshots taken before stay valid.
   */
  async markInitial(): Promise<void> {
    this.#initial = await this.#capture()
  }

  async reset(): Promise<void> {
    this.#snapshots.clear()
    this.faults.clear()
    await this.#restore(this.#initial!)
  }

  /**
   * Moves network time forward and lets time-driven work catch up: interval mining builds the
   * blocks that fell due, at their due timestamps (at most 1,000 per chain: see
   * `intervalMining.ts`), the P-chain moves its stakers, and health checks run. Refused past `MAX_TIME`
   * (year 9999).
   */
  async advanceTime(seconds: number): Promise<void> {
    this.clock.advance(seconds)
    await this.tick()
  }

  /**
   * Runs time-driven work that is due now (called by advanceTime and the realtime timer). One
   * pass at a time: a catch-up of interval blocks yields to the event loop, and a second pass
   * started meanwhile would find the same blocks due.
   */
  tick(): Promise<void> {
    const pass = this.#ticks.then(() => this.#tick())
    this.#ticks = pass.catch(() => undefined)
    return pass
  }

  async #tick(): Promise<void> {
    const now = BigInt(this.clock.now())
    for (const chain of this.chains) await mineDueIntervalBlocks(chain, now)
    this.primary.advanceTo(this.clock.now())
    await this.chainStartsSettled()
    for (const node of this.nodes) await node.health.tick()
    for (const task of this.#tickListeners) await task()
  }

  #startTimer(): void {
    // A pass still running when the timer fires again is not queued behind: the next one catches up.
    let running = false
    this.#timer = setInterval(() => {
      if (running) return
      running = true
      void this.tick()
        .catch(() => undefined)
        .finally(() => (running = false))
    }, 250)
    this.#timer.unref()
  }

  /** Stops timers; the network can be dropped afterwards. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
    for (const chain of this.chains) chain.events.removeAllListeners()
    for (const node of this.nodes) node.close()
  }
}

/** The subnet a blockchain belongs to: an L1's subnet, or the primary network for P, X and C. */
function subnetOfChain(preset: NetworkPreset, l1s: readonly L1[], chainId: Uint8Array): Uint8Array | undefined {
  const id = idToString(chainId)
  if (id === preset.pChainId || id === preset.xChainId || id === preset.cChainId) return new Uint8Array(32)
  return l1s.find((l) => l.blockchainId === id)?.subnetIdBytes
}

export async function createNetwork(options: NetworkOptions = {}): Promise<Network> {
  return Network.create(options)
}
