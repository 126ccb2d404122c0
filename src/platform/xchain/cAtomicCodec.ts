import { sha256 } from '../../core/sha256.js'
import { DecodeError, InvalidArgumentError } from '../../core/errors.js'
import { idToString } from '../../core/ids.js'
import { CODEC_VERSION, Reader, Writer } from '../codec.js'
import type { Credential, Id, OutputOwners, TransferableInput, TransferableOutput } from '../txs.js'
import { signHash } from './bytes.js'

/**
 * The C-chain's atomic transactions as coreth's `atomic.Codec` writes them: UnsignedImportTx (type
 * 0), UnsignedExportTx (1), secp256k1fx TransferInput (5), TransferOutput (7) and Credential (9).
 * AVAX amounts are in nAVAX, EVM addresses 20 bytes.
 */

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

/** Go's names of the types coreth's atomic codec registers, by type id. */
const C_TYPE_NAMES = new Map<number, string>([
  [0, '*atomic.UnsignedImportTx'],
  [1, '*atomic.UnsignedExportTx'],
  [5, '*secp256k1fx.TransferInput'],
  [7, '*secp256k1fx.TransferOutput'],
  [9, '*secp256k1fx.Credential'],
  [10, '*secp256k1fx.Input'],
  [11, '*secp256k1fx.OutputOwners'],
])

/** The linear codec's `UnpackPrefix` check: type `id` must be registered and be `want`. */
function expectType(id: number, want: number, iface: string): void {
  if (id === want) return
  const name = C_TYPE_NAMES.get(id)
  if (name === undefined) throw new DecodeError(`couldn't unmarshal interface: unknown type ID ${id}`)
  throw new DecodeError(`couldn't unmarshal interface: ${name} does not implement interface ${iface}`)
}

/** Decodes a signed coreth atomic tx (as `avax.issueTx` receives it); throws DecodeError with the codec's message. */
export function decodeCSignedTx(bytes: Uint8Array): CAtomicSignedTx {
  const r = new Reader(bytes)
  if (r.remaining < 2) throw new DecodeError("couldn't unpack codec version")
  if (r.u16() !== CODEC_VERSION) throw new DecodeError('unknown codec version')
  const typeId = r.u32()
  if (typeId !== C_TYPE.ImportTx) expectType(typeId, C_TYPE.ExportTx, 'atomic.UnsignedAtomicTx')
  const networkId = r.u32()
  const blockchainId = r.fixed(32)
  const peer = r.fixed(32)
  let unsigned: CAtomicUnsignedTx
  if (typeId === C_TYPE.ImportTx) {
    const importedInputs = r.list(() => {
      const txId = r.fixed(32)
      const outputIndex = r.u32()
      const assetId = r.fixed(32)
      expectType(r.u32(), C_TYPE.TransferInput, 'avax.TransferableIn')
      const amount = r.u64()
      const sigIndices = r.list(() => r.u32())
      return { txId, outputIndex, assetId, input: { type: 'TransferInput' as const, amount, sigIndices } }
    })
    const outs = r.list(() => ({ address: r.fixed(20), amount: r.u64(), assetId: r.fixed(32) }))
    unsigned = { type: 'ImportTx', networkId, blockchainId, sourceChain: peer, importedInputs, outs }
  } else {
    const ins = r.list(() => ({ address: r.fixed(20), amount: r.u64(), assetId: r.fixed(32), nonce: r.u64() }))
    const exportedOutputs = r.list(() => {
      const assetId = r.fixed(32)
      expectType(r.u32(), C_TYPE.TransferOutput, 'avax.TransferableOut')
      const amount = r.u64()
      const locktime = r.u64()
      const threshold = r.u32()
      const addrs = r.list(() => r.fixed(20))
      return { assetId, output: { type: 'TransferOutput' as const, amount, owners: { locktime, threshold, addrs } } }
    })
    unsigned = { type: 'ExportTx', networkId, blockchainId, destinationChain: peer, ins, exportedOutputs }
  }
  const credentials = r.list(() => {
    expectType(r.u32(), C_TYPE.Credential, 'verify.Verifiable')
    return { sigs: r.list(() => r.fixed(65)) }
  })
  r.end()
  return { unsigned, credentials }
}

/** Signs a coreth atomic tx: sha256(unsigned bytes), one credential per input. */
export function signCTx(unsigned: CAtomicUnsignedTx, signers: Uint8Array[][]): CAtomicSignedTx {
  const hash = sha256(encodeCUnsignedTx(unsigned))
  return { unsigned, credentials: signers.map((keys) => ({ sigs: keys.map((k) => signHash(k, hash)) })) }
}

export const cAtomicTxId = (tx: CAtomicSignedTx): string => idToString(sha256(encodeCSignedTx(tx)))
