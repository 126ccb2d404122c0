import { sha256 } from '../../core/sha256.js'
import type { Hex } from '../../core/hex.js'
import { EMPTY_ID, idFromString, idToString } from '../../core/ids.js'
import { ERR_NOT_FOUND, SharedMemoryError, type SharedMemory } from '../atomic.js'
import { decodeUtxo } from '../codec.js'
import type { Id, Utxo } from '../txs.js'
import { compareBytes, equalBytes, hexKey, inputId, outputSortBytes, pubKeyToEthAddress, recoverPublicKey } from './bytes.js'
import { encodeCUnsignedTx, type CAtomicSignedTx, type CAtomicUnsignedTx } from './cAtomicCodec.js'
import { fail, XChainTxError } from './errors.js'
import { verifyCredentials, verifyOwners, U64_MAX } from './executor.js'

/**
 * The rules of the C-chain's atomic transactions (coreth `plugin/evm/atomic`): their fee and gas,
 * and their verification against shared memory and the EVM state.
 *
 * AVAX has 9 decimals on X/P and in atomic txs, 18 on the EVM: amounts cross at
 * {@link X2C_RATE} (1 nAVAX = 1 gwei = 1e9 wei). Post-Banff only AVAX may cross.
 *
 * Fee (Apricot Phase 5 onward, unchanged by Etna): the tx burns at least
 * `ceil(gasUsed × baseFee / 1e9)` nAVAX, gasUsed = unsigned tx bytes + 1,000 per signature +
 * 10,000 intrinsic; `baseFee` is the base fee in wei of the EVM block the tx goes into.
 */

export const X2C_RATE = 1_000_000_000n
/** `ap5.AtomicTxIntrinsicGas`. */
export const ATOMIC_TX_INTRINSIC_GAS = 10_000n
/** `secp256k1fx.CostPerSignature`. */
export const COST_PER_SIGNATURE = 1_000n
/** `EVMOutputGas`: address 20 + amount 8 + asset id 32. */
export const EVM_OUTPUT_GAS = 60n
/** `EVMInputGas`: address 20 + amount 8 + asset id 32 + nonce 8, plus one signature. */
export const EVM_INPUT_GAS = 68n + COST_PER_SIGNATURE

/** What the atomic txs need from the EVM. Addresses are 20 bytes. */
export interface EvmAtomicBackend {
  /** Balance in wei. */
  getBalance(address: Uint8Array): bigint
  getNonce(address: Uint8Array): bigint
  /** ImportTx: add `amountWei` to the account. */
  creditEvm(address: Uint8Array, amountWei: bigint): void
  /** ExportTx: subtract `amountWei` and set the nonce to `nonce + 1` (checks done by the caller). */
  debitEvm(address: Uint8Array, amountWei: bigint, nonce: bigint): void
  /** Base fee in wei of the block the atomic tx goes into. */
  baseFee(): bigint
}

/** `CalculateDynamicFee`: ceil(cost × baseFee / 1e9), in nAVAX. */
export function calculateDynamicFee(gas: bigint, baseFeeWei: bigint): bigint {
  const fee = (gas * baseFeeWei + X2C_RATE - 1n) / X2C_RATE
  if (fee > U64_MAX) fail('cFeeOverflow')
  return fee
}

/** `GasUsed(fixedFee = true)`: unsigned bytes + 1,000 per signature + the 10,000 intrinsic gas. */
export function atomicGasUsed(tx: CAtomicUnsignedTx): bigint {
  const bytes = BigInt(encodeCUnsignedTx(tx).length)
  const sigs =
    tx.type === 'ImportTx'
      ? tx.importedInputs.reduce((n, i) => n + BigInt(i.input.type === 'TransferInput' ? i.input.sigIndices.length : 0), 0n)
      : BigInt(tx.ins.length)
  return bytes + sigs * COST_PER_SIGNATURE + ATOMIC_TX_INTRINSIC_GAS
}

/** What verification reads: the chain's ids, shared memory, the EVM state and the clock. */
export type AtomicVerifyContext = {
  networkId: number
  /** cb58 C-chain id. */
  chainId: string
  avaxAssetId: string
  sharedMemory: SharedMemory
  evm: EvmAtomicBackend
  /** Unix seconds: the fx clock that locktimes are compared with. */
  now: number
  /** The subnet of a chain (cb58 → cb58), undefined when unknown. */
  subnetOf: (chainId: string) => string | undefined
}

export type AtomicVerification = { burnedFee: bigint; gasUsed: bigint; utxos: Utxo[] }

/** `Burned(AVAX)`: what a tx consumes beyond what it produces, in nAVAX. */
export function burnedOf(u: CAtomicUnsignedTx): bigint {
  if (u.type === 'ImportTx')
    return u.importedInputs.reduce((n, i) => n + (i.input.type === 'TransferInput' ? i.input.amount : 0n), 0n) - u.outs.reduce((n, o) => n + o.amount, 0n)
  return u.ins.reduce((n, i) => n + i.amount, 0n) - u.exportedOutputs.reduce((n, o) => n + (o.output.type === 'TransferOutput' ? o.output.amount : 0n), 0n)
}

