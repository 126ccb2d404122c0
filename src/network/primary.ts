import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Clock } from '../core/clock.js'
import type { Hex } from '../core/hex.js'
import { idFromString } from '../core/ids.js'
import type { DevAccount } from '../core/keys.js'
import type { EvmChain } from '../evm/chain.js'
import type { StoredBlock } from '../evm/types.js'
import { SharedMemory, type SharedMemorySnapshot } from '../platform/atomic.js'
import { decodeCSignedTx, type CAtomicSignedTx } from '../platform/xchain/cAtomicCodec.js'
import { addressesOf, CChainAtomic, type CAtomicSnapshot } from '../platform/xchain/cchainAtomic.js'
import { pubKeyToEthAddress } from '../platform/xchain/bytes.js'
import { addressFromPublicKey, publicKeyOf } from '../platform/secp256k1fx.js'
import { PChain, type UptimeFn, type ValidatorSetListener } from '../platform/pchain/chain.js'
import { pchainConfig } from '../platform/pchain/config.js'
import { authenticate } from '../platform/pchain/auth.js'
import { PChainAtomicMemory } from '../platform/pchain/atomicAdapter.js'
import type { BuildMode, PChainMempoolSnapshot } from '../platform/pchain/mempool.js'
import { XChain } from '../platform/xchain/chain.js'
import type { XStateSnapshot } from '../platform/xchain/state.js'
import { devAccountAllocations, type Keychain } from '../platform/xchain/wallet.js'
import { CAtomicBackend } from './cAtomicBackend.js'
import type { NetworkGenesis } from './genesis.js'
import type { NetworkPreset, NetworkPresetName } from './presets.js'

/** Each dev account's AVAX on the X-chain at genesis, in nAVAX (10,000 AVAX, as on the C-chain). */
export const DEV_X_BALANCE = 10_000n * 1_000_000_000n

/** Each dev account's AVAX on the P-chain at genesis, in nAVAX. */
export const DEV_P_BALANCE = 10_000n * 1_000_000_000n

/** `pMempool`: absent in snapshot files written before the P-chain had a mempool (restored empty). */
export type PrimarySnapshot = { x: XStateSnapshot; shared: SharedMemorySnapshot; cAtomic: CAtomicSnapshot; p: ReturnType<PChain['snapshot']>; pMempool?: PChainMempoolSnapshot }

export type PrimaryNetworkOptions = {
  presetName: NetworkPresetName
  preset: NetworkPreset
  clock: Clock
  /**
   * Unix seconds of the P-chain's genesis: its genesis validators start then, and the network's
   * registry dates their entries the same, so the uptime trackers measure from the staker's start.
   */
  genesisTime: number
  cChain: EvmChain
  devAccounts: readonly DevAccount[]
  /** The validator sets the P-chain decides (primary additions, P-chain subnets and L1s) go here. */
  validators: ValidatorSetListener
  /** Uptime of a validator on a subnet as the network measures it (rewards need 80%). */
  uptime: UptimeFn
  /** 32 bytes naming the dev accounts' P-chain UTXOs' pseudo transaction. */
  genesisTxId: Uint8Array
  /** The genesis of the preset (see `buildNetworkGenesis`), with the simulated nodes as initial stakers. */
  genesis: NetworkGenesis
  /**
   * When the P-chain builds: `auto` (default) a block as soon as a tx is accepted into its mempool;
   * `manual` at the network's next tick (`advanceTo`), so a tx issued over the API is `Processing`
   * meanwhile. The network follows its mining mode: `auto` mining builds at once.
   */
  pchainBuild?: BuildMode
}

/**
 * The primary network's non-EVM side: the X-chain, the shared memory atomic transfers go through,
 * and the C-chain's atomic import/export (whose EVM effects land in C-chain blocks).
 */
export class PrimaryNetwork {
  readonly sharedMemory: SharedMemory
  readonly xchain: XChain
  readonly cAtomic: CChainAtomic
  readonly pchain: PChain
  readonly #backend: CAtomicBackend
  readonly #cChain: EvmChain
  /** The number of the C-chain block being built with an atomic batch, until it is stored. */
  #batchAt: bigint | undefined

