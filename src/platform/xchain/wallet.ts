import { sha256 } from '../../core/sha256.js'
import { shortIdFromPublicKey } from '../../core/address.js'
import { InvalidArgumentError, InvalidStateError } from '../../core/errors.js'
import { hexToBytes, type Hex } from '../../core/hex.js'
import { idFromString, idToString } from '../../core/ids.js'
import type { DevAccount } from '../../core/keys.js'
import { decodeUtxo, encodeUnsignedTx } from '../codec.js'
import type {
  AvaxBaseTx,
  Credential,
  Id,
  MintOutput,
  OutputOwners,
  ShortId,
  TransferableInput,
  TransferableOutput,
  TransferOutput,
  Utxo,
  XChainSignedTx,
  XChainUnsignedTx,
} from '../txs.js'
import { compareBytes, hexKey, outputSortBytes, publicKeyOf, pubKeyToShortId, signHash } from './bytes.js'
import { addressBytes, type XChain, type XGenesisAllocation } from './chain.js'

/**
 * Builds and signs X-chain transactions from a set of private keys, as the wallet SDKs do
 * (avalanchego `wallet/chain/x/builder`): picks unlocked UTXOs the keys can spend, pays the fee
 * in AVAX, returns change, sorts inputs and outputs, and signs one credential per input.
 */

/** Private keys indexed by the X/P address (`ripemd160(sha256(compressed pubkey))`) they control. */
export class Keychain {
  readonly #keys = new Map<Hex, Uint8Array>()

  constructor(privateKeys: Array<Uint8Array | Hex> = []) {
    for (const k of privateKeys) this.add(k)
  }

  /** Adds a 32-byte private key; returns its address. */
  add(privateKey: Uint8Array | Hex): ShortId {
    const key = typeof privateKey === 'string' ? hexToBytes(privateKey) : privateKey
    if (key.length !== 32) throw new InvalidArgumentError(`expected a 32-byte private key but got ${key.length} bytes`)
    const addr = pubKeyToShortId(publicKeyOf(key))
    this.#keys.set(hexKey(addr), key)
    return addr
  }

  get(addr: ShortId): Uint8Array | undefined {
    return this.#keys.get(hexKey(addr))
  }

  addresses(): ShortId[] {
    return [...this.#keys.keys()].map((k) => hexToBytes(k)).sort(compareBytes)
  }

  /**
   * `Keychain.Spend`: the signature indices and keys that satisfy `owners` at `now`, or undefined
   * when locked or when the keys do not reach the threshold.
   */
  match(owners: OutputOwners, now: bigint): { sigIndices: number[]; keys: Uint8Array[] } | undefined {
    if (owners.locktime > now) return undefined
    const sigIndices: number[] = []
    const keys: Uint8Array[] = []
    for (let i = 0; i < owners.addrs.length && sigIndices.length < owners.threshold; i++) {
      const key = this.get(owners.addrs[i]!)
      if (key) {
        sigIndices.push(i)
        keys.push(key)
      }
    }
    return sigIndices.length === owners.threshold ? { sigIndices, keys } : undefined
  }
}

/** Signs `unsigned`: credential `i` holds one signature per key in `signers[i]`, over sha256(unsigned bytes). */
export function signXTx(unsigned: XChainUnsignedTx, signers: Uint8Array[][]): XChainSignedTx {
  const hash = sha256(encodeUnsignedTx('X', unsigned))
  const credentials: Credential[] = signers.map((keys) => ({ sigs: keys.map((k) => signHash(k, hash)) }))
  return { unsigned, credentials }
}

/** X-chain genesis allocations for the EVM dev accounts (same secp256k1 keys, X/P address form). */
export function devAccountAllocations(accounts: readonly DevAccount[], amount: bigint): XGenesisAllocation[] {
  return accounts.map((a) => ({ address: shortIdFromPublicKey(hexToBytes(a.publicKey)), amount }))
}

export function owners(addresses: Array<ShortId | string>, threshold = 1, locktime = 0n): OutputOwners {
  const addrs = addresses.map(addressBytes).sort(compareBytes)
  return { locktime, threshold, addrs }
}

export function compareTransferableOutputs(a: TransferableOutput, b: TransferableOutput): number {
  return compareBytes(a.assetId, b.assetId) || compareBytes(outputSortBytes(a.output), outputSortBytes(b.output))
}

type Signed<T> = { item: T; keys: Uint8Array[] }

function sortInputs(ins: Signed<TransferableInput>[]): Signed<TransferableInput>[] {
  return ins.sort((a, b) => compareBytes(a.item.txId, b.item.txId) || a.item.outputIndex - b.item.outputIndex)
}

export type Recipient = { address: ShortId | string; amount: bigint; assetId?: string; locktime?: bigint }

export class XWallet {
  readonly chain: XChain
  readonly keychain: Keychain
  /** Where change goes; default the keychain's first address. */
  changeAddress: ShortId

