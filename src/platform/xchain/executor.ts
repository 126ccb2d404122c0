import { sha256 } from '../../core/sha256.js'
import { idToString } from '../../core/ids.js'
import type { Hex } from '../../core/hex.js'
import { ERR_NOT_FOUND, SharedMemoryError, type AtomicElement, type SharedMemory } from '../atomic.js'
import { decodeUtxo, encodeUtxo } from '../codec.js'
import type {
  AvaxBaseTx,
  Credential,
  Id,
  Input,
  MintOutput,
  Operation,
  Output,
  OutputOwners,
  TransferableInput,
  TransferableOutput,
  TransferOutput,
  Utxo,
  XChainSignedTx,
} from '../txs.js'
import {
  compareBytes,
  equalBytes,
  hexKey,
  inputId,
  operationSortBytes,
  outputSortBytes,
  pubKeyToShortId,
  recoverPublicKey,
  shortIdString,
} from './bytes.js'
import { fail, wrap, XChainTxError } from './errors.js'
import type { AssetRecord } from './state.js'

/**
 * The X-chain transaction rules, after avalanchego's vms/avm/txs/executor: the syntactic
 * verifier, the semantic verifier (UTXOs, assets, secp256k1fx credentials, shared memory) and the
 * executor, which here returns the state changes ({@link TxEffects}) instead of writing them, so a
 * refused tx cannot leave anything behind.
 */

export const U64_MAX = (1n << 64n) - 1n
/** `avax.MaxMemoSize`. */
export const MAX_MEMO_SIZE = 256
/** The X-chain's fxs: secp256k1fx (0), nftfx (1), propertyfx (2). Only secp256k1fx is modelled. */
export const NUM_FXS = 3
export const SECP256K1FX_INDEX = 0

export type XExecContext = {
  networkId: number
  /** This chain's id, raw and cb58. */
  chainId: Id
  chainIdStr: string
  /** The fee asset (AVAX). */
  avaxAssetId: Id
  txFee: bigint
  createAssetTxFee: bigint
  /** Unix seconds: the fx clock that locktimes are compared with. */
  now: number
  /** The primary network's subnet id (cb58) and a resolver of a chain's subnet (`SameSubnet`). */
  subnetId: string
  subnetOf: (chainId: string) => string | undefined
  sharedMemory: SharedMemory
}

/** What the executor reads: the UTXO set, assets and known txs, as of the block being built. */
export type XStateView = {
  getUtxo(key: Hex): Utxo | undefined
  getAsset(assetId: string): AssetRecord | undefined
  hasTx(txId: string): boolean
  /** Atomic inputs already imported by an earlier tx of the same block (`ErrConflictingBlockTxs`). */
  importedInBlock(key: Hex): boolean
}

export type ProducedUtxo = { key: Uint8Array; utxo: Utxo }

export type TxEffects = {
  txId: Id
  consumed: Uint8Array[]
  produced: ProducedUtxo[]
  asset?: Omit<AssetRecord, 'height'>
  imported?: { sourceChain: string; keys: Uint8Array[]; utxos: Utxo[] }
  exported?: { destinationChain: string; elements: AtomicElement[]; utxos: ProducedUtxo[] }
}

// ---------------------------------------------------------------------------------------------
// Syntactic verification
// ---------------------------------------------------------------------------------------------

function verifyBase(ctx: XExecContext, base: AvaxBaseTx): void {
  if (base.networkId !== ctx.networkId) fail('wrongNetworkID')
  if (!equalBytes(base.blockchainId, ctx.chainId)) fail('wrongChainID')
  if (base.memo.length > MAX_MEMO_SIZE)
    fail('memoTooLarge', `memo exceeds maximum length: ${base.memo.length} > ${MAX_MEMO_SIZE}`)
}

function isEmptyId(id: Id): boolean {
  return id.every((b) => b === 0)
}

/** `OutputOwners.Verify`. */
export function verifyOwners(o: OutputOwners): void {
  if (o.threshold > o.addrs.length) fail('outputUnspendable')
  if (o.threshold === 0 && o.addrs.length > 0) fail('outputUnoptimized')
  for (let i = 1; i < o.addrs.length; i++) if (compareBytes(o.addrs[i - 1]!, o.addrs[i]!) >= 0) fail('addrsNotSortedUnique')
}

