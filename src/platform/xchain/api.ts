import { sha256 } from '../../core/sha256.js'
import { formatAddress, hrpForNetworkId, parseAddress } from '../../core/address.js'
import { cb58Decode } from '../../core/cb58.js'
import { bytesToHex } from '../../core/hex.js'
import { EMPTY_ID, idFromString, idToString, vmIdFromName } from '../../core/ids.js'
import { NETWORK_PRESETS } from '../../core/presets.js'
import { encodeUtxo } from '../codec.js'
import type {
  Credential,
  Id,
  MintOutput,
  Output,
  OutputOwners,
  ShortId,
  TransferableInput,
  TransferableOutput,
  TransferOutput,
  XChainSignedTx,
} from '../txs.js'
import { compareBytes, concat } from './bytes.js'
import type { XChain } from './chain.js'
import { XChainTxError } from './errors.js'

/**
 * Result builders for the avm JSON-RPC methods (vms/avm/service.go), pure over an {@link XChain}:
 * they take the decoded params and return the `result` object, or throw {@link AvmApiError} with
 * the message the node returns. `avajson.Uint64` / `Uint32` / `Uint8` fields are quoted strings.
 */

export class AvmApiError extends XChainTxError {
  override name = 'AvmApiError'
  constructor(message: string) {
    super('api', message)
  }
}

/** `ids.ID{'s','e','c','p','2','5','6','k','1','f','x'}`: secp256k1fx's id, as `fxID` shows it. */
export const SECP256K1FX_ID = vmIdFromName('secp256k1fx')

export const MAX_GET_UTXOS_ADDRS = 1024
export const MAX_PAGE_SIZE = 1024

export type Encoding = 'hex' | 'hexnc' | 'hexc' | 'json'

/** `formatting.Encode`: `hex`/`hexc` append the last 4 bytes of sha256 as a checksum; `hexnc` does not. */
export function formatBytes(encoding: Encoding, bytes: Uint8Array): string {
  if (encoding === 'json') throw new AvmApiError('unsupported encoding in method')
  return encoding === 'hexnc' ? bytesToHex(bytes) : bytesToHex(concat(bytes, sha256(bytes).subarray(28)))
}

function parseEncoding(e: unknown): Encoding {
  if (e === undefined || e === null || e === '') return 'hex'
  const s = String(e).toLowerCase()
  if (s === 'hex' || s === 'hexnc' || s === 'hexc' || s === 'json') return s
  throw new AvmApiError('invalid encoding')
}

/** Aliases of chains by which `sourceChain` and address prefixes may name them. */
export type ChainAliases = { lookup(alias: string): string | undefined }

export function defaultAliases(
  x: XChain,
  pChainId = EMPTY_ID,
  cChainId = Object.values(NETWORK_PRESETS).find((p) => p.xChainId === x.chainId)?.cChainId,
): ChainAliases {
  return {
    lookup(alias) {
      if (alias === 'X' || alias === x.chainId) return x.chainId
      if (alias === 'P' || alias === pChainId) return pChainId
      if (cChainId && (alias === 'C' || alias === cChainId)) return cChainId
      return undefined
    },
  }
}

/** `avax.ParseServiceAddress`: a cb58 short id, or a local bech32 address (`X-…`). */
export function parseServiceAddress(x: XChain, aliases: ChainAliases, addr: string): ShortId {
  try {
    return cb58Decode(addr, 20)
  } catch {
    // fall through to the localized form
  }
  try {
    const parsed = parseAddress(addr)
    const chainId = aliases.lookup(parsed.chainAlias)
    if (chainId === undefined) throw new Error(`there is no ID with alias: ${parsed.chainAlias}`)
    const hrp = hrpForNetworkId(x.networkId)
    if (parsed.hrp !== hrp) throw new Error(`expected hrp "${hrp}" but got "${parsed.hrp}"`)
    if (parsed.bytes.length !== 20) throw new Error(`invalid hash length: expected 20 bytes but got ${parsed.bytes.length}`)
    if (chainId !== x.chainId) throw new Error(`mismatched chainIDs: expected "${x.chainId}" but got "${chainId}"`)
    return parsed.bytes
  } catch (err) {
    throw new AvmApiError(`couldn't parse address "${addr}": ${(err as Error).message}`)
  }
}

