import { sha256 } from '../../core/sha256.js'
import { InvalidStateError } from '../../core/errors.js'
import { EMPTY_ID, idFromString, idToString } from '../../core/ids.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../../core/presets.js'
import type { AtomicRequests, SharedMemory } from '../atomic.js'
import { decodeUtxo } from '../codec.js'
import type { ShortId, TransferableInput } from '../txs.js'
import { compareBytes, inputId, publicKeyOf, pubKeyToEthAddress } from './bytes.js'
import { decodeCSignedTx, encodeCSignedTx, signCTx, type CAtomicSignedTx, type CExportTx, type CImportTx } from './cAtomicCodec.js'
import { CAtomicMempool, type AtomicPoolTx, type CAtomicMempoolSnapshot } from './cAtomicMempool.js'
import {
  atomicGasUsed,
  atomicInputIds,
  burnedOf,
  calculateDynamicFee,
  effectiveGasPrice,
  EVM_INPUT_GAS,
  EVM_OUTPUT_GAS,
  verifyAtomicTx,
  X2C_RATE,
  type AtomicVerification,
  type EvmAtomicBackend,
} from './cAtomicVerify.js'
import { XChainTxError } from './errors.js'
import { atomicElement } from './executor.js'
import type { Keychain } from './wallet.js'

/**
 * The C-chain's atomic transactions (coreth `plugin/evm/atomic`): ImportTx credits EVM accounts
 * with UTXOs another chain exported to the C-chain; ExportTx debits EVM accounts (checking their
 * nonce) and puts UTXOs into shared memory for another chain. Their rules are in
 * `cAtomicVerify.ts`, their bytes in `cAtomicCodec.ts`.
 *
 * A tx goes as in coreth: verified at the tip into the mempool ({@link CChainAtomic.addToMempool}),
 * taken by the block builder, dearest first, into the block being built
 * ({@link CChainAtomic.buildBatch}: verified again, its EVM effects applied), and accepted with that
 * block ({@link CChainAtomic.acceptBatch}: shared memory, the accepted index). The EVM itself is
 * behind {@link EvmAtomicBackend}.
 */

/** `targetAtomicTxsSize`: a block's atomic txs stay under 40 KiB (and so must one tx in the mempool). */
export const TARGET_ATOMIC_TXS_SIZE = 40 * 1024
/** `ap5.AtomicGasLimit`: the atomic gas of one block, and the most one mempool tx may use. */
export const ATOMIC_GAS_LIMIT = 100_000n

export type CChainAtomicOptions = {
  preset?: NetworkPresetName
  networkId?: number
  /** cb58 C-chain id. */
  chainId?: string
  avaxAssetId?: string
  sharedMemory: SharedMemory
  evm: EvmAtomicBackend
  clock: { now(): number }
  subnetOf?: (chainId: string) => string | undefined
}

export type AcceptedAtomicTx = {
  txId: string
  tx: CAtomicSignedTx
  bytes: Uint8Array
  /** Fee burned, nAVAX. */
  burned: bigint
  gasUsed: bigint
  timestamp: number
  /** The C-chain block that holds the tx (absent when accepted without one, by {@link CChainAtomic.issueTx}). */
  block?: { height: number; hash: string; timestamp: number }
}

/** What `avax.getAtomicTxStatus` answers (coreth `atomic.Status`). */
export type AtomicTxStatus = 'Accepted' | 'Processing' | 'Dropped' | 'Unknown'

export type CAtomicSnapshot = { accepted: Array<[string, AcceptedAtomicTx]>; mempool?: CAtomicMempoolSnapshot }

export class CChainAtomic {
  readonly networkId: number
  readonly chainId: string
  readonly avaxAssetId: string
  readonly sharedMemory: SharedMemory
  readonly evm: EvmAtomicBackend
  readonly #clock: { now(): number }
  readonly #subnetOf: (chainId: string) => string | undefined
  readonly #mempool = new CAtomicMempool()
  #accepted = new Map<string, AcceptedAtomicTx>()

  constructor(options: CChainAtomicOptions) {
    const preset = NETWORK_PRESETS[options.preset ?? 'local']
    this.networkId = options.networkId ?? preset.networkId
    this.chainId = options.chainId ?? preset.cChainId
    this.avaxAssetId = options.avaxAssetId ?? preset.avaxAssetId
    this.sharedMemory = options.sharedMemory
    this.evm = options.evm
    this.#clock = options.clock
    const primary = new Set([preset.pChainId, preset.xChainId, this.chainId])
    this.#subnetOf = options.subnetOf ?? ((id) => (primary.has(id) ? EMPTY_ID : undefined))
  }

