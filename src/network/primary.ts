import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Clock } from '../core/clock.js'
import type { Hex } from '../core/hex.js'
import { idFromString } from '../core/ids.js'
import type { DevAccount } from '../core/keys.js'
import type { EvmChain } from '../evm/chain.js'
import { SharedMemory, type SharedMemorySnapshot } from '../platform/atomic.js'
import { CChainAtomic, type CAtomicSignedTx, type CAtomicSnapshot } from '../platform/xchain/cchainAtomic.js'
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
  }

  /**
   * Issues a C-chain atomic transaction (import from or export to P/X): verified against the
   * C-chain's state, its credits and debits written and sealed in a C-chain block.
   */
  async issueCAtomicTx(tx: CAtomicSignedTx): Promise<{ txId: string }> {
    const unsigned = tx.unsigned
    const addresses = unsigned.type === 'ImportTx' ? unsigned.outs.map((o) => o.address) : unsigned.ins.map((i) => i.address)
    const accepted = await this.#backend.run(addresses, () => this.cAtomic.issueTx(tx))
    this.#recordBlock(accepted.txId)
    return { txId: accepted.txId }
  }

  /** The block the backend just mined holds the atomic tx's effects (as coreth's block carries its atomic txs). */
  #recordBlock(txId: string): void {
    const head = this.#cChain.head
    this.cAtomic.recordBlock(txId, { height: Number(head.number), hash: head.hash, timestamp: Number(head.block.header.timestamp) })
  }

  /** Imports every AVAX UTXO `keychain` owns in shared memory from `sourceChain` into the C-chain account `to`. */
  async importToC(args: { sourceChain: string; to: Uint8Array; keychain: Keychain }): Promise<{ txId: string }> {
    return this.issueCAtomicTx(this.cAtomic.buildImportTx(args))
  }

  /** Exports `amount` nAVAX from the C-chain account of `privateKey` to `to` on `destinationChain` (P or X). */
  async exportFromC(args: { destinationChain: string; to: Uint8Array; amount: bigint; privateKey: Uint8Array }): Promise<{ txId: string }> {
    const from = pubKeyToEthAddress(publicKeyOf(args.privateKey))
    const accepted = await this.#backend.run([from], () => this.cAtomic.issueTx(this.cAtomic.buildExportTx(args)))
    this.#recordBlock(accepted.txId)
    return { txId: accepted.txId }
  }

  /** The X-chain as a health-check subject: its last accepted block. */
  get xHealthSubject(): { alias: string; head: { number: bigint; hash: Hex } } {
    const xchain = this.xchain
    return {
      alias: 'X',
      get head() {
        const block = xchain.lastBlock()
        return { number: BigInt(block.height), hash: bytesToHex(idFromString(block.id)) as Hex }
      },
    }
  }

  /** The P-chain as a health-check subject: its last accepted block. */
  get pHealthSubject(): { alias: string; head: { number: bigint; hash: Hex } } {
    const pchain = this.pchain
    return {
      alias: 'P',
      get head() {
        return { number: BigInt(pchain.height), hash: bytesToHex(idFromString(pchain.state.lastBlockId)) as Hex }
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

  restore(snapshot: PrimarySnapshot): void {
    this.pchain.restore(snapshot.p)
    this.pchain.mempool.restore(snapshot.pMempool)
    this.xchain.restore(snapshot.x)
    this.sharedMemory.restore(snapshot.shared)
    this.cAtomic.restore(snapshot.cAtomic)
  }
}