  constructor(options: PrimaryNetworkOptions) {
    const { presetName, preset, clock, cChain, genesisTime } = options
    this.sharedMemory = new SharedMemory()
    this.pchain = new PChain({
      config: pchainConfig(presetName, { avaxAssetId: preset.avaxAssetId }),
      chainId: preset.pChainId,
      genesisTimestamp: genesisTime,
      initialSupply: options.genesis.platform.initialSupply,
      genesis: {
        ...options.genesis.pchain,
        // The dev accounts' funds are the emulator's, beside the genesis' own UTXOs (which all have the empty tx id).
        utxos: [
          ...(options.genesis.pchain.utxos ?? []),
          ...options.devAccounts.map((account, index) => ({
            txId: options.genesisTxId,
            outputIndex: index,
            assetId: idFromString(preset.avaxAssetId),
            output: { type: 'TransferOutput' as const, amount: DEV_P_BALANCE, owners: { locktime: 0n, threshold: 1, addrs: [addressFromPublicKey(hexToBytes(account.publicKey))] } },
          })),
        ],
      },
      authenticate,
      atomic: new PChainAtomicMemory({ sharedMemory: this.sharedMemory, preset: presetName }),
      uptime: options.uptime,
      listener: options.validators,
    })
    this.pchain.mempool.configure({ now: () => clock.now(), mode: options.pchainBuild ?? 'auto' })
    this.xchain = new XChain({
      preset: presetName,
      clock,
      sharedMemory: this.sharedMemory,
      genesis: options.genesis.xAllocations,
      extraGenesis: devAccountAllocations(options.devAccounts, DEV_X_BALANCE),
    })
    this.#cChain = cChain
    this.#backend = new CAtomicBackend(cChain)
    this.cAtomic = new CChainAtomic({ preset: presetName, sharedMemory: this.sharedMemory, evm: this.#backend, clock })
    cChain.events.on('block', (stored) => this.#onCBlock(stored))
  }

  /**
   * The one way an atomic tx enters the C-chain (`avax.issueTx`, `/ext/sim`): verified at the
   * tip into the atomic mempool (under the C-chain's lock, its accounts read from the live state),
   * then built into the next C-chain block, which automine builds at once (the call returns after
   * it); with manual or interval mining the tx waits (`Processing`) for the next block, unless
   * `seal` asks for one now (`/ext/sim`'s transfers, which complete on both chains). Throws
   * {@link XChainTxError} with coreth's message, changing nothing, when refused.
   */
  async issueCAtomicTx(input: CAtomicSignedTx | Uint8Array, options: { seal?: boolean } = {}): Promise<{ txId: string }> {
    const tx = input instanceof Uint8Array ? decodeCSignedTx(input) : input
    const chain = this.#cChain
    const { txId, block } = await chain.lock.run(async () => {
      const txId = await this.#backend.withAccounts(addressesOf(tx), chain.nextBaseFee(), () => this.cAtomic.addToMempool(input))
      const now = chain.mining.mode === 'auto' || options.seal === true
      return { txId, block: now ? chain.miner.scheduleBlock() : undefined }
    })
    if (block) await block
    return { txId }
  }

  /**
   * The C-chain's `beforeSeal` hook: the block being built (after its EVM transactions) takes the
   * waiting atomic txs, dearest first, verified at its base fee, their EVM effects written to its
   * state. They are accepted when the block is stored (see {@link #onCBlock}).
   */
  async sealAtomicTxs(block: { number: bigint; baseFee: bigint }): Promise<void> {
    // A batch still current belongs to a block that was never stored: its txs wait again.
    if (this.#batchAt !== undefined) this.cAtomic.cancelBatch()
    this.#batchAt = undefined
    if (!this.cAtomic.hasPending) return
    const batch = await this.#backend.withAccounts(this.cAtomic.pendingAddresses(), block.baseFee, () => this.cAtomic.buildBatch(block.baseFee))
    if (batch.length > 0) this.#batchAt = block.number
  }

  /** A C-chain block was stored: the atomic batch sealed in it is accepted (shared memory, statuses). */
  #onCBlock(stored: StoredBlock): void {
    if (this.#batchAt !== stored.number) return
    this.#batchAt = undefined
    this.cAtomic.acceptBatch({ height: Number(stored.number), hash: stored.hash, timestamp: Number(stored.block.header.timestamp) })
  }

  /** Imports every AVAX UTXO `keychain` owns in shared memory from `sourceChain` into the C-chain account `to`, in a block built now. */
  async importToC(args: { sourceChain: string; to: Uint8Array; keychain: Keychain }): Promise<{ txId: string }> {
    return this.issueCAtomicTx(this.cAtomic.buildImportTx({ ...args, baseFee: this.#cChain.nextBaseFee() }), { seal: true })
  }

  /** Exports `amount` nAVAX from the C-chain account of `privateKey` to `to` on `destinationChain` (P or X), in a block built now. */
  async exportFromC(args: { destinationChain: string; to: Uint8Array; amount: bigint; privateKey: Uint8Array }): Promise<{ txId: string }> {
    const chain = this.#cChain
    const from = pubKeyToEthAddress(publicKeyOf(args.privateKey))
    const tx = await chain.lock.run(() => {
      const baseFee = chain.nextBaseFee()
      return this.#backend.withAccounts([from], baseFee, () => this.cAtomic.buildExportTx({ ...args, baseFee }))
    })
    return this.issueCAtomicTx(tx, { seal: true })
  }

  /** The X-chain as a health-check subject: its last accepted block. */
  get xHealthSubject(): { alias: string; head: { number: bigint; hash: Hex } } {
    const xchain = this.xchain
    const hashOf = lastIdHex()
    return {
      alias: 'X',
      get head() {
        const block = xchain.lastBlock()
        return { number: BigInt(block.height), hash: hashOf(block.id) }
      },
    }
  }

  /** The P-chain as a health-check subject: its last accepted block. */
  get pHealthSubject(): { alias: string; head: { number: bigint; hash: Hex } } {
    const pchain = this.pchain
    const hashOf = lastIdHex()
    return {
      alias: 'P',
      get head() {
        return { number: BigInt(pchain.height), hash: hashOf(pchain.state.lastBlockId) }
      },
    }
  }

  /**
   * Moves the P-chain to network time: stakers start and end (rewards), L1 validators pay fees.
   * It stops at each block on the way, so each new validator set is announced at the time it took
   * effect (a node's uptime tracker sees an L1 validator go inactive when its balance ran out).
   * Txs waiting in the mempool (manual build mode) are then built into a block.
   */
  advanceTo(now: number): void {
    this.pchain.catchUp(now)
    // In the manual build mode the waiting txs get their block at the network's tick.
    this.pchain.mempool.build()
  }

  snapshot(): PrimarySnapshot {
    return { x: this.xchain.snapshot(), shared: this.sharedMemory.snapshot(), cAtomic: this.cAtomic.snapshot(), p: this.pchain.snapshot(), pMempool: this.pchain.mempool.snapshot() }
  }

  /**
   * Back to a snapshot. `listenerRestored`: the validator registry the P-chain pushes its sets to
   * was restored to the moment of this same snapshot (the network's in-memory revert), so only sets
   * that differ from what had been pushed then are pushed again (see `PChain.restore`).
   */
  restore(snapshot: PrimarySnapshot, listenerRestored = false): void {
    this.pchain.restore(snapshot.p, listenerRestored)
    this.pchain.mempool.restore(snapshot.pMempool)
    this.xchain.restore(snapshot.x)
    this.sharedMemory.restore(snapshot.shared)
    this.cAtomic.restore(snapshot.cAtomic)
    this.#batchAt = undefined
  }
}

/** A chain id (cb58) as the 0x hex of its bytes, decoded again only when the id changes (a health run reads it on every node). */
function lastIdHex(): (id: string) => Hex {
  let decodedId: string | undefined
  let hex = '0x' as Hex
  return (id) => {
    if (id !== decodedId) {
      hex = bytesToHex(idFromString(id)) as Hex
      decodedId = id
    }
    return hex
  }
}
