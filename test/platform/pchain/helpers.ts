import { sha256 } from '@noble/hashes/sha2.js'
import { idFromString, idToString } from '../../../src/core/ids.js'
import { createNodeIdentity } from '../../../src/core/keys.js'
import { encodeAddressedCall, encodeMessage } from '../../../src/evm/warp/codec.js'
import { canonicalValidatorSet, signMessage } from '../../../src/evm/warp/signature.js'
import { PChain, type AtomicMemory, type TxAuth, canonicalJson, pchainConfig, utxoKey } from '../../../src/platform/pchain/index.js'
import type { OutputOwners, PChainSignedTx, PChainUnsignedTx, TransferableInput, TransferableOutput, Utxo } from '../../../src/platform/txs.js'

export const T0 = 1_767_225_600
export const DAY = 86_400
export const AVAX = 1_000_000_000n
export const AVAX_ID = idToString(sha256(new TextEncoder().encode('avax')))
export const avaxId = () => idFromString(AVAX_ID)
export const P_CHAIN = new Uint8Array(32)
export const X_CHAIN = sha256(new TextEncoder().encode('x-chain'))

export const addr = (n: number) => new Uint8Array(20).fill(n)
export const nodeId = (n: number) => { const b = new Uint8Array(20); b[0] = 0xaa; b[19] = n; return b }
export const owners = (a: Uint8Array, threshold = 1): OutputOwners => ({ locktime: 0n, threshold, addrs: [a] })

/** Test signature scheme: a "signature" is 65 bytes whose first 20 are the signer's address. */
export const sig = (a: Uint8Array) => { const s = new Uint8Array(65); s.set(a); return s }
export const fakeAuth = (tx: PChainSignedTx): TxAuth => ({
  txId: sha256(new TextEncoder().encode(canonicalJson(tx.unsigned))),
  signers: tx.credentials.map((c) => c.sigs.map((s) => s.slice(0, 20))),
})

export class MemAtomic implements AtomicMemory {
  m = new Map<string, Map<string, Utxo>>()
  get(source: string, keys: string[]): Utxo[] {
    return keys.map((k) => { const u = this.m.get(source)?.get(k); if (!u) throw new Error('not found'); return u })
  }
  consume(source: string, keys: string[]) { for (const k of keys) this.m.get(source)?.delete(k) }
  export(dest: string, utxos: Utxo[]) {
    const m = this.m.get(dest) ?? new Map<string, Utxo>()
    for (const u of utxos) m.set(utxoKey(u.txId, u.outputIndex), u)
    this.m.set(dest, m)
  }
  put(source: string, u: Utxo) { this.export(source, [u]); this.m.set(source, this.m.get(source)!) }
}

export const GENESIS_TX = sha256(new TextEncoder().encode('genesis'))

export function makeChain(opts: { durangoTime?: number; uptime?: (nodeId: string) => number } = {}) {
  const atomic = new MemAtomic()
  const sets = new Map<string, readonly { nodeId: string; weight: bigint; validationId?: string; isActive?: false }[]>()
  const chain = new PChain({
    config: pchainConfig('local', { avaxAssetId: AVAX_ID, upgrades: { durangoTime: opts.durangoTime ?? 0, etnaTime: opts.durangoTime ?? 0 } }),
    genesisTimestamp: T0,
    initialSupply: 360_000_000n * AVAX,
    genesis: { utxos: [1, 2, 3].map((n, i) => ({ txId: GENESIS_TX, outputIndex: i, assetId: avaxId(), output: { type: 'TransferOutput' as const, amount: 1_000_000n * AVAX, owners: owners(addr(n)) } })) },
    authenticate: fakeAuth,
    atomic,
    ...(opts.uptime ? { uptime: (n: string) => opts.uptime!(n) } : {}),
    listener: { set: (id, entries) => sets.set(id, entries) },
  })
  return { chain, atomic, sets }
}

export const input = (txId: Uint8Array, outputIndex: number, amount: bigint): TransferableInput => ({ txId, outputIndex, assetId: avaxId(), input: { type: 'TransferInput', amount, sigIndices: [0] } })
export const output = (amount: bigint, to: Uint8Array): TransferableOutput => ({ assetId: avaxId(), output: { type: 'TransferOutput', amount, owners: owners(to) } })
export const base = (ins: TransferableInput[], outs: TransferableOutput[]) => ({ networkId: 12345, blockchainId: P_CHAIN, inputs: ins, outputs: outs, memo: new Uint8Array() })

/** Builds a tx spending one UTXO of `from`, with a change output computed from the fee. */
export function spend<T extends PChainUnsignedTx & { base: ReturnType<typeof base> }>(
  chain: PChain, from: { txId: Uint8Array; index: number; amount: bigint; owner: Uint8Array }, burn: bigint,
  make: (b: ReturnType<typeof base>) => T, signers: Uint8Array[][] = [[from.owner]],
): PChainSignedTx {
  const draft = make(base([input(from.txId, from.index, from.amount)], [output(1n, from.owner)]))
  const fee = chain.fee(draft)
  const change = from.amount - burn - fee
  const unsigned = make(base([input(from.txId, from.index, from.amount)], [output(change, from.owner)]))
  return { unsigned, credentials: signers.map((s) => ({ sigs: s.map(sig) })) }
}

export const idOf = (tx: PChainSignedTx) => fakeAuth(tx).txId

/** BLS identities for L1 validators (their keys sign the L1's warp messages). */
export const blsNode = (i: number) => createNodeIdentity(new Uint8Array(32).fill(200 + i))

/** A warp message from `sourceChainId` carrying `payload`, signed by `signers` out of `subnetId`'s current validators on `chain`. */
export function warpMessage(chain: PChain, subnetId: string, signers: readonly { blsSecretKey: Uint8Array }[], sourceChainId: Uint8Array, sourceAddress: Uint8Array, payload: Uint8Array): Uint8Array {
  const unsigned = { networkId: 12345, sourceChainId, payload: encodeAddressedCall(sourceAddress, payload) }
  return encodeMessage(unsigned, signMessage(unsigned, signers, canonicalValidatorSet(chain.validatorSets().get(subnetId) ?? [])))
}