/** `EffectiveGasPrice`: burned × 1e9 ÷ gas used, in wei per gas (the mempool orders and replaces by it). */
export function effectiveGasPrice(u: CAtomicUnsignedTx): bigint {
  return (burnedOf(u) * X2C_RATE) / atomicGasUsed(u)
}

/** `InputUTXOs()`: the ids of the UTXOs an import consumes; an export's stand for its inputs' (nonce, address). */
export function atomicInputIds(u: CAtomicUnsignedTx): Hex[] {
  if (u.type === 'ImportTx') return u.importedInputs.map((i) => hexKey(inputId(i.txId, i.outputIndex)))
  // coreth: an EVM input's id is its nonce (u64) then its address with a u32 length prefix.
  return u.ins.map((i) => {
    const id = new Uint8Array(32)
    const view = new DataView(id.buffer)
    view.setBigUint64(0, i.nonce)
    view.setUint32(8, i.address.length)
    id.set(i.address, 12)
    return hexKey(id)
  })
}

/** `verify.SameSubnet`, mapped to `ErrWrongChainID` as coreth does. */
function checkPeer(ctx: AtomicVerifyContext, peer: Id): void {
  const p = idToString(peer)
  if (p === ctx.chainId || ctx.subnetOf(p) !== EMPTY_ID) fail('cWrongChainID')
}

/**
 * Verifies `tx` (coreth `Verify` + `semanticVerifier` + the EVM state transfer checks against
 * `ctx.evm`) at `baseFee` (wei) without changing anything. Throws {@link XChainTxError} with
 * coreth's message; returns the fee it burns beyond the required one, the gas it uses and the
 * UTXOs an import consumes.
 */