function verifyState(out: Output): void {
  switch (out.type) {
    case 'TransferOutput':
      if (out.amount === 0n) fail('noValueOutput')
      return verifyOwners(out.owners)
    case 'MintOutput':
      return verifyOwners(out.owners)
    default:
      return fail('unknownFx')
  }
}

function verifySigIndices(input: Input | { sigIndices: number[] }): void {
  const s = input.sigIndices
  for (let i = 1; i < s.length; i++) if (s[i - 1]! >= s[i]!) fail('inputIndicesNotSortedUnique')
}

function compareOutputs(a: TransferableOutput, b: TransferableOutput): number {
  return compareBytes(a.assetId, b.assetId) || compareBytes(outputSortBytes(a.output), outputSortBytes(b.output))
}

function compareInputs(a: { txId: Id; outputIndex: number }, b: { txId: Id; outputIndex: number }): number {
  return compareBytes(a.txId, b.txId) || a.outputIndex - b.outputIndex
}

/** Flow checker with Go's `math.Add` overflow error. */
class FlowChecker {
  consumed = new Map<Hex, bigint>()
  produced = new Map<Hex, bigint>()
  overflow = false
  #add(m: Map<Hex, bigint>, asset: Id, amount: bigint) {
    const k = hexKey(asset)
    const v = (m.get(k) ?? 0n) + amount
    if (v > U64_MAX) this.overflow = true
    m.set(k, v > U64_MAX ? U64_MAX : v)
  }
  consume(asset: Id, amount: bigint) {
    this.#add(this.consumed, asset, amount)
  }
  produce(asset: Id, amount: bigint) {
    this.#add(this.produced, asset, amount)
  }
  verify(): void {
    if (this.overflow) fail('overflow')
    for (const [asset, produced] of this.produced) if (produced > (this.consumed.get(asset) ?? 0n)) fail('insufficientFunds')
  }
}

/** `avax.VerifyTx`: outputs and inputs valid and sorted, and the per-asset flow check including the fee. */
export function verifyFlow(
  fee: bigint,
  feeAssetId: Id,
  allIns: TransferableInput[][],
  allOuts: TransferableOutput[][],
): void {
  const fc = new FlowChecker()
  fc.produce(feeAssetId, fee)
  for (const outs of allOuts) {
    for (const out of outs) {
      if (isEmptyId(out.assetId)) fail('emptyAssetID')
      if (out.output.type !== 'TransferOutput') fail('unknownFx')
      verifyState(out.output)
      fc.produce(out.assetId, out.output.amount)
    }
    for (let i = 1; i < outs.length; i++) if (compareOutputs(outs[i]!, outs[i - 1]!) < 0) fail('outputsNotSorted')
  }
  for (const ins of allIns) {
    for (const input of ins) {
      if (isEmptyId(input.assetId)) fail('emptyAssetID')
      if (input.input.type !== 'TransferInput') fail('unknownFx')
      if (input.input.amount === 0n) fail('noValueInput')
      verifySigIndices(input.input)
      fc.consume(input.assetId, input.input.amount)
    }
    for (let i = 1; i < ins.length; i++) if (compareInputs(ins[i - 1]!, ins[i]!) >= 0) fail('inputsNotSortedUnique')
  }
  fc.verify()
}

function checkCredCount(creds: number, inputs: number): void {
  if (creds !== inputs) fail('wrongNumberOfCredentials', `wrong number of credentials: ${creds} != ${inputs}`)
}

const isAsciiLetterOrDigit = (c: string) => /^[A-Za-z0-9]$/.test(c)