  constructor(chain: XChain, keychain: Keychain, changeAddress?: ShortId | string) {
    this.chain = chain
    this.keychain = keychain
    const first = changeAddress ?? keychain.addresses()[0]
    if (!first) throw new InvalidArgumentError('the keychain has no keys')
    this.changeAddress = addressBytes(first)
  }

  #base(outputs: TransferableOutput[], inputs: TransferableInput[], memo?: Uint8Array): AvaxBaseTx {
    return {
      networkId: this.chain.networkId,
      blockchainId: idFromString(this.chain.chainId),
      outputs: outputs.sort(compareTransferableOutputs),
      inputs,
      memo: memo ?? new Uint8Array(),
    }
  }

  /**
   * Inputs covering `needs` (asset cb58 → amount, the fee included) from the keychain's UTXOs,
   * and change outputs for any excess.
   */
  spend(needs: Map<string, bigint>): { inputs: Signed<TransferableInput>[]; change: TransferableOutput[] } {
    const now = BigInt(this.chain.now())
    const remaining = new Map([...needs].filter(([, v]) => v > 0n))
    const inputs: Signed<TransferableInput>[] = []
    const change: TransferableOutput[] = []
    const seen = new Set<string>()
    for (const addr of this.keychain.addresses()) {
      for (const entry of this.chain.utxosOf(addr)) {
        if (remaining.size === 0) break
        if (seen.has(entry.utxoId)) continue
        const { utxo } = entry
        const assetId = idToString(utxo.assetId)
        const need = remaining.get(assetId)
        if (need === undefined || utxo.output.type !== 'TransferOutput') continue
        const m = this.keychain.match(utxo.output.owners, now)
        if (!m) continue
        seen.add(entry.utxoId)
        const amount = utxo.output.amount
        inputs.push({ item: transferInput(utxo, m.sigIndices), keys: m.keys })
        if (amount >= need) {
          remaining.delete(assetId)
          if (amount > need) change.push(transferOutput(utxo.assetId, amount - need, owners([this.changeAddress])))
        } else remaining.set(assetId, need - amount)
      }
    }
    if (remaining.size > 0) {
      const [assetId, amount] = [...remaining][0]!
      throw new InvalidStateError(`insufficient funds: needs ${amount} more ${assetId}`)
    }
    return { inputs: sortInputs(inputs), change }
  }