  /** Verifies `tx` at `baseFee` (wei) against shared memory and the EVM state, changing nothing (see {@link verifyAtomicTx}). */
  verify(tx: CAtomicSignedTx, baseFee: bigint = this.evm.baseFee()): AtomicVerification {
    const ctx = { networkId: this.networkId, chainId: this.chainId, avaxAssetId: this.avaxAssetId, sharedMemory: this.sharedMemory, evm: this.evm, now: this.#clock.now(), subnetOf: this.#subnetOf }
    return verifyAtomicTx(ctx, tx, baseFee)
  }

  /**
   * `Mempool.AddLocalTx` after `verifyTxAtTip`: size and gas bounds, then the tx verified at the
   * tip's next base fee, then the mempool (conflicts by gas price). A tx already in the mempool
   * counts as issued (coreth's API ignores `already known`). Returns the tx id; throws
   * {@link XChainTxError} with coreth's message, changing nothing, when refused.
   */
  addToMempool(input: CAtomicSignedTx | Uint8Array, baseFee: bigint = this.evm.baseFee()): string {
    const tx = input instanceof Uint8Array ? decodeCSignedTx(input) : input
    const bytes = input instanceof Uint8Array ? input : encodeCSignedTx(tx)
    const txId = idToString(sha256(bytes))
    if (bytes.length > TARGET_ATOMIC_TXS_SIZE)
      throw new XChainTxError('txTooLarge', `tx size (${bytes.length}) exceeds total atomic txs size target (${TARGET_ATOMIC_TXS_SIZE})`)
    const gasUsed = atomicGasUsed(tx.unsigned)
    if (gasUsed > ATOMIC_GAS_LIMIT)
      throw new XChainTxError('txGasTooHigh', `tx gas usage (${gasUsed}) exceeds maximum allowed mempool gas usage (${ATOMIC_GAS_LIMIT})`)
    const state = this.#mempool.state(txId)
    if (state === 'pending' || state === 'current') return txId
    this.verify(tx, baseFee)
    this.#mempool.add({ txId, tx, bytes, gasPrice: effectiveGasPrice(tx.unsigned), inputs: atomicInputIds(tx.unsigned) })
    return txId
  }

  /** Whether the mempool has txs waiting for a block. */
  get hasPending(): boolean {
    return this.#mempool.pendingCount > 0
  }

  /** The EVM addresses the waiting txs touch (what the block builder must read). */
  pendingAddresses(): Uint8Array[] {
    const out: Uint8Array[] = []
    for (const { tx } of this.#mempool.snapshot().pending) out.push(...addressesOf(tx))
    return out
  }

  /**
   * The block builder's part (`postBatchOnFinalizeAndAssemble`): takes pending txs dearest first
   * while the block's atomic gas ({@link ATOMIC_GAS_LIMIT}) and size allow, each verified at the
   * block's `baseFee` against the EVM state the ones before left, and applies its EVM effects
   * through {@link EvmAtomicBackend}. A tx spending what an earlier one in the batch spends, or
   * failing verification, is discarded (`Dropped`). The batch stays current until
   * {@link acceptBatch} (or {@link cancelBatch}).
   */
  buildBatch(baseFee: bigint): AtomicPoolTx[] {
    const batch: AtomicPoolTx[] = []
    const spent = new Set<string>()
    let gas = 0n
    let size = 0
    for (let tx = this.#mempool.next(); tx; tx = this.#mempool.next()) {
      const gasUsed = atomicGasUsed(tx.tx.unsigned)
      if (size + tx.bytes.length > TARGET_ATOMIC_TXS_SIZE || gas + gasUsed > ATOMIC_GAS_LIMIT) {
        this.#mempool.cancel(tx.txId)
        break
      }
      if (tx.inputs.some((i) => spent.has(i))) {
        this.#mempool.discard(tx.txId, 'overlapping input utxos')
        continue
      }
      try {
        this.verify(tx.tx, baseFee)
      } catch (error) {
        if (!(error instanceof XChainTxError)) throw error
        this.#mempool.discard(tx.txId, error.shortMessage)
        continue
      }
      const u = tx.tx.unsigned
      if (u.type === 'ImportTx') for (const out of u.outs) this.evm.creditEvm(out.address, out.amount * X2C_RATE)
      else for (const i of u.ins) this.evm.debitEvm(i.address, i.amount * X2C_RATE, i.nonce)
      for (const i of tx.inputs) spent.add(i)
      gas += gasUsed
      size += tx.bytes.length
      batch.push(tx)
    }
    return batch
  }

  /** The block built with the current batch was not stored: its txs wait again. */
  cancelBatch(): void {
    this.#mempool.cancelCurrent()
  }

  /**
   * The block holding the current batch was accepted (coreth's `AtomicBackend` on accept): the
   * txs' shared-memory requests are applied (imported UTXOs removed, exported ones put for their
   * destination) and they join the accepted index with the block.
   */
  acceptBatch(block?: AcceptedAtomicTx['block']): AcceptedAtomicTx[] {
    const accepted: AcceptedAtomicTx[] = []
    const requests = new Map<string, AtomicRequests>()
    const requestsFor = (chain: string) => {
      let r = requests.get(chain)
      if (!r) requests.set(chain, (r = { removeRequests: [], putRequests: [] }))
      return r
    }
    for (const { txId, tx, bytes } of this.#mempool.removeCurrent()) {
      const u = tx.unsigned
      if (u.type === 'ImportTx') requestsFor(idToString(u.sourceChain)).removeRequests!.push(...u.importedInputs.map((i) => inputId(i.txId, i.outputIndex)))
      else {
        // coreth's AtomicOps: output i of an export is UTXO index i (no plain outputs on the C-chain).
        const id = idFromString(txId)
        requestsFor(idToString(u.destinationChain)).putRequests!.push(
          ...u.exportedOutputs.map((o, i) => atomicElement(inputId(id, i), { txId: id, outputIndex: i, assetId: o.assetId, output: o.output }, 'X')),
        )
      }
      const record: AcceptedAtomicTx = { txId, tx, bytes, burned: burnedOf(u), gasUsed: atomicGasUsed(u), timestamp: block?.timestamp ?? this.#clock.now(), ...(block ? { block } : {}) }
      this.#accepted.set(txId, record)
      accepted.push(record)
    }
    if (requests.size > 0) this.sharedMemory.apply(this.chainId, requests)
    return accepted
  }

  /**
   * Verifies and accepts `tx` at once, without a C-chain block: the mempool, the builder and the
   * acceptance in one call, for a C-chain emulated by an {@link EvmAtomicBackend} alone. Throws
   * {@link XChainTxError} with coreth's message and changes nothing if invalid.
   */
  issueTx(input: CAtomicSignedTx | Uint8Array, baseFee: bigint = this.evm.baseFee()): AcceptedAtomicTx {
    const txId = this.addToMempool(input, baseFee)
    const batch = this.buildBatch(baseFee)
    const accepted = this.acceptBatch()
    const mine = accepted.find((a) => a.txId === txId)
    if (!mine) throw new InvalidStateError(`atomic tx ${txId} was not accepted (${batch.length} in the batch)`)
    return mine
  }

  /** `getAtomicTxStatus`: accepted, in the mempool (pending or being built), discarded, or unknown. */
  status(txId: string): AtomicTxStatus {
    if (this.#accepted.has(txId)) return 'Accepted'
    const state = this.#mempool.state(txId)
    return state === 'discarded' ? 'Dropped' : state ? 'Processing' : 'Unknown'
  }

  /** A tx the mempool holds or discarded (with the builder's reason, when it refused it). */
  mempoolTx(txId: string): { tx: CAtomicSignedTx; bytes: Uint8Array; reason?: string } | undefined {
    return this.#mempool.get(txId)
  }

  getTx(txId: string): AcceptedAtomicTx | undefined {
    return this.#accepted.get(txId)
  }

  /** Every accepted atomic tx, in acceptance order (the platform indexer reads this history). */
  acceptedTxs(): AcceptedAtomicTx[] {
    return [...this.#accepted.values()]
  }

  /**
   * The accepted txs and the mempool as lists. Their records are shared, not cloned: an accepted
   * record and a pending tx are immutable values once made (only added, dropped or replaced).
   */
  snapshot(): CAtomicSnapshot {
    return { accepted: [...this.#accepted.entries()], mempool: this.#mempool.snapshot() }
  }

  restore(s: CAtomicSnapshot): void {
    this.#accepted = new Map(s.accepted)
    this.#mempool.restore(s.mempool)
  }

  // --- builders ---

  /**
   * coreth `NewImportTx`: imports every AVAX UTXO `sourceChain` exported to the keychain's
   * addresses into the EVM account `to`, minus the fee at `baseFee`.
   */
  buildImportTx(args: { sourceChain: string; to: Uint8Array; keychain: Keychain; baseFee?: bigint }): CAtomicSignedTx {
    const baseFee = args.baseFee ?? this.evm.baseFee()
    const now = BigInt(this.#clock.now())
    const { values } = this.sharedMemory.indexed(args.sourceChain, this.chainId, args.keychain.addresses(), new Uint8Array(), new Uint8Array(), 1024)
    const picked: Array<{ input: TransferableInput; keys: Uint8Array[] }> = []
    let total = 0n
    for (const v of values) {
      const utxo = decodeUtxo('X', v)
      if (utxo.output.type !== 'TransferOutput' || idToString(utxo.assetId) !== this.avaxAssetId) continue
      const m = args.keychain.match(utxo.output.owners, now)
      if (!m) continue
      picked.push({
        input: { txId: utxo.txId, outputIndex: utxo.outputIndex, assetId: utxo.assetId, input: { type: 'TransferInput', amount: utxo.output.amount, sigIndices: m.sigIndices } },
        keys: m.keys,
      })
      total += utxo.output.amount
    }
    if (picked.length === 0) throw new InvalidStateError('no spendable funds were found')
    picked.sort((a, b) => compareBytes(a.input.txId, b.input.txId) || a.input.outputIndex - b.input.outputIndex)
    const base: CImportTx = {
      type: 'ImportTx',
      networkId: this.networkId,
      blockchainId: idFromString(this.chainId),
      sourceChain: idFromString(args.sourceChain),
      importedInputs: picked.map((p) => p.input),
      outs: [],
    }
    const fee = calculateDynamicFee(atomicGasUsed(base) + EVM_OUTPUT_GAS, baseFee)
    if (total <= fee) throw new InvalidStateError('insufficient AVAX funds to pay transaction fee')
    const unsigned: CImportTx = { ...base, outs: [{ address: args.to, amount: total - fee, assetId: idFromString(this.avaxAssetId) }] }
    return signCTx(unsigned, picked.map((p) => p.keys))
  }

  /**
   * coreth `NewExportTx` for AVAX: exports `amount` nAVAX from the EVM account of `privateKey` to
   * `to` on `destinationChain`, paying the fee at `baseFee` on top.
   */
  buildExportTx(args: { destinationChain: string; to: ShortId; amount: bigint; privateKey: Uint8Array; baseFee?: bigint }): CAtomicSignedTx {
    const baseFee = args.baseFee ?? this.evm.baseFee()
    const from = pubKeyToEthAddress(publicKeyOf(args.privateKey))
    const assetId = idFromString(this.avaxAssetId)
    const base: CExportTx = {
      type: 'ExportTx',
      networkId: this.networkId,
      blockchainId: idFromString(this.chainId),
      destinationChain: idFromString(args.destinationChain),
      ins: [],
      exportedOutputs: [{ assetId, output: { type: 'TransferOutput', amount: args.amount, owners: { locktime: 0n, threshold: 1, addrs: [args.to] } } }],
    }
    const fee = calculateDynamicFee(atomicGasUsed(base) + EVM_INPUT_GAS, baseFee)
    const need = args.amount + fee
    if (this.evm.getBalance(from) / X2C_RATE < need) throw new InvalidStateError('insufficient funds')
    const unsigned: CExportTx = { ...base, ins: [{ address: from, amount: need, assetId, nonce: this.evm.getNonce(from) }] }
    return signCTx(unsigned, [[args.privateKey]])
  }
}


/** The EVM accounts an atomic tx credits (import) or debits (export). */
export function addressesOf(tx: CAtomicSignedTx): Uint8Array[] {
  const u = tx.unsigned
  return u.type === 'ImportTx' ? u.outs.map((o) => o.address) : u.ins.map((i) => i.address)
}
