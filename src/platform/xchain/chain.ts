import { sha256 } from '../../core/sha256.js'
import { parseAddress } from '../../core/address.js'
import { TypedEmitter } from '../../core/events.js'
import { InvalidArgumentError, InvalidStateError } from '../../core/errors.js'
import { EMPTY_ID, idFromString, idToString } from '../../core/ids.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../../core/presets.js'
import type { SharedMemory } from '../atomic.js'
import { decodeSignedTx, encodeSignedTx, encodeUnsignedTx, txIdBytes, unsignedBytesOf } from '../codec.js'
import type { ShortId, TransferOutput, Utxo, XChainSignedTx } from '../txs.js'
import { compareBytes, hexKey, inputId, outputSortBytes } from './bytes.js'
import { GENESIS_CONFIGS } from '../genesis/config.js'
import { XChainTxError } from './errors.js'
import { encodeBlock, Overlay } from './block.js'
import { executeTx, type TxEffects, type XExecContext } from './executor.js'
import { XMempool } from './mempool.js'
import { XState, type AssetRecord, type StoredTx, type UtxoEntry, type XBlock, type XStateSnapshot } from './state.js'

/**
 * The X-chain (avm) of an emulated network: accepts transactions into blocks on the virtual clock,
 * keeps the UTXO set and assets, and moves value to and from the P- and C-chains through
 * {@link SharedMemory}.
 */

/** `genesis.{Local,Fuji,Mainnet}Params.TxFeeConfig` for the X-chain, in nAVAX. */
export const X_CHAIN_FEES: Record<NetworkPresetName, { txFee: bigint; createAssetTxFee: bigint }> = {
  local: { txFee: 1_000_000n, createAssetTxFee: 1_000_000n },
  fuji: { txFee: 1_000_000n, createAssetTxFee: 10_000_000n },
  mainnet: { txFee: 1_000_000n, createAssetTxFee: 10_000_000n },
}

/** The AVAX asset as the genesis CreateAssetTx declares it. */
export const AVAX_ASSET = { name: 'Avalanche', symbol: 'AVAX', denomination: 9 } as const

export type XGenesisAllocation = {
  address: ShortId | string
  amount: bigint
  locktime?: bigint
}

export type XChainOptions = {
  /** Ids and fees default to this preset's. Default `local`. */
  preset?: NetworkPresetName
  networkId?: number
  /** cb58. */
  chainId?: string
  avaxAssetId?: string
  txFee?: bigint
  createAssetTxFee?: bigint
  /** The virtual clock: unix seconds. */
  clock: { now(): number }
  sharedMemory: SharedMemory
  /**
   * The subnet of a chain (cb58 → cb58), for `SameSubnet` on imports/exports. Default: the
   * preset's P, X and C chains are on the primary network, every other chain is unknown.
   */
  subnetOf?: (chainId: string) => string | undefined
  /**
   * AVAX UTXOs at genesis: the genesis asset's fixed-cap holders (see {@link localGenesisAllocations}),
   * its outputs at indices 0… in byte order, as the real CreateAssetTx's initial state.
   */
  genesis?: XGenesisAllocation[]
  /** More holders at genesis (the emulator's dev accounts), at the output indices after {@link genesis}'s, in byte order. */
  extraGenesis?: XGenesisAllocation[]
  /** Genesis block time (unix seconds). Default: the clock's time at construction. */
  genesisTimestamp?: number
}

export type XBlockAcceptedEvent = {
  chain: 'X'
  block: XBlock
  txs: StoredTx[]
  /** UTXOs created and consumed by the block (per tx). */
  effects: TxEffects[]
}

export type XChainEvents = { block: XBlockAcceptedEvent }

export type IssueResult = { txId: string; blockId: string; height: number }

/** X-chain address bytes from bytes or an `X-…` bech32 string (any chain alias). */
export function addressBytes(address: ShortId | string): ShortId {
  if (typeof address !== 'string') return address
  const { bytes } = parseAddress(address)
  if (bytes.length !== 20) throw new InvalidArgumentError(`invalid hash length: expected 20 bytes but got ${bytes.length}`)
  return bytes
}