/** `SyntacticVerifier`: everything checkable without state. */
export function syntacticVerify(ctx: XExecContext, stx: XChainSignedTx): void {
  const tx = stx.unsigned
  const creds = stx.credentials.length
  switch (tx.type) {
    case 'BaseTx':
      verifyBase(ctx, tx.base)
      verifyFlow(ctx.txFee, ctx.avaxAssetId, [tx.base.inputs], [tx.base.outputs])
      return checkCredCount(creds, tx.base.inputs.length)
    case 'CreateAssetTx': {
      const nameLen = new TextEncoder().encode(tx.name).length
      const symbolLen = new TextEncoder().encode(tx.symbol).length
      if (nameLen < 1) fail('nameTooShort')
      if (nameLen > 128) fail('nameTooLong')
      if (symbolLen < 1) fail('symbolTooShort')
      if (symbolLen > 4) fail('symbolTooLong')
      if (tx.initialStates.length === 0) fail('noFxs')
      if (tx.denomination > 32) fail('denominationTooLarge')
      if (tx.name.trim() !== tx.name) fail('unexpectedWhitespace')
      for (const c of tx.name) if (!isAsciiLetterOrDigit(c) && c !== ' ') fail('illegalNameCharacter')
      for (const c of tx.symbol) if (!/^[A-Z]$/.test(c)) fail('illegalSymbolCharacter')
      verifyBase(ctx, tx.base)
      verifyFlow(ctx.createAssetTxFee, ctx.avaxAssetId, [tx.base.inputs], [tx.base.outputs])
      for (const state of tx.initialStates) {
        if (state.fxIndex >= NUM_FXS) fail('unknownFx')
        for (const out of state.outputs) verifyState(out)
        for (let i = 1; i < state.outputs.length; i++)
          if (compareBytes(outputSortBytes(state.outputs[i]!), outputSortBytes(state.outputs[i - 1]!)) < 0)
            fail('stateOutputsNotSorted')
      }
      for (let i = 1; i < tx.initialStates.length; i++)
        if (tx.initialStates[i - 1]!.fxIndex >= tx.initialStates[i]!.fxIndex) fail('initialStatesNotSortedUnique')
      return checkCredCount(creds, tx.base.inputs.length)
    }
    case 'OperationTx': {
      if (tx.operations.length === 0) fail('noOperations')
      verifyBase(ctx, tx.base)
      verifyFlow(ctx.txFee, ctx.avaxAssetId, [tx.base.inputs], [tx.base.outputs])
      const inputs = new Set(tx.base.inputs.map((i) => hexKey(inputId(i.txId, i.outputIndex))))
      for (const op of tx.operations) {
        verifyOperation(op)
        for (const u of op.utxoIds) {
          const k = hexKey(inputId(u.txId, u.outputIndex))
          if (inputs.has(k)) fail('doubleSpend')
          inputs.add(k)
        }
      }
      const bytes = tx.operations.map(operationSortBytes)
      for (let i = 1; i < bytes.length; i++) if (compareBytes(bytes[i - 1]!, bytes[i]!) >= 0) fail('operationsNotSortedUnique')
      return checkCredCount(creds, tx.base.inputs.length + tx.operations.length)
    }
    case 'ImportTx':
      if (tx.importedInputs.length === 0) fail('noImportInputs')
      verifyBase(ctx, tx.base)
      verifyFlow(ctx.txFee, ctx.avaxAssetId, [tx.base.inputs, tx.importedInputs], [tx.base.outputs])
      return checkCredCount(creds, tx.base.inputs.length + tx.importedInputs.length)
    case 'ExportTx':
      if (tx.exportedOutputs.length === 0) fail('noExportOutputs')
      verifyBase(ctx, tx.base)
      verifyFlow(ctx.txFee, ctx.avaxAssetId, [tx.base.inputs], [tx.base.outputs, tx.exportedOutputs])
      return checkCredCount(creds, tx.base.inputs.length)
  }
}

/** `txs.Operation.Verify` + `MintOperation.Verify`. */
function verifyOperation(op: Operation): void {
  for (let i = 1; i < op.utxoIds.length; i++)
    if (compareInputs(op.utxoIds[i - 1]!, op.utxoIds[i]!) >= 0) fail('utxoIDsNotSortedUnique')
  if (isEmptyId(op.assetId)) fail('emptyAssetID')
  if (op.op.type !== 'MintOperation') fail('wrongOpType')
  verifySigIndices(op.op.mintInput)
  verifyState(op.op.mintOutput)
  verifyState(op.op.transferOutput)
}

// ---------------------------------------------------------------------------------------------
// Semantic verification
// ---------------------------------------------------------------------------------------------