  #needs(extra: Array<[string, bigint]>, fee: bigint): Map<string, bigint> {
    const m = new Map<string, bigint>([[this.chain.avaxAssetId, fee]])
    for (const [a, v] of extra) m.set(a, (m.get(a) ?? 0n) + v)
    return m
  }

  /** A BaseTx paying `recipients` (AVAX unless `assetId`). */
  send(recipients: Recipient[], memo?: Uint8Array): XChainSignedTx {
    const outs = recipients.map((r) =>
      transferOutput(idFromString(r.assetId ?? this.chain.avaxAssetId), r.amount, owners([r.address], 1, r.locktime ?? 0n)),
    )
    const { inputs, change } = this.spend(
      this.#needs(recipients.map((r) => [r.assetId ?? this.chain.avaxAssetId, r.amount]), this.chain.txFee),
    )
    const base = this.#base([...outs, ...change], inputs.map((i) => i.item), memo)
    return signXTx({ type: 'BaseTx', base }, inputs.map((i) => i.keys))
  }

  /** A CreateAssetTx with secp256k1fx initial holders and minters. */
  createAsset(args: {
    name: string
    symbol: string
    denomination: number
    holders?: Array<{ address: ShortId | string; amount: bigint }>
    minters?: Array<{ addresses: Array<ShortId | string>; threshold?: number }>
    memo?: Uint8Array
  }): XChainSignedTx {
    const outputs: Array<TransferOutput | MintOutput> = [
      ...(args.holders ?? []).map(
        (h): TransferOutput => ({ type: 'TransferOutput', amount: h.amount, owners: owners([h.address]) }),
      ),
      ...(args.minters ?? []).map(
        (m): MintOutput => ({ type: 'MintOutput', owners: owners(m.addresses, m.threshold ?? 1) }),
      ),
    ].sort((a, b) => compareBytes(outputSortBytes(a), outputSortBytes(b)))
    const { inputs, change } = this.spend(this.#needs([], this.chain.createAssetTxFee))
    const base = this.#base(change, inputs.map((i) => i.item), args.memo)
    return signXTx(
      {
        type: 'CreateAssetTx',
        base,
        name: args.name,
        symbol: args.symbol,
        denomination: args.denomination,
        initialStates: [{ fxIndex: 0, outputs }],
      },
      inputs.map((i) => i.keys),
    )
  }

  /** An OperationTx minting `amount` of `assetId` to `to` with a MintOutput the keychain controls. */
  mint(args: { assetId: string; amount: bigint; to: ShortId | string }): XChainSignedTx {
    const now = BigInt(this.chain.now())
    let found: { utxo: Utxo; sigIndices: number[]; keys: Uint8Array[] } | undefined
    for (const addr of this.keychain.addresses()) {
      for (const { utxo } of this.chain.utxosOf(addr)) {
        if (idToString(utxo.assetId) !== args.assetId || utxo.output.type !== 'MintOutput') continue
        const m = this.keychain.match(utxo.output.owners, now)
        if (m) {
          found = { utxo, ...m }
          break
        }
      }
      if (found) break
    }
    if (!found) throw new InvalidStateError(`no mint output of ${args.assetId} spendable by the keychain`)
    const mintOut = found.utxo.output as MintOutput
    const { inputs, change } = this.spend(this.#needs([], this.chain.txFee))
    const base = this.#base(change, inputs.map((i) => i.item))
    return signXTx(
      {
        type: 'OperationTx',
        base,
        operations: [
          {
            assetId: found.utxo.assetId,
            utxoIds: [{ txId: found.utxo.txId, outputIndex: found.utxo.outputIndex }],
            op: {
              type: 'MintOperation',
              mintInput: { sigIndices: found.sigIndices },
              mintOutput: { type: 'MintOutput', owners: mintOut.owners },
              transferOutput: { type: 'TransferOutput', amount: args.amount, owners: owners([args.to]) },
            },
          },
        ],
      },
      [...inputs.map((i) => i.keys), found.keys],
    )
  }

  /** An ExportTx of `amount` (AVAX unless `assetId`) to `to` on `destinationChain` (cb58). */
  export(args: { destinationChain: string; to: ShortId | string; amount: bigint; assetId?: string }): XChainSignedTx {
    const assetId = args.assetId ?? this.chain.avaxAssetId
    const exported = [transferOutput(idFromString(assetId), args.amount, owners([args.to]))]
    const { inputs, change } = this.spend(this.#needs([[assetId, args.amount]], this.chain.txFee))
    const base = this.#base(change, inputs.map((i) => i.item))
    return signXTx(
      { type: 'ExportTx', base, destinationChain: idFromString(args.destinationChain), exportedOutputs: exported },
      inputs.map((i) => i.keys),
    )
  }

  /**
   * An ImportTx of every UTXO `sourceChain` exported to the keychain's addresses, to `to`
   * (default the change address), the fee taken from the imported AVAX.
   */
  import(args: { sourceChain: string; to?: ShortId | string }): XChainSignedTx {
    const now = BigInt(this.chain.now())
    const to = args.to ?? this.changeAddress
    const addrs = this.keychain.addresses()
    const { values } = this.chain.sharedMemory.indexed(
      args.sourceChain,
      this.chain.chainId,
      addrs,
      new Uint8Array(),
      new Uint8Array(),
      1024,
    )
    const imported: Signed<TransferableInput>[] = []
    const totals = new Map<string, bigint>()
    for (const v of values) {
      const utxo = decodeUtxo('X', v)
      if (utxo.output.type !== 'TransferOutput') continue
      const m = this.keychain.match(utxo.output.owners, now)
      if (!m) continue
      imported.push({ item: transferInput(utxo, m.sigIndices), keys: m.keys })
      const a = idToString(utxo.assetId)
      totals.set(a, (totals.get(a) ?? 0n) + utxo.output.amount)
    }
    if (imported.length === 0) throw new InvalidStateError('no spendable funds were found')
    const avax = totals.get(this.chain.avaxAssetId) ?? 0n
    let baseInputs: Signed<TransferableInput>[] = []
    const outs: TransferableOutput[] = []
    if (avax >= this.chain.txFee) {
      totals.set(this.chain.avaxAssetId, avax - this.chain.txFee)
    } else {
      // Not enough imported AVAX for the fee: pay it from this chain's UTXOs.
      const { inputs, change } = this.spend(this.#needs([], this.chain.txFee - avax))
      baseInputs = inputs
      outs.push(...change)
      totals.set(this.chain.avaxAssetId, 0n)
    }
    for (const [assetId, amount] of totals)
      if (amount > 0n) outs.push(transferOutput(idFromString(assetId), amount, owners([to])))
    const sortedImported = sortInputs(imported)
    const base = this.#base(outs, baseInputs.map((i) => i.item))
    return signXTx(
      { type: 'ImportTx', base, sourceChain: idFromString(args.sourceChain), importedInputs: sortedImported.map((i) => i.item) },
      [...baseInputs.map((i) => i.keys), ...sortedImported.map((i) => i.keys)],
    )
  }
}

export function transferOutput(assetId: Id, amount: bigint, o: OutputOwners): TransferableOutput {
  return { assetId, output: { type: 'TransferOutput', amount, owners: o } }
}

export function transferInput(utxo: Utxo, sigIndices: number[]): TransferableInput {
  if (utxo.output.type !== 'TransferOutput') throw new InvalidArgumentError('not a TransferOutput')
  return {
    txId: utxo.txId,
    outputIndex: utxo.outputIndex,
    assetId: utxo.assetId,
    input: { type: 'TransferInput', amount: utxo.output.amount, sigIndices },
  }
}
