import { hexToBytes } from '@ethereumjs/util'
import { createClock, type Clock, type ClockOptions } from '../core/clock.js'
import { InvalidArgumentError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { DEFAULT_MNEMONIC, createNodeIdentity, deriveDevAccounts, type DevAccount, type NodeIdentity } from '../core/keys.js'
import { createSeededRandom } from '../core/random.js'
import { createEvmChain, type ChainSnapshot, type EvmChain, type MiningMode } from '../evm/chain.js'
import { createAcp176FeeRules } from '../evm/acp176.js'
import { INITIALLY_ACTIVE_TIME, NETWORK_PRESETS, type NetworkPreset, type NetworkPresetName } from './presets.js'

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
}

export const DEFAULT_DEV_BALANCE = 10_000n * 10n ** 18n

/** A simulated node: identity only for now; admin state and health belong to it as they arrive. */
export type SimNode = {
  index: number
  identity: NodeIdentity
  nodeId: string
}

type NetworkSnapshot = {
  clock: ReturnType<Clock['snapshot']>
  chains: Map<string, ChainSnapshot>
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
  readonly #snapshots = new Map<bigint, NetworkSnapshot>()
  #nextSnapshotId = 1n
  #initial: NetworkSnapshot | undefined
  #timer: NodeJS.Timeout | undefined

  private constructor(init: {
    presetName: NetworkPresetName
    clock: Clock
    nodes: SimNode[]
    devAccounts: DevAccount[]
    cChain: EvmChain
  }) {
    this.presetName = init.presetName
    this.preset = NETWORK_PRESETS[init.presetName]
    this.clock = init.clock
    this.nodes = init.nodes
    this.devAccounts = init.devAccounts
    this.signers = new Map(init.devAccounts.map((a) => [a.address.toLowerCase() as Hex, hexToBytes(a.privateKey)]))
    this.cChain = init.cChain
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
    const devAccounts = deriveDevAccounts({ mnemonic: options.mnemonic ?? DEFAULT_MNEMONIC, count: options.accounts ?? 20 })
    const nodes = Array.from({ length: nodeCount }, (_, index) => {
      const identity = createNodeIdentity(random.derive(`node/${index}`))
      return { index, identity, nodeId: identity.nodeId }
    })
    const balance = options.balance ?? DEFAULT_DEV_BALANCE
    const cChain = await createEvmChain({
      alias: 'C',
      chainId: BigInt(preset.evmChainId),
      clock,
      feeRules: createAcp176FeeRules(),
      upgrades: { shanghaiTime: preset.upgrades.durangoTime, cancunTime: preset.upgrades.etnaTime },
      // Dated as the local C-chain genesis (avalanchego genesis_local, 2020-12-05), so the first
      // block, years later, starts with full ACP-176 capacity. Its gas limit and base fee are
      // ACP-176's (10M, 1 wei) rather than the real genesis' 100M and 225 gwei: the pool checks gas
      // against the head's limit and calls price against the head's base fee, and a fresh chain
      // would otherwise take transactions no block can hold and refuse the fees eth_gasPrice suggests.
      genesis: {
        timestamp: BigInt(Math.min(INITIALLY_ACTIVE_TIME, clock.now())),
        gasLimit: 10_000_000n,
        baseFeePerGas: 1n,
        extraData: '0x00',
        alloc: Object.fromEntries(devAccounts.map((a) => [a.address.toLowerCase(), { balance }])),
      },
      mining: options.mining,
    })
    const network = new Network({ presetName, clock, nodes, devAccounts, cChain })
    network.#initial = await network.#capture()
    if (clock.mode === 'realtime') network.#startTimer()
    return network
  }

  get chains(): EvmChain[] {
    return [this.cChain]
  }

  /** Finds an EVM chain by alias (`C`), blockchain id or EVM chain id. */
  chain(id: string): EvmChain | undefined {
    if (id === 'C' || id === 'evm' || id === this.preset.cChainId) return this.cChain
    return undefined
  }

  async #capture(): Promise<NetworkSnapshot> {
    const chains = new Map<string, ChainSnapshot>()
    for (const chain of this.chains) chains.set(chain.alias, await chain.snapshot())
    return { clock: this.clock.snapshot(), chains }
  }

  async #restore(snapshot: NetworkSnapshot): Promise<void> {
    this.clock.restore(snapshot.clock)
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
  async reset(): Promise<void> {
    this.#snapshots.clear()
    await this.#restore(this.#initial!)
  }

  /**
   * Moves network time forward and lets time-driven work catch up: interval mining builds the
   * blocks that fell due, at their due timestamps.
   */
  async advanceTime(seconds: number): Promise<void> {
    this.clock.advance(seconds)
    await this.tick()
  }

  /** Runs time-driven work that is due now (called by advanceTime and the realtime timer). */
  async tick(): Promise<void> {
    const now = BigInt(this.clock.now())
    for (const chain of this.chains) {
      while (chain.mining.mode === 'interval' && chain.nextIntervalAt !== undefined && chain.nextIntervalAt <= now) {
        const at = chain.nextIntervalAt
        chain.nextIntervalAt = at + BigInt(chain.mining.interval)
        const parentTime = chain.head.block.header.timestamp
        await chain.miner.mine({ timestamp: at > parentTime ? at : parentTime + 1n })
      }
    }
  }

  #startTimer(): void {
    this.#timer = setInterval(() => void this.tick().catch(() => undefined), 250)
    this.#timer.unref()
  }

  /** Stops timers; the network can be dropped afterwards. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
    for (const chain of this.chains) chain.events.removeAllListeners()
  }
}

export async function createNetwork(options: NetworkOptions = {}): Promise<Network> {
  return Network.create(options)
}
