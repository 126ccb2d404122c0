import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidArgumentError, InvalidStateError } from '../../core/errors.js'
import { bytesToHex, type Hex } from '../../core/hex.js'
import { EMPTY_ID, idFromString, idToString } from '../../core/ids.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../../core/presets.js'
import { ERR_NOT_FOUND, SharedMemoryError, type SharedMemory } from '../atomic.js'
import { CODEC_VERSION, Reader, Writer, decodeUtxo } from '../codec.js'
import type { Credential, Id, OutputOwners, ShortId, TransferableInput, TransferableOutput, Utxo } from '../txs.js'
import { compareBytes, equalBytes, inputId, outputSortBytes, publicKeyOf, pubKeyToEthAddress, recoverPublicKey, signHash } from './bytes.js'
import { fail, XChainTxError } from './errors.js'
import { atomicElement, verifyCredentials, verifyOwners, U64_MAX } from './executor.js'
import type { Keychain } from './wallet.js'

/**
 * The C-chain's atomic transactions (coreth `plugin/evm/atomic`): ImportTx credits EVM accounts
 * with UTXOs another chain exported to the C-chain; ExportTx debits EVM accounts (checking their
 * nonce) and puts UTXOs into shared memory for another chain.
 *
 * AVAX has 9 decimals on X/P and in atomic txs, 18 on the EVM: amounts cross at
 * {@link X2C_RATE} (1 nAVAX = 1 gwei = 1e9 wei). Post-Banff only AVAX may cross.
 *
 * Fee (Apricot Phase 5 onward, unchanged by Etna): the tx burns
 * `ceil(gasUsed × baseFee / 1e9)` nAVAX, gasUsed = unsigned tx bytes + 1,000 per signature +
 * 10,000 intrinsic; `baseFee` is the EVM block's base fee in wei, supplied by {@link EvmAtomicBackend}.
 *
 * The EVM itself is behind {@link EvmAtomicBackend}; the lead implements it on the C-chain.
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

export type EVMOutput = { address: Uint8Array; amount: bigint; assetId: Id }
export type EVMInput = { address: Uint8Array; amount: bigint; assetId: Id; nonce: bigint }

export type CImportTx = {
  type: 'ImportTx'
  networkId: number
  blockchainId: Id
  sourceChain: Id
  importedInputs: TransferableInput[]
  outs: EVMOutput[]
}

export type CExportTx = {
  type: 'ExportTx'
  networkId: number
  blockchainId: Id
  destinationChain: Id
  ins: EVMInput[]
  exportedOutputs: TransferableOutput[]
}

export type CAtomicUnsignedTx = CImportTx | CExportTx
export type CAtomicSignedTx = { unsigned: CAtomicUnsignedTx; credentials: Credential[] }

// ---------------------------------------------------------------------------------------------
// Codec (coreth `atomic.Codec`: ImportTx 0, ExportTx 1, TransferInput 5, TransferOutput 7, Credential 9)
// ---------------------------------------------------------------------------------------------

const C_TYPE = { ImportTx: 0, ExportTx: 1, TransferInput: 5, TransferOutput: 7, Credential: 9 } as const

function writeOwners(w: Writer, o: OutputOwners) {
  w.u64(o.locktime).u32(o.threshold).list(o.addrs, (a) => w.fixed(a, 20, 'an address'))
}

function writeUnsignedBody(w: Writer, tx: CAtomicUnsignedTx): void {
  if (tx.type === 'ImportTx') {
    w.u32(C_TYPE.ImportTx).u32(tx.networkId).fixed(tx.blockchainId, 32).fixed(tx.sourceChain, 32)
    w.list(tx.importedInputs, (i) => {
      if (i.input.type !== 'TransferInput') throw new InvalidArgumentError('coreth only registers TransferInput')
      w.fixed(i.txId, 32).u32(i.outputIndex).fixed(i.assetId, 32).u32(C_TYPE.TransferInput).u64(i.input.amount)
      w.list(i.input.sigIndices, (s) => w.u32(s))
    })
    w.list(tx.outs, (o) => w.fixed(o.address, 20, 'an EVM address').u64(o.amount).fixed(o.assetId, 32))
  } else {
    w.u32(C_TYPE.ExportTx).u32(tx.networkId).fixed(tx.blockchainId, 32).fixed(tx.destinationChain, 32)
    w.list(tx.ins, (i) => w.fixed(i.address, 20, 'an EVM address').u64(i.amount).fixed(i.assetId, 32).u64(i.nonce))
    w.list(tx.exportedOutputs, (o) => {
      if (o.output.type !== 'TransferOutput') throw new InvalidArgumentError('coreth only registers TransferOutput')
      w.fixed(o.assetId, 32).u32(C_TYPE.TransferOutput).u64(o.output.amount)
      writeOwners(w, o.output.owners)
    })
  }
}

export function encodeCUnsignedTx(tx: CAtomicUnsignedTx): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION)
  writeUnsignedBody(w, tx)
  return w.finish()
}

export function encodeCSignedTx(tx: CAtomicSignedTx): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION)
  writeUnsignedBody(w, tx.unsigned)
  w.list(tx.credentials, (c) => {
    w.u32(C_TYPE.Credential)
    w.list(c.sigs, (s) => w.fixed(s, 65, 'a signature'))
  })
  return w.finish()
}

/** Decodes a signed coreth atomic tx (as `avax.issueTx` receives it). */
export function decodeCSignedTx(bytes: Uint8Array): CAtomicSignedTx {
  const r = new Reader(bytes)
  const version = r.u16()
  if (version !== CODEC_VERSION) throw new InvalidArgumentError(`unknown codec version: ${version}`)
  const typeId = r.u32()
  const networkId = r.u32()
  const blockchainId = r.fixed(32)
  const peer = r.fixed(32)
  let unsigned: CAtomicUnsignedTx
  if (typeId === C_TYPE.ImportTx) {
    const importedInputs = r.list(() => {
      const txId = r.fixed(32)
      const outputIndex = r.u32()
      const assetId = r.fixed(32)
      const t = r.u32()
      if (t !== C_TYPE.TransferInput) throw new InvalidArgumentError(`unknown type ID ${t}`)
      const amount = r.u64()
      const sigIndices = r.list(() => r.u32())
      return { txId, outputIndex, assetId, input: { type: 'TransferInput' as const, amount, sigIndices } }
    })
    const outs = r.list(() => ({ address: r.fixed(20), amount: r.u64(), assetId: r.fixed(32) }))
    unsigned = { type: 'ImportTx', networkId, blockchainId, sourceChain: peer, importedInputs, outs }
  } else if (typeId === C_TYPE.ExportTx) {
    const ins = r.list(() => ({ address: r.fixed(20), amount: r.u64(), assetId: r.fixed(32), nonce: r.u64() }))
    const exportedOutputs = r.list(() => {
      const assetId = r.fixed(32)
      const t = r.u32()
      if (t !== C_TYPE.TransferOutput) throw new InvalidArgumentError(`unknown type ID ${t}`)
      const amount = r.u64()
      const locktime = r.u64()
      const threshold = r.u32()
      const addrs = r.list(() => r.fixed(20))
      return { assetId, output: { type: 'TransferOutput' as const, amount, owners: { locktime, threshold, addrs } } }
    })
    unsigned = { type: 'ExportTx', networkId, blockchainId, destinationChain: peer, ins, exportedOutputs }
  } else throw new InvalidArgumentError(`unknown type ID ${typeId}`)
  const credentials = r.list(() => {
    const t = r.u32()
    if (t !== C_TYPE.Credential) throw new InvalidArgumentError(`unknown type ID ${t}`)
    return { sigs: r.list(() => r.fixed(65)) }
  })
  return { unsigned, credentials }
}