/**
 * The local network's X-chain genesis allocations (`genesis_local.json` `initialAmount`s): ewoq's
 * 300M AVAX and 10M to `X-local1ur873…`.
 */
export function localGenesisAllocations(): XGenesisAllocation[] {
  return GENESIS_CONFIGS.local.allocations.filter((a) => a.initialAmount > 0n).map((a) => ({ address: a.avaxAddr, amount: a.initialAmount }))
}

export class XChain {
  readonly events = new TypedEmitter<XChainEvents>()
  readonly networkId: number
  readonly chainId: string
  readonly avaxAssetId: string
  readonly txFee: bigint
  readonly createAssetTxFee: bigint
  readonly sharedMemory: SharedMemory
  readonly #clock: { now(): number }
  readonly #subnetOf: (chainId: string) => string | undefined
  #state = new XState()
  readonly #mempool = new XMempool()

  constructor(options: XChainOptions) {
    const preset = NETWORK_PRESETS[options.preset ?? 'local']
    const fees = X_CHAIN_FEES[options.preset ?? 'local']
    this.networkId = options.networkId ?? preset.networkId
    this.chainId = options.chainId ?? preset.xChainId
    this.avaxAssetId = options.avaxAssetId ?? preset.avaxAssetId
    this.txFee = options.txFee ?? fees.txFee
    this.createAssetTxFee = options.createAssetTxFee ?? fees.createAssetTxFee
    this.sharedMemory = options.sharedMemory
    this.#clock = options.clock
    const primary = new Set([preset.pChainId, this.chainId, preset.cChainId])
    this.#subnetOf = options.subnetOf ?? ((id) => (primary.has(id) ? EMPTY_ID : undefined))
    this.#initGenesis([options.genesis ?? [], options.extraGenesis ?? []], options.genesisTimestamp ?? options.clock.now(), preset.upgradeParams.cortinaXChainStopVertexID)
  }