function formatLocal(x: XChain, addr: ShortId): string {
  return formatAddress('X', hrpForNetworkId(x.networkId), addr)
}

/** `vm.lookupAssetID`: an alias (`AVAX`) or a cb58 id. */
export function lookupAssetId(x: XChain, asset: string): string {
  const aliased = x.state.resolveAlias(asset)
  if (aliased) return aliased
  try {
    idFromString(asset)
    return asset
  } catch {
    throw new AvmApiError(`asset '${asset}' not found`)
  }
}

// --- avm.getBalance ---

export type GetBalanceParams = { address: string; assetID: string; includePartial?: boolean }
export type GetBalanceResult = { balance: string; utxoIDs: Array<{ txID: string; outputIndex: number }> }

export function getBalance(x: XChain, params: GetBalanceParams, aliases: ChainAliases = defaultAliases(x)): GetBalanceResult {
  let addr: ShortId
  try {
    addr = parseServiceAddress(x, aliases, params.address)
  } catch (err) {
    throw new AvmApiError(`problem parsing address '${params.address}': ${(err as Error).message}`)
  }
  const assetId = lookupAssetId(x, params.assetID)
  const now = BigInt(x.now())
  let balance = 0n
  const utxoIDs: GetBalanceResult['utxoIDs'] = []
  for (const { utxo } of x.utxosOf(addr)) {
    if (idToString(utxo.assetId) !== assetId || utxo.output.type !== 'TransferOutput') continue
    const o = utxo.output.owners
    if (!params.includePartial && (o.addrs.length !== 1 || o.locktime > now)) continue
    balance += utxo.output.amount
    utxoIDs.push({ txID: idToString(utxo.txId), outputIndex: utxo.outputIndex })
  }
  return { balance: balance.toString(), utxoIDs }
}

// --- avm.getUTXOs ---

export type GetUTXOsParams = {
  addresses: string[]
  sourceChain?: string
  limit?: number | string
  startIndex?: { address?: string; utxo?: string }
  encoding?: string
}
export type GetUTXOsResult = {
  numFetched: string
  utxos: string[]
  endIndex: { address: string; utxo: string }
  encoding: Encoding
}

export function getUTXOs(x: XChain, params: GetUTXOsParams, aliases: ChainAliases = defaultAliases(x)): GetUTXOsResult {
  const addresses = params.addresses ?? []
  if (addresses.length === 0) throw new AvmApiError('no addresses provided')
  if (addresses.length > MAX_GET_UTXOS_ADDRS)
    throw new AvmApiError(`number of addresses given, ${addresses.length}, exceeds maximum, ${MAX_GET_UTXOS_ADDRS}`)
  const encoding = parseEncoding(params.encoding)
  let sourceChain = x.chainId
  if (params.sourceChain) {
    const id = aliases.lookup(params.sourceChain)
    if (id === undefined)
      throw new AvmApiError(`problem parsing source chainID "${params.sourceChain}": there is no ID with alias: ${params.sourceChain}`)
    sourceChain = id
  }
  const addrs: ShortId[] = []
  const seen = new Set<string>()
  for (const a of addresses) {
    const bytes = parseServiceAddress(x, aliases, a)
    const k = bytesToHex(bytes)
    if (!seen.has(k)) {
      seen.add(k)
      addrs.push(bytes)
    }
  }
  let startAddr: Uint8Array = new Uint8Array(20)
  let startUtxo: Id = new Uint8Array(32)
  const si = params.startIndex ?? {}
  if (si.address || si.utxo) {
    try {
      startAddr = parseServiceAddress(x, aliases, si.address ?? '')
    } catch (err) {
      throw new AvmApiError(`couldn't parse start index address "${si.address ?? ''}": ${(err as Error).message}`)
    }
    try {
      startUtxo = idFromString(si.utxo ?? '')
    } catch (err) {
      throw new AvmApiError(`couldn't parse start index utxo: ${(err as Error).message}`)
    }
  }
  let limit = Number(params.limit ?? 0)
  if (!Number.isFinite(limit) || limit <= 0 || limit > MAX_PAGE_SIZE) limit = MAX_PAGE_SIZE

  let utxoBytes: Uint8Array[]
  let endAddr: Uint8Array
  let endUtxo: Uint8Array
  if (sourceChain === x.chainId) {
    const page = paginatedUtxos(x, addrs, startAddr, startUtxo, limit)
    utxoBytes = page.utxos
    endAddr = page.lastAddr
    endUtxo = page.lastUtxo
  } else {
    const r = x.sharedMemory.indexed(sourceChain, x.chainId, addrs, startAddr, startUtxo, limit)
    utxoBytes = r.values
    endAddr = r.lastTrait.length === 20 ? r.lastTrait : new Uint8Array(20)
    endUtxo = r.lastKey.length === 32 ? r.lastKey : new Uint8Array(32)
  }
  return {
    numFetched: String(utxoBytes.length),
    utxos: utxoBytes.map((b) => formatBytes(encoding === 'json' ? 'hex' : encoding, b)),
    endIndex: { address: formatLocal(x, endAddr), utxo: idToString(endUtxo) },
    encoding,
  }
}