// ---------------------------------------------------------------------------------------------
// Fees
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Verification and execution
// ---------------------------------------------------------------------------------------------

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
  /** The C-chain block that holds the tx's EVM effects, once sealed (see {@link CChainAtomic.recordBlock}). */
  block?: { height: number; hash: string; timestamp: number }
}

export type CAtomicSnapshot = { accepted: Array<[string, AcceptedAtomicTx]> }

const ethHex = (a: Uint8Array): Hex => bytesToHex(a)

export class CChainAtomic {
  readonly networkId: number
  readonly chainId: string
  readonly avaxAssetId: string
  readonly sharedMemory: SharedMemory
  readonly evm: EvmAtomicBackend
  readonly #clock: { now(): number }
  readonly #subnetOf: (chainId: string) => string | undefined
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

  /** `verify.SameSubnet`, mapped to `ErrWrongChainID` as coreth does. */
  #checkPeer(peer: Id): void {
    const p = idToString(peer)
    if (p === this.chainId || this.#subnetOf(p) !== EMPTY_ID) fail('cWrongChainID')
  }

  /**
   * Verifies `tx` (coreth `Verify` + `semanticVerifier` + the EVM state transfer checks) without
   * changing anything. Returns the fee it burns and the gas it uses.
   */
  verify(tx: CAtomicSignedTx, baseFee: bigint = this.evm.baseFee()): { burnedFee: bigint; gasUsed: bigint; utxos: Utxo[] } {
    const u = tx.unsigned
    const avax = idFromString(this.avaxAssetId)
    const unsignedBytes = encodeCUnsignedTx(u)
    const gasUsed = atomicGasUsed(u)
    const fee = calculateDynamicFee(gasUsed, baseFee)
    if (u.type === 'ImportTx') {
      if (u.importedInputs.length === 0) fail('cNoImportInputs')
      if (u.networkId !== this.networkId) fail('cWrongNetworkID')
      if (!equalBytes(u.blockchainId, idFromString(this.chainId))) fail('cWrongChainID')
      if (u.outs.length === 0) fail('cNoEVMOutputs')
      this.#checkPeer(u.sourceChain)
      for (const out of u.outs) {
        if (out.amount === 0n) fail('cNoValueOutput', `EVM Output failed verification: ${'output has no value'}`)
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
        values = this.sharedMemory.get(source, this.chainId, u.importedInputs.map((i) => inputId(i.txId, i.outputIndex)))
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
          verifyCredentials(this.#clock.now(), txHash, input.input.sigIndices, tx.credentials[i]!, utxo.output.owners)
        } catch (err) {
          if (err instanceof XChainTxError) fail(err.code as never, `import tx transfer failed verification: ${err.shortMessage}`)
          throw err
        }
      })
      return { burnedFee: consumed - (produced - fee), gasUsed, utxos }
    }