/** `secp256k1fx.Fx.VerifyCredentials`. `txHash` = sha256(unsigned tx bytes). */
export function verifyCredentials(
  now: number,
  txHash: Uint8Array,
  sigIndices: number[],
  cred: Credential,
  owners: OutputOwners,
): void {
  const numSigs = sigIndices.length
  if (owners.locktime > BigInt(now)) fail('timelocked')
  if (owners.threshold < numSigs) fail('tooManySigners')
  if (owners.threshold > numSigs) fail('tooFewSigners')
  if (numSigs !== cred.sigs.length) fail('inputCredentialSignersMismatch')
  sigIndices.forEach((index, i) => {
    const expected = owners.addrs[index]
    if (expected === undefined) fail('inputOutputIndexOutOfBounds')
    const got = pubKeyToShortId(recoverPublicKey(txHash, cred.sigs[i]!))
    if (!equalBytes(expected, got))
      fail('wrongSig', `wrong signature: expected signature from ${shortIdString(expected)} but got from ${shortIdString(got)}`)
  })
}

/** `verifyFxUsage(secp256k1fx, assetID)`. */
function verifyFxUsage(view: XStateView, assetId: Id): void {
  const id = idToString(assetId)
  const asset = view.getAsset(id)
  if (!asset) return view.hasTx(id) ? fail('notAnAsset') : fail('notFound')
  if (!asset.fxIndices.includes(SECP256K1FX_INDEX)) fail('incompatibleFx')
}

function verifyTransferOfUtxo(
  ctx: XExecContext,
  view: XStateView,
  txHash: Uint8Array,
  input: TransferableInput,
  cred: Credential,
  utxo: Utxo,
): void {
  if (!equalBytes(utxo.assetId, input.assetId)) fail('assetIDMismatch')
  verifyFxUsage(view, input.assetId)
  if (input.input.type !== 'TransferInput') fail('wrongInputType')
  if (utxo.output.type !== 'TransferOutput') fail('wrongUTXOType')
  const out: TransferOutput = utxo.output
  if (out.amount !== input.input.amount)
    fail('mismatchedAmounts', `utxo amount and input amount are not equal: ${out.amount} != ${input.input.amount}`)
  verifyCredentials(ctx.now, txHash, input.input.sigIndices, cred, out.owners)
}

function semanticBase(ctx: XExecContext, view: XStateView, txHash: Uint8Array, base: AvaxBaseTx, creds: Credential[]): void {
  base.inputs.forEach((input, i) => {
    const key = inputId(input.txId, input.outputIndex)
    try {
      const utxo = view.getUtxo(hexKey(key))
      if (!utxo) fail('notFound', `failed to get utxo ${idToString(key)}: ${ERR_NOT_FOUND}`)
      verifyTransferOfUtxo(ctx, view, txHash, input, creds[i]!, utxo)
    } catch (err) {
      wrap('failed to verify transfer', err)
    }
  })
  for (const out of base.outputs) {
    try {
      verifyFxUsage(view, out.assetId)
    } catch (err) {
      wrap('failed to verify fx usage', err)
    }
  }
}

/** `verify.SameSubnet`. */
function sameSubnet(ctx: XExecContext, peer: Id): void {
  const peerStr = idToString(peer)
  if (peerStr === ctx.chainIdStr) fail('sameChainID')
  const subnet = ctx.subnetOf(peerStr)
  if (subnet === undefined)
    fail('notFound', `failed to get subnet of "${peerStr}": problem retrieving blockchain "${peerStr}": ${ERR_NOT_FOUND}`)
  if (subnet !== ctx.subnetId)
    fail('mismatchedSubnetIDs', `mismatched subnetIDs; expected "${ctx.subnetId}" got "${subnet}"`)
}

function outputToUtxo(txId: Id, index: number, out: TransferableOutput | { assetId: Id; output: Output }): ProducedUtxo {
  return { key: inputId(txId, index), utxo: { txId, outputIndex: index, assetId: out.assetId, output: out.output } }
}

/**
 * Verifies `stx` (syntactically, then against `view`) and returns the changes it makes. Throws
 * {@link XChainTxError} with avalanchego's message when it is invalid.
 */