/** `avax.GetPaginatedUTXOs` over the X-chain's address index (newest first per address). */
function paginatedUtxos(x: XChain, addrs: ShortId[], lastAddrIn: Uint8Array, lastUtxoIn: Id, limitIn: number) {
  const utxos: Uint8Array[] = []
  const seen = new Set<string>()
  let limit = limitIn
  let lastAddr = lastAddrIn
  let lastUtxo = lastUtxoIn
  const sorted = [...addrs].sort(compareBytes)
  for (const addr of sorted) {
    const cmp = compareBytes(addr, lastAddrIn)
    if (cmp < 0) continue
    const start = cmp === 0 ? lastUtxoIn : new Uint8Array(32)
    lastAddr = addr
    let entries = x.utxosOf(addr)
    const startId = idToString(start)
    const at = entries.findIndex((e) => e.utxoId === startId)
    if (at >= 0) entries = entries.slice(at + 1)
    for (const e of entries.slice(0, limit)) {
      lastUtxo = idFromString(e.utxoId)
      if (seen.has(e.utxoId)) continue
      seen.add(e.utxoId)
      utxos.push(encodeUtxo('X', e.utxo))
      if (--limit <= 0) return { utxos, lastAddr, lastUtxo }
    }
  }
  return { utxos, lastAddr, lastUtxo }
}

// --- avm.getAssetDescription ---

export type GetAssetDescriptionResult = { assetID: string; name: string; symbol: string; denomination: string }

export function getAssetDescription(x: XChain, params: { assetID: string }): GetAssetDescriptionResult {
  const assetId = lookupAssetId(x, params.assetID)
  const asset = x.getAsset(assetId)
  if (!asset) {
    if (x.getTx(assetId)) throw new AvmApiError("transaction doesn't create an asset")
    throw new AvmApiError('not found')
  }
  return { assetID: asset.assetId, name: asset.name, symbol: asset.symbol, denomination: String(asset.denomination) }
}

// --- avm.getTx ---

export type GetTxResult = { tx: unknown; encoding: Encoding }

export function getTx(x: XChain, params: { txID: string; encoding?: string }): GetTxResult {
  if (params.txID === EMPTY_ID) throw new AvmApiError('nil transaction ID')
  const stored = x.getTx(params.txID)
  if (!stored) throw new AvmApiError('not found')
  const encoding = parseEncoding(params.encoding)
  if (encoding === 'json') return { tx: txJson(x, stored.tx, stored.txId), encoding }
  return { tx: formatBytes(encoding, stored.bytes), encoding }
}

/**
 * JSON text of a value whose bigints are Go uint64s: written as bare integers (exact, unlike
 * `Number`), as `json.Marshal` writes them. Use it for `getTx` with `encoding: "json"`, whose
 * `tx` is a `json.RawMessage` in the node.
 */