    // ExportTx
    if (u.exportedOutputs.length === 0) fail('cNoExportOutputs')
    if (u.networkId !== this.networkId) fail('cWrongNetworkID')
    if (!equalBytes(u.blockchainId, idFromString(this.chainId))) fail('cWrongChainID')
    this.#checkPeer(u.destinationChain)
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
      if (this.evm.getBalance(input.address) < input.amount * X2C_RATE) fail('cInsufficientFunds')
      if (this.evm.getNonce(input.address) !== input.nonce) fail('cInvalidNonce')
    }
    return { burnedFee: consumed - (produced - fee), gasUsed, utxos: [] }
  }

  /**
   * Verifies and accepts `tx`: moves the value on the EVM side and applies the shared-memory
   * requests. Throws {@link XChainTxError} with coreth's message and changes nothing if invalid.
   */
  issueTx(input: CAtomicSignedTx | Uint8Array, baseFee: bigint = this.evm.baseFee()): AcceptedAtomicTx {
    const tx = input instanceof Uint8Array ? decodeCSignedTx(input) : input
    const bytes = input instanceof Uint8Array ? input : encodeCSignedTx(tx)
    const id = sha256(bytes)
    const txId = idToString(id)
    if (this.#accepted.has(txId)) throw new InvalidStateError(`tx ${txId} already accepted`)
    const { gasUsed } = this.verify(tx, baseFee)
    const u = tx.unsigned
    let burned: bigint
    if (u.type === 'ImportTx') {
      this.sharedMemory.apply(this.chainId, new Map([[idToString(u.sourceChain), { removeRequests: u.importedInputs.map((i) => inputId(i.txId, i.outputIndex)) }]]))
      for (const out of u.outs) this.evm.creditEvm(out.address, out.amount * X2C_RATE)
      burned = u.importedInputs.reduce((n, i) => n + (i.input.type === 'TransferInput' ? i.input.amount : 0n), 0n) -
        u.outs.reduce((n, o) => n + o.amount, 0n)
    } else {
      // coreth's AtomicOps: output i of an export is UTXO index i (no plain outputs on the C-chain).
      const elements = u.exportedOutputs.map((o, i) =>
        atomicElement(inputId(id, i), { txId: id, outputIndex: i, assetId: o.assetId, output: o.output }, 'X'),
      )
      this.sharedMemory.apply(this.chainId, new Map([[idToString(u.destinationChain), { putRequests: elements }]]))
      for (const i of u.ins) this.evm.debitEvm(i.address, i.amount * X2C_RATE, i.nonce)
      burned = u.ins.reduce((n, i) => n + i.amount, 0n) -
        u.exportedOutputs.reduce((n, o) => n + (o.output.type === 'TransferOutput' ? o.output.amount : 0n), 0n)
    }
    const accepted: AcceptedAtomicTx = { txId, tx, bytes, burned, gasUsed, timestamp: this.#clock.now() }
    this.#accepted.set(txId, accepted)
    return accepted
  }

  getTx(txId: string): AcceptedAtomicTx | undefined {
    return this.#accepted.get(txId)
  }

  /** Every accepted atomic tx, in acceptance order (the platform indexer reads this history). */
  acceptedTxs(): AcceptedAtomicTx[] {
    return [...this.#accepted.values()]
  }

  /** Records the C-chain block that sealed `txId`'s EVM effects. */
  recordBlock(txId: string, block: { height: number; hash: string; timestamp: number }): void {
    const accepted = this.#accepted.get(txId)
    if (accepted) this.#accepted.set(txId, { ...accepted, block })
  }

  snapshot(): CAtomicSnapshot {
    return { accepted: structuredClone([...this.#accepted.entries()]) }
  }

  restore(s: CAtomicSnapshot): void {
    this.#accepted = new Map(structuredClone(s.accepted))
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

/** Signs a coreth atomic tx: sha256(unsigned bytes), one credential per input. */
export function signCTx(unsigned: CAtomicUnsignedTx, signers: Uint8Array[][]): CAtomicSignedTx {
  const hash = sha256(encodeCUnsignedTx(unsigned))
  return { unsigned, credentials: signers.map((keys) => ({ sigs: keys.map((k) => signHash(k, hash)) })) }
}

export const cAtomicTxId = (tx: CAtomicSignedTx): string => idToString(sha256(encodeCSignedTx(tx)))
export { ethHex }