export function executeTx(
  ctx: XExecContext,
  view: XStateView,
  stx: XChainSignedTx,
  txId: Id,
  unsignedBytes: Uint8Array,
): TxEffects {
  syntacticVerify(ctx, stx)
  const tx = stx.unsigned
  const txHash = sha256(unsignedBytes)
  const creds = stx.credentials
  semanticBase(ctx, view, txHash, tx.base, creds)

  const effects: TxEffects = {
    txId,
    consumed: tx.base.inputs.map((i) => inputId(i.txId, i.outputIndex)),
    produced: tx.base.outputs.map((o, i) => outputToUtxo(txId, i, o)),
  }
  let index = tx.base.outputs.length

  switch (tx.type) {
    case 'BaseTx':
      break
    case 'CreateAssetTx':
      for (const state of tx.initialStates)
        for (const out of state.outputs) effects.produced.push(outputToUtxo(txId, index++, { assetId: txId, output: out }))
      effects.asset = {
        assetId: idToString(txId),
        name: tx.name,
        symbol: tx.symbol,
        denomination: tx.denomination,
        fxIndices: tx.initialStates.map((s) => s.fxIndex),
      }
      break
    case 'OperationTx': {
      const offset = tx.base.inputs.length
      tx.operations.forEach((op, i) => {
        const cred = creds[offset + i]!
        const utxos = op.utxoIds.map((u) => {
          const utxo = view.getUtxo(hexKey(inputId(u.txId, u.outputIndex)))
          if (!utxo) fail('notFound')
          if (!equalBytes(utxo.assetId, op.assetId)) fail('assetIDMismatch')
          return utxo
        })
        verifyFxUsage(view, op.assetId)
        if (utxos.length !== 1) fail('wrongNumberOfUTXOs')
        const mint = utxos[0]!.output
        if (mint.type !== 'MintOutput') fail('wrongUTXOType')
        if (!sameOwners((mint as MintOutput).owners, op.op.mintOutput.owners)) fail('wrongMintCreated')
        verifyCredentials(ctx.now, txHash, op.op.mintInput.sigIndices, cred, (mint as MintOutput).owners)
      })
      for (const op of tx.operations) {
        for (const u of op.utxoIds) effects.consumed.push(inputId(u.txId, u.outputIndex))
        for (const out of [op.op.mintOutput, op.op.transferOutput])
          effects.produced.push(outputToUtxo(txId, index++, { assetId: op.assetId, output: out }))
      }
      break
    }
    case 'ImportTx': {
      sameSubnet(ctx, tx.sourceChain)
      const source = idToString(tx.sourceChain)
      const keys = tx.importedInputs.map((i) => inputId(i.txId, i.outputIndex))
      for (const k of keys) if (view.importedInBlock(hexKey(k))) fail('conflictingBlockTxs')
      let values: Uint8Array[]
      try {
        values = ctx.sharedMemory.get(source, ctx.chainIdStr, keys)
      } catch (err) {
        if (err instanceof SharedMemoryError) fail('notFound', err.shortMessage)
        throw err
      }
      const offset = tx.base.inputs.length
      const utxos = values.map((v) => decodeUtxo('X', v))
      tx.importedInputs.forEach((input, i) =>
        verifyTransferOfUtxo(ctx, view, txHash, input, creds[offset + i]!, utxos[i]!),
      )
      effects.imported = { sourceChain: source, keys, utxos }
      break
    }
    case 'ExportTx': {
      sameSubnet(ctx, tx.destinationChain)
      for (const out of tx.exportedOutputs) verifyFxUsage(view, out.assetId)
      const exported = tx.exportedOutputs.map((o) => outputToUtxo(txId, index++, o))
      effects.exported = {
        destinationChain: idToString(tx.destinationChain),
        utxos: exported,
        elements: exported.map(({ key, utxo }) => atomicElement(key, utxo, 'X')),
      }
      break
    }
  }
  return effects
}

function sameOwners(a: OutputOwners, b: OutputOwners): boolean {
  return (
    a.locktime === b.locktime &&
    a.threshold === b.threshold &&
    a.addrs.length === b.addrs.length &&
    a.addrs.every((x, i) => equalBytes(x, b.addrs[i]!))
  )
}

/** The shared-memory element of an exported UTXO: key = input id, value = UTXO bytes, traits = owners. */
export function atomicElement(key: Uint8Array, utxo: Utxo, chain: 'P' | 'X'): AtomicElement {
  const out = utxo.output
  const owners = out.type === 'StakeableLockOut' ? out.output.owners : out.owners
  return { key, value: encodeUtxo(chain, utxo), traits: owners.addrs.map((a) => a.slice()) }
}

export { XChainTxError }