export function stringifyGoJson(value: unknown): string {
  const marks = new Map<string, string>()
  let n = 0
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'bigint') return v
    const mark = `\u0000big${n++}\u0000`
    marks.set(mark, v.toString())
    return mark
  })
  return text.replace(/"\\u0000big\d+\\u0000"/g, (m) => marks.get(JSON.parse(m) as string) ?? m)
}

/**
 * `json.Marshal(tx)` of an avm `txs.Tx` after `txInit` (fx ids set, addresses formatted as `X-…`),
 * as a value: uint64 fields (amounts, locktimes) are bigints — serialize with {@link stringifyGoJson}.
 */
export function txJson(x: XChain, stx: XChainSignedTx, txId: string): unknown {
  const hrp = hrpForNetworkId(x.networkId)
  const addr = (a: ShortId) => formatAddress('X', hrp, a)
  const ownersJson = (o: OutputOwners) => ({ addresses: o.addrs.map(addr), locktime: o.locktime, threshold: o.threshold })
  const outJson = (o: Output): Record<string, unknown> => {
    switch (o.type) {
      case 'TransferOutput':
        return { addresses: o.owners.addrs.map(addr), amount: o.amount, locktime: o.owners.locktime, threshold: o.owners.threshold }
      case 'MintOutput':
        return ownersJson(o.owners)
      case 'StakeableLockOut':
        return { locktime: o.locktime, output: outJson(o.output) }
    }
  }
  const toJson = (o: TransferableOutput) => ({ assetID: idToString(o.assetId), fxID: SECP256K1FX_ID, output: outJson(o.output) })
  const inJson = (i: TransferableInput) => ({
    txID: idToString(i.txId),
    outputIndex: i.outputIndex,
    assetID: idToString(i.assetId),
    fxID: SECP256K1FX_ID,
    input: i.input.type === 'TransferInput' ? { amount: i.input.amount, signatureIndices: i.input.sigIndices } : null,
  })
  const u = stx.unsigned
  const unsignedTx: Record<string, unknown> = {
    networkID: u.base.networkId,
    blockchainID: idToString(u.base.blockchainId),
    outputs: u.base.outputs.map(toJson),
    inputs: u.base.inputs.map(inJson),
    memo: bytesToHex(u.base.memo),
  }
  switch (u.type) {
    case 'BaseTx':
      break
    case 'CreateAssetTx':
      Object.assign(unsignedTx, {
        name: u.name,
        symbol: u.symbol,
        denomination: u.denomination,
        initialStates: u.initialStates.map((s) => ({
          fxIndex: s.fxIndex,
          fxID: SECP256K1FX_ID,
          outputs: s.outputs.map((o: TransferOutput | MintOutput) => outJson(o)),
        })),
      })
      break
    case 'OperationTx':
      Object.assign(unsignedTx, {
        operations: u.operations.map((op) => ({
          assetID: idToString(op.assetId),
          inputIDs: op.utxoIds.map((id) => ({ txID: idToString(id.txId), outputIndex: id.outputIndex })),
          fxID: SECP256K1FX_ID,
          operation: {
            mintInput: { signatureIndices: op.op.mintInput.sigIndices },
            mintOutput: ownersJson(op.op.mintOutput.owners),
            transferOutput: outJson(op.op.transferOutput),
          },
        })),
      })
      break
    case 'ImportTx':
      Object.assign(unsignedTx, { sourceChain: idToString(u.sourceChain), importedInputs: u.importedInputs.map(inJson) })
      break
    case 'ExportTx':
      Object.assign(unsignedTx, { destinationChain: idToString(u.destinationChain), exportedOutputs: u.exportedOutputs.map(toJson) })
      break
  }
  return {
    unsignedTx,
    credentials: stx.credentials.map((c: Credential) => ({
      fxID: SECP256K1FX_ID,
      credential: { signatures: c.sigs.map((s) => bytesToHex(s)) },
    })),
    id: txId,
  }
}
