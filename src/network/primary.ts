import { bytesToHex } from '@ethereumjs/util'
import type { Clock } from '../core/clock.js'
import type { Hex } from '../core/hex.js'
import { idFromString } from '../core/ids.js'
import type { DevAccount } from '../core/keys.js'
import type { EvmChain } from '../evm/chain.js'
import { SharedMemory, type SharedMemorySnapshot } from '../platform/atomic.js'
import { CChainAtomic, type CAtomicSignedTx, type CAtomicSnapshot } from '../platform/xchain/cchainAtomic.js'
import { pubKeyToEthAddress } from '../platform/xchain/bytes.js'
import { publicKeyOf } from '../platform/secp256k1fx.js'
import { localGenesisAllocations, XChain } from '../platform/xchain/chain.js'
import type { XStateSnapshot } from '../platform/xchain/state.js'
import { devAccountAllocations, type Keychain } from '../platform/xchain/wallet.js'
import { CAtomicBackend } from './cAtomicBackend.js'
import type { NetworkPreset, NetworkPresetName } from './presets.js'

/** Each dev account's AVAX on the X-chain at genesis, in nAVAX (10,000 AVAX, as on the C-chain). */
export const DEV_X_BALANCE = 10_000n * 1_000_000_000n

export type PrimarySnapshot = { x: XStateSnapshot; shared: SharedMemorySnapshot; cAtomic: CAtomicSnapshot }

/**
 * The primary network's non-EVM side: the X-chain, the shared memory atomic transfers go through,
 * and the C-chain's atomic import/export (whose EVM effects land in C-chain blocks).
 */
export class PrimaryNetwork {
  readonly sharedMemory: SharedMemory
  readonly xchain: XChain
  readonly cAtomic: CChainAtomic
  readonly #backend: CAtomicBackend

  constructor(options: { presetName: NetworkPresetName; preset: NetworkPreset; clock: Clock; cChain: EvmChain; devAccounts: readonly DevAccount[] }) {
    const { presetName, clock, cChain } = options
    this.sharedMemory = new SharedMemory()
    this.xchain = new XChain({
      preset: presetName,
      clock,
      sharedMemory: this.sharedMemory,
      genesis: [...(presetName === 'local' ? localGenesisAllocations() : []), ...devAccountAllocations(options.devAccounts, DEV_X_BALANCE)],
    })
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
    return { txId: accepted.txId }
  }

  /** Imports every AVAX UTXO `keychain` owns in shared memory from `sourceChain` into the C-chain account `to`. */
  async importToC(args: { sourceChain: string; to: Uint8Array; keychain: Keychain }): Promise<{ txId: string }> {
    return this.issueCAtomicTx(this.cAtomic.buildImportTx(args))
  }

  /** Exports `amount` nAVAX from the C-chain account of `privateKey` to `to` on `destinationChain` (P or X). */
  async exportFromC(args: { destinationChain: string; to: Uint8Array; amount: bigint; privateKey: Uint8Array }): Promise<{ txId: string }> {
    const from = pubKeyToEthAddress(publicKeyOf(args.privateKey))
    const accepted = await this.#backend.run([from], () => this.cAtomic.issueTx(this.cAtomic.buildExportTx(args)))
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

  snapshot(): PrimarySnapshot {
    return { x: this.xchain.snapshot(), shared: this.sharedMemory.snapshot(), cAtomic: this.cAtomic.snapshot() }
  }

  restore(snapshot: PrimarySnapshot): void {
    this.xchain.restore(snapshot.x)
    this.sharedMemory.restore(snapshot.shared)
    this.cAtomic.restore(snapshot.cAtomic)
  }
}