export function verifyAtomicTx(ctx: AtomicVerifyContext, tx: CAtomicSignedTx, baseFee: bigint): AtomicVerification {
  const u = tx.unsigned
  const avax = idFromString(ctx.avaxAssetId)
  const unsignedBytes = encodeCUnsignedTx(u)
  const gasUsed = atomicGasUsed(u)
  const fee = calculateDynamicFee(gasUsed, baseFee)
  if (u.type === 'ImportTx') {
    if (u.importedInputs.length === 0) fail('cNoImportInputs')
    if (u.networkId !== ctx.networkId) fail('cWrongNetworkID')
    if (!equalBytes(u.blockchainId, idFromString(ctx.chainId))) fail('cWrongChainID')
    if (u.outs.length === 0) fail('cNoEVMOutputs')
    checkPeer(ctx, u.sourceChain)
    for (const out of u.outs) {
      if (out.amount === 0n) fail('cNoValueOutput', 'EVM Output failed verification: output has no value')
      if (out.assetId.every((b) => b === 0)) fail('cEmptyAssetID', 'EVM Output failed verification: empty asset ID is not valid')
      if (!equalBytes(out.assetId, avax)) fail('cImportNonAVAXOutputBanff')
    }
    for (const input of u.importedInputs) {
      const msg = (m: string) => `atomic input failed verification: ${m}`
      if (input.assetId.every((b) => b === 0)) fail('emptyAssetID', msg('empty asset ID is not valid'))
      if (input.input.type !== 'TransferInput') fail('wrongInputType')
      if (input.input.amount === 0n) fail('noValueInput', msg('input has no value'))
      const s = input.input.sigIndices
      for (let i = 1; i < s.length; i++) if (s[i - 1]! >= s[i]!) fail('inputIndicesNotSortedUnique', msg('address indices not sorted and unique'))
      if (!equalBytes(input.assetId, avax)) fail('cImportNonAVAXInputBanff')
    }
    for (let i = 1; i < u.importedInputs.length; i++) {
      const a = u.importedInputs[i - 1]!
      const b = u.importedInputs[i]!
      if ((compareBytes(a.txId, b.txId) || a.outputIndex - b.outputIndex) >= 0) fail('cInputsNotSortedUnique')
    }
    for (let i = 1; i < u.outs.length; i++) {
      const a = u.outs[i - 1]!
      const b = u.outs[i]!
      if ((compareBytes(a.address, b.address) || compareBytes(a.assetId, b.assetId)) >= 0) fail('cOutputsNotSortedUnique')
    }
    // flow check
    const produced = fee + u.outs.reduce((n, o) => n + o.amount, 0n)
    const consumed = u.importedInputs.reduce((n, i) => n + (i.input.type === 'TransferInput' ? i.input.amount : 0n), 0n)
    if (produced > U64_MAX || consumed > U64_MAX) fail('overflow', 'import tx flow check failed due to: overflow')
    if (produced > consumed) fail('cInsufficientFunds', 'import tx flow check failed due to: insufficient funds')
    if (tx.credentials.length !== u.importedInputs.length)
      fail('cIncorrectNumCredentials', `incorrect number of credentials: (${u.importedInputs.length} vs. ${tx.credentials.length})`)
    const source = idToString(u.sourceChain)
    let values: Uint8Array[]
    try {
      values = ctx.sharedMemory.get(source, ctx.chainId, u.importedInputs.map((i) => inputId(i.txId, i.outputIndex)))
    } catch (err) {
      if (err instanceof SharedMemoryError)
        fail('cFailedToFetchImportUTXOs', `failed to fetch import UTXOs from ${source} due to: ${ERR_NOT_FOUND}`)
      throw err
    }
    const txHash = sha256(unsignedBytes)
    const utxos = values.map((v) => decodeUtxo('X', v))
    u.importedInputs.forEach((input, i) => {
      const utxo = utxos[i]!
      if (!equalBytes(utxo.assetId, input.assetId)) fail('assetIDMismatch')
      try {
        if (utxo.output.type !== 'TransferOutput') fail('wrongUTXOType')
        if (input.input.type !== 'TransferInput') fail('wrongInputType')
        if (utxo.output.amount !== input.input.amount)
          fail('mismatchedAmounts', `utxo amount and input amount are not equal: ${utxo.output.amount} != ${input.input.amount}`)
        verifyCredentials(ctx.now, txHash, input.input.sigIndices, tx.credentials[i]!, utxo.output.owners)
      } catch (err) {
        if (err instanceof XChainTxError) fail(err.code as never, `import tx transfer failed verification: ${err.shortMessage}`)
        throw err
      }
    })
    return { burnedFee: consumed - (produced - fee), gasUsed, utxos }
  }

  // ExportTx
  if (u.exportedOutputs.length === 0) fail('cNoExportOutputs')
  if (u.networkId !== ctx.networkId) fail('cWrongNetworkID')
  if (!equalBytes(u.blockchainId, idFromString(ctx.chainId))) fail('cWrongChainID')
  checkPeer(ctx, u.destinationChain)
  for (const input of u.ins) {
    if (input.amount === 0n) fail('cNoValueInput')
    if (input.assetId.every((b) => b === 0)) fail('cEmptyAssetID')
    if (!equalBytes(input.assetId, avax)) fail('cExportNonAVAXInputBanff')
  }
  for (const out of u.exportedOutputs) {
    if (out.assetId.every((b) => b === 0)) fail('emptyAssetID')
    if (out.output.type !== 'TransferOutput') fail('unknownFx')
    if (out.output.amount === 0n) fail('noValueOutput')
    verifyOwners(out.output.owners)
    if (!equalBytes(out.assetId, avax) && idToString(u.destinationChain) === EMPTY_ID) fail('cWrongChainID')
    if (!equalBytes(out.assetId, avax)) fail('cExportNonAVAXOutputBanff')
  }
  for (let i = 1; i < u.exportedOutputs.length; i++) {
    const a = u.exportedOutputs[i - 1]!
    const b = u.exportedOutputs[i]!
    if ((compareBytes(b.assetId, a.assetId) || compareBytes(outputSortBytes(b.output), outputSortBytes(a.output))) < 0)
      fail('cOutputsNotSorted')
  }
  for (let i = 1; i < u.ins.length; i++) {
    const a = u.ins[i - 1]!
    const b = u.ins[i]!
    if ((compareBytes(a.address, b.address) || compareBytes(a.assetId, b.assetId)) >= 0) fail('cInputsNotSortedUnique')
  }
  const produced = fee + u.exportedOutputs.reduce((n, o) => n + (o.output.type === 'TransferOutput' ? o.output.amount : 0n), 0n)
  const consumed = u.ins.reduce((n, i) => n + i.amount, 0n)
  if (produced > U64_MAX || consumed > U64_MAX) fail('overflow', 'export tx flow check failed due to: overflow')
  if (produced > consumed) fail('cInsufficientFunds', 'export tx flow check failed due to: insufficient funds')
  if (u.ins.length !== tx.credentials.length)
    fail('cIncorrectNumCredentials', `export tx contained incorrect number of credentials want ${u.ins.length} got ${tx.credentials.length}`)
  const txHash = sha256(unsignedBytes)
  u.ins.forEach((input, i) => {
    const cred = tx.credentials[i]!
    if (cred.sigs.length !== 1)
      fail('cIncorrectNumSignatures', `incorrect number of signatures want 1 signature for EVM Input Credential, but got ${cred.sigs.length}`)
    const pub = recoverPublicKey(txHash, cred.sigs[0]!)
    if (!equalBytes(pubKeyToEthAddress(pub), input.address)) fail('cPublicKeySignatureMismatch')
  })
  // EVMStateTransfer checks, against the current EVM state.
  for (const input of u.ins) {
    if (ctx.evm.getBalance(input.address) < input.amount * X2C_RATE) fail('cInsufficientFunds')
    if (ctx.evm.getNonce(input.address) !== input.nonce) fail('cInvalidNonce')
  }
  return { burnedFee: consumed - (produced - fee), gasUsed, utxos: [] }
}

