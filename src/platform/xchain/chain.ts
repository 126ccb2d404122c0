import { sha256 } from '@noble/hashes/sha2.js'
import { parseAddress } from '../../core/address.js'
import { TypedEmitter } from '../../core/events.js'
import { InvalidArgumentError } from '../../core/errors.js'
import type { Hex } from '../../core/hex.js'
import { EMPTY_ID, idFromString, idToString } from '../../core/ids.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../../core/presets.js'
import type { SharedMemory } from '../atomic.js'
import { CODEC_VERSION, Writer, decodeSignedTx, encodeSignedTx, encodeUnsignedTx, txIdBytes } from '../codec.js'
import type { ShortId, TransferOutput, Utxo, XChainSignedTx } from '../txs.js'
import { compareBytes, hexKey, inputId, outputSortBytes } from './bytes.js'
import { GENESIS_CONFIGS } from '../genesis/config.js'
import { executeTx, type TxEffects, type XExecContext, type XStateView } from './executor.js'
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

/** avm `StandardBlock`'s type id: after the 5 txs and the 15 types of secp256k1fx, nftfx and propertyfx. */
export const X_STANDARD_BLOCK_TYPE_ID = 20

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

  /** Verifies `tx` and accepts it in a new block of its own. Throws {@link XChainTxError} and changes nothing if invalid. */
  issueTx(tx: XChainSignedTx | Uint8Array): IssueResult {
    const block = this.buildBlock([tx])
    return { txId: block.txIds[0]!, blockId: block.id, height: block.height }
  }

  /**
   * Verifies `txs` in order, each against the state left by the ones before, and accepts them as
   * one block at the clock's time. All or nothing.
   */
  buildBlock(txs: Array<XChainSignedTx | Uint8Array>): XBlock {
    if (txs.length === 0) throw new InvalidArgumentError('block contains no transactions')
    const parent = this.#state.lastBlock()!
    const height = parent.height + 1
    const timestamp = Math.max(this.#clock.now(), parent.timestamp)
    const overlay = new Overlay(this.#state)
    const ctx = this.#context(timestamp)
    const accepted: Array<{ stx: XChainSignedTx; bytes: Uint8Array; txId: string; effects: TxEffects }> = []
    for (const input of txs) {
      const stx = input instanceof Uint8Array ? decodeSignedTx('X', input) : input
      const bytes = input instanceof Uint8Array ? input : encodeSignedTx('X', stx)
      const id = txIdBytes(bytes)
      const txId = idToString(id)
      if (this.#state.getTx(txId) || accepted.some((a) => a.txId === txId))
        throw new InvalidArgumentError(`attempted to issue duplicate tx: ${txId}`)
      const effects = executeTx(ctx, overlay, stx, id, encodeUnsignedTx('X', stx.unsigned))
      overlay.apply(effects)
      accepted.push({ stx, bytes, txId, effects })
    }
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
  }

  /** Deterministic serialization of the whole chain state (shared memory is separate). */
  serialize(): string {
    return this.#state.serialize()
  }
}

/** A view of the state plus the effects of the txs already placed in the block being built. */
class Overlay implements XStateView {
  readonly #state: XState
  readonly #consumed = new Set<Hex>()
  readonly #produced = new Map<Hex, Utxo>()
  readonly #assets = new Map<string, AssetRecord>()
  readonly #txs = new Set<string>()
  readonly #imported = new Set<Hex>()

  constructor(state: XState) {
    this.#state = state
  }

  getUtxo(key: Hex): Utxo | undefined {
    if (this.#consumed.has(key)) return undefined
    return this.#produced.get(key) ?? this.#state.getUtxo(key)?.utxo
  }

  getAsset(assetId: string): AssetRecord | undefined {
    return this.#assets.get(assetId) ?? this.#state.getAsset(assetId)
  }

  hasTx(txId: string): boolean {
    return this.#txs.has(txId) || this.#state.getTx(txId) !== undefined
  }

  importedInBlock(key: Hex): boolean {
    return this.#imported.has(key)
  }

  apply(effects: TxEffects): void {
    for (const k of effects.consumed) {
      const key = hexKey(k)
      if (!this.#produced.delete(key)) this.#consumed.add(key)
    }
    for (const { key, utxo } of effects.produced) this.#produced.set(hexKey(key), utxo)
    if (effects.asset) this.#assets.set(effects.asset.assetId, { ...effects.asset, height: 0 })
    for (const k of effects.imported?.keys ?? []) this.#imported.add(hexKey(k))
    this.#txs.add(idToString(effects.txId))
  }
}

/**
 * avm `StandardBlock` bytes: codec version, type id, parent id, height, time, merkle root (empty),
 * then the txs (each `txs.Tx` without its own codec version).
 */
export function encodeBlock(parentId: string, height: number, timestamp: number, txBytes: Uint8Array[]): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION).u32(X_STANDARD_BLOCK_TYPE_ID)
  w.fixed(idFromString(parentId), 32, 'a block id').u64(BigInt(height)).u64(BigInt(timestamp)).fixed(new Uint8Array(32), 32, 'a merkle root')
  w.u32(txBytes.length)
  const parts = [w.finish(), ...txBytes.map((b) => b.subarray(2))]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}