  #initGenesis(groups: XGenesisAllocation[][], timestamp: number, parentId: string): void {
    const assetId = idFromString(this.avaxAssetId)
    this.#state.addAsset({ assetId: this.avaxAssetId, ...AVAX_ASSET, fxIndices: [0], height: 0 })
    this.#state.setAlias('AVAX', this.avaxAssetId)
    // The genesis CreateAssetTx's initial state: TransferOutputs sorted by their codec bytes, the
    // UTXO index is the position (the tx has no plain outputs), the tx id is the asset id.
    const outs = groups.flatMap((allocations) => {
      const group: TransferOutput[] = allocations.map((a) => ({
        type: 'TransferOutput',
        amount: a.amount,
        owners: { locktime: a.locktime ?? 0n, threshold: 1, addrs: [addressBytes(a.address)] },
      }))
      return group.sort((a, b) => compareBytes(outputSortBytes(a), outputSortBytes(b)))
    })
    outs.forEach((output, i) => {
      const utxo: Utxo = { txId: assetId, outputIndex: i, assetId, output }
      this.#state.addUtxo(inputId(assetId, i), utxo, { chainId: this.chainId, txId: this.avaxAssetId, height: 0, timestamp })
    })
    const bytes = encodeBlock(parentId, 0, timestamp, [])
    this.#state.addBlock({ id: idToString(sha256(bytes)), parentId, height: 0, timestamp, txIds: [], bytes })
  }

  // --- writing ---

  /**
   * The one way a tx enters the X-chain (`avm.issueTx`, the wallets, `/ext/sim`): into the
   * mempool ({@link addToMempool}), then built into a block at once ({@link buildBlock}). Throws
   * {@link XChainTxError} with the node's message, and changes nothing, when it is refused.
   */
  issueTx(tx: XChainSignedTx | Uint8Array): IssueResult {
    const txId = this.addToMempool(tx)
    const block = this.buildBlock()
    const height = block?.txIds.includes(txId) ? block.height : this.#state.getTx(txId)?.height
    // The tx was verified against the very state the block is built on: it cannot be left out.
    if (height === undefined) throw new InvalidStateError(`tx ${txId} was verified but not built into a block`)
    const built = this.#state.getBlockByHeight(height)!
    return { txId, blockId: built.id, height }
  }

  /**
   * `IssueTxFromRPC`: verifies `tx` against the last accepted state and puts it in the mempool;
   * returns its id. A tx already waiting is taken as issued (the node answers its id); a tx the
   * mempool refused before gets the same refusal, unverified; a refusal is remembered.
   */
  addToMempool(tx: XChainSignedTx | Uint8Array): string {
    const bytes = tx instanceof Uint8Array ? tx : encodeSignedTx('X', tx)
    const stx = tx instanceof Uint8Array ? decodeSignedTx('X', tx) : tx
    const id = txIdBytes(bytes)
    const txId = idToString(id)
    if (this.#mempool.has(txId)) return txId
    const dropped = this.#mempool.dropReason(txId)
    if (dropped) throw dropped
    try {
      const parent = this.#state.lastBlock()!
      executeTx(this.#context(Math.max(this.#clock.now(), parent.timestamp)), new Overlay(this.#state), stx, id, unsignedBytesOf('X', bytes))
      this.#mempool.add({ txId, tx: stx, bytes })
    } catch (error) {
      if (error instanceof XChainTxError) this.#mempool.markDropped(txId, error)
      throw error
    }
    return txId
  }

  /** The txs waiting in the mempool, oldest first. */
  mempoolTxs(): readonly { txId: string; tx: XChainSignedTx; bytes: Uint8Array }[] {
    return this.#mempool.txs()
  }

  /** Why the mempool refused `txId`, while it remembers (see {@link XMempool}). */
  dropReason(txId: string): XChainTxError | undefined {
    return this.#mempool.dropReason(txId)
  }

  /**
   * The block builder: takes the mempool's txs oldest first, each verified against the state the
   * ones before it left (a tx that no longer verifies is dropped with its reason), and accepts
   * them as one block at the clock's time. Returns undefined when nothing could be built.
   */
  buildBlock(): XBlock | undefined {
    const parent = this.#state.lastBlock()!
    const height = parent.height + 1
    const timestamp = Math.max(this.#clock.now(), parent.timestamp)
    const overlay = new Overlay(this.#state)
    const ctx = this.#context(timestamp)
    const accepted: Array<{ stx: XChainSignedTx; bytes: Uint8Array; txId: string; effects: TxEffects }> = []
    for (const { txId, tx: stx, bytes } of this.#mempool.txs()) {
      this.#mempool.remove(txId)
      try {
        const effects = executeTx(ctx, overlay, stx, txIdBytes(bytes), unsignedBytesOf('X', bytes))
        overlay.apply(effects)
        accepted.push({ stx, bytes, txId, effects })
      } catch (error) {
        if (!(error instanceof XChainTxError)) throw error
        this.#mempool.markDropped(txId, error)
      }
    }
    if (accepted.length === 0) return undefined
    // Everything verified: commit atomically (shared memory first, it is the only step that can throw).
    const blockBytes = encodeBlock(parent.id, height, timestamp, accepted.map((a) => a.bytes))
    const blockId = idToString(sha256(blockBytes))
    const requests = new Map<string, { removeRequests: Uint8Array[]; putRequests: NonNullable<TxEffects['exported']>['elements'] }>()
    for (const { effects } of accepted) {
      const peer = effects.imported?.sourceChain ?? effects.exported?.destinationChain
      if (!peer) continue
      let r = requests.get(peer)
      if (!r) requests.set(peer, (r = { removeRequests: [], putRequests: [] }))
      if (effects.imported) r.removeRequests.push(...effects.imported.keys)
      if (effects.exported) r.putRequests.push(...effects.exported.elements)
    }
    if (requests.size > 0) this.sharedMemory.apply(this.chainId, requests)

    const stored: StoredTx[] = []
    for (const { stx, bytes, txId, effects } of accepted) {
      const consumption = { chainId: this.chainId, txId, height, timestamp }
      for (const key of effects.consumed) this.#state.consumeUtxo(key, consumption)
      for (const { key, utxo } of effects.produced)
        this.#state.addUtxo(key, utxo, { chainId: this.chainId, txId, height, timestamp })
      if (effects.asset) this.#state.addAsset({ ...effects.asset, height })
      if (effects.imported)
        effects.imported.keys.forEach((key, i) =>
          this.#state.recordHistory(key, {
            utxo: effects.imported!.utxos[i]!,
            created: { chainId: effects.imported!.sourceChain, txId: idToString(effects.imported!.utxos[i]!.txId), height: null, timestamp: null },
            consumed: consumption,
            importedFrom: effects.imported!.sourceChain,
          }),
        )
      if (effects.exported)
        for (const { key, utxo } of effects.exported.utxos)
          this.#state.recordHistory(key, {
            utxo,
            created: { chainId: this.chainId, txId, height, timestamp },
            exportedTo: effects.exported.destinationChain,
          })
      const s: StoredTx = { txId, tx: stx, bytes, blockId, height, timestamp }
      this.#state.addTx(s)
      stored.push(s)
    }
    const block: XBlock = { id: blockId, parentId: parent.id, height, timestamp, txIds: stored.map((s) => s.txId), bytes: blockBytes }
    this.#state.addBlock(block)
    this.events.emit('block', { chain: 'X', block, txs: stored, effects: accepted.map((a) => a.effects) })
    return block
  }

  /** Verifies `tx` against the current state without accepting it; returns its effects. */
  verifyTx(tx: XChainSignedTx): TxEffects {
    const bytes = encodeSignedTx('X', tx)
    const parent = this.#state.lastBlock()!
    return executeTx(
      this.#context(Math.max(this.#clock.now(), parent.timestamp)),
      new Overlay(this.#state),
      tx,
      txIdBytes(bytes),
      encodeUnsignedTx('X', tx.unsigned),
    )
  }

  #context(now: number): XExecContext {
    return {
      networkId: this.networkId,
      chainId: idFromString(this.chainId),
      chainIdStr: this.chainId,
      avaxAssetId: idFromString(this.avaxAssetId),
      txFee: this.txFee,
      createAssetTxFee: this.createAssetTxFee,
      now,
      subnetId: EMPTY_ID,
      subnetOf: this.#subnetOf,
      sharedMemory: this.sharedMemory,
    }
  }

  // --- reading ---

  get height(): number {
    return this.#state.height
  }

  get state(): XState {
    return this.#state
  }

  lastBlock(): XBlock {
    return this.#state.lastBlock()!
  }

  getBlock(id: string): XBlock | undefined {
    return this.#state.getBlock(id)
  }

  getBlockByHeight(height: number): XBlock | undefined {
    return this.#state.getBlockByHeight(height)
  }

  getTx(txId: string): StoredTx | undefined {
    return this.#state.getTx(txId)
  }

  getAsset(assetIdOrAlias: string): AssetRecord | undefined {
    return this.#state.getAsset(this.#state.resolveAlias(assetIdOrAlias) ?? assetIdOrAlias)
  }

  /** A live UTXO by its cb58 id (`InputID`). */
  getUtxo(utxoId: string): UtxoEntry | undefined {
    return this.#state.getUtxo(hexKey(idFromString(utxoId)))
  }

  /** Live UTXOs referencing `address`, newest first. */
  utxosOf(address: ShortId | string): UtxoEntry[] {
    return this.#state.utxoKeysOf(addressBytes(address)).map((k) => this.#state.getUtxo(k)!)
  }

  /**
   * The balance `avm.getBalance` reports with `includePartial: false`: TransferOutputs of the
   * asset owned by the address alone and unlocked at the clock's time.
   */
  balanceOf(address: ShortId | string, assetId: string = this.avaxAssetId): bigint {
    const now = BigInt(this.#clock.now())
    let total = 0n
    for (const { utxo } of this.utxosOf(address)) {
      const out = utxo.output
      if (idToString(utxo.assetId) !== assetId || out.type !== 'TransferOutput') continue
      if (out.owners.addrs.length !== 1 || out.owners.locktime > now) continue
      total += out.amount
    }
    return total
  }

  now(): number {
    return this.#clock.now()
  }

  // --- snapshots ---

  snapshot(): XStateSnapshot {
    return this.#state.snapshot()
  }

  restore(snapshot: XStateSnapshot): void {
    this.#state.restore(snapshot)
    // What waited or was refused was judged against a state that is gone.
    this.#mempool.clear()
  }

  /** Deterministic serialization of the whole chain state (shared memory is separate). */
  serialize(): string {
    return this.#state.serialize()
  }
}
