/**
 * Read-only views of `pchain.state` the platform methods need and `PChain` does not offer: the
 * per-address UTXO index in the order the real `avax.UTXOState` iterates it, subnets and chains in
 * database (id byte) order, and staker attributes from the staker's tx.
 */
import { bytesToHex } from '../../../core/hex.js'
import { parseNodeId } from '../../../core/ids.js'
import { utxoId } from '../../../platform/codec.js'
import type { PChain } from '../../../platform/pchain/chain.js'
import type { Blockchain, Staker, Subnet, UtxoRecord } from '../../../platform/pchain/state.js'
import type { OutputOwners, PChainSignedTx, ProofOfPossession } from '../../../platform/txs.js'
import { NodeRpcError } from '../types.js'
import { compareIds } from './common.js'

/** A UTXO with its id (`InputID`), as the address index lists it. */
export type IndexedUtxo = { id: Uint8Array; idHex: string; record: UtxoRecord }

const strip = (hex: string) => hex.replace(/^0x/, '').toLowerCase()

/**
 * Every UTXO owned (among others) by each of `addrs`, newest first per address, as the real
 * index (a linkeddb per address) iterates. One pass over the UTXO set.
 */
export function utxosByAddress(pchain: PChain, addrs: readonly Uint8Array[]): Map<string, IndexedUtxo[]> {
  const wanted = new Map<string, IndexedUtxo[]>()
  for (const a of addrs) wanted.set(strip(bytesToHex(a)), [])
  // The state's address index, when it has one (same order: UTXO set insertion order).
  const indexed = (pchain.state as { utxosByAddress?: (addressHex: string) => UtxoRecord[] }).utxosByAddress
  if (typeof indexed === 'function') {
    for (const [hex, list] of wanted) {
      for (const record of indexed.call(pchain.state, hex)) {
        const id = utxoId(record.utxo.txId, record.utxo.outputIndex)
        list.push({ id, idHex: bytesToHex(id), record })
      }
      list.reverse()
    }
    return wanted
  }
  for (const record of pchain.state.d.utxos.values()) {
    let entry: IndexedUtxo | undefined
    for (const owner of record.addresses) {
      const list = wanted.get(strip(owner))
      if (!list) continue
      if (!entry) {
        const id = utxoId(record.utxo.txId, record.utxo.outputIndex)
        entry = { id, idHex: bytesToHex(id), record }
      }
      list.push(entry)
    }
  }
  for (const list of wanted.values()) list.reverse()
  return wanted
}

/**
 * `avax.GetPaginatedUTXOs` over the P-chain's UTXO set: addresses in byte order from `startAddr`
 * on, for `startAddr` only the UTXOs after `startUtxo`; at most `limit`, no duplicates. Returns
 * the UTXOs and the last address and UTXO id searched.
 */
export function paginatedUtxos(
  pchain: PChain,
  addrs: readonly Uint8Array[],
  startAddr: Uint8Array,
  startUtxo: Uint8Array,
  limitIn: number,
): { utxos: UtxoRecord[]; lastAddr: Uint8Array; lastUtxo: Uint8Array } {
  const index = utxosByAddress(pchain, addrs)
  const sorted = [...addrs].sort((a, b) => (bytesToHex(a) < bytesToHex(b) ? -1 : bytesToHex(a) > bytesToHex(b) ? 1 : 0))
  const searchSize = limitIn
  let limit = limitIn
  let lastAddr = startAddr
  let lastUtxo = startUtxo
  const seen = new Set<string>()
  const utxos: UtxoRecord[] = []
  const startAddrHex = bytesToHex(startAddr)
  for (const addr of sorted) {
    const addrHex = bytesToHex(addr)
    if (addrHex < startAddrHex) continue
    const startHex = addrHex === startAddrHex ? bytesToHex(startUtxo) : undefined
    lastAddr = addr
    let list = index.get(strip(addrHex)) ?? []
    // linkeddb.NewIteratorWithStart: from the start key when it is in the list (then skipped), else from the head.
    if (startHex !== undefined) {
      const at = list.findIndex((u) => u.idHex === startHex)
      if (at >= 0) list = list.slice(at + 1)
    }
    for (const u of list.slice(0, searchSize)) {
      lastUtxo = u.id
      if (seen.has(u.idHex)) continue
      seen.add(u.idHex)
      utxos.push(u.record)
      if (--limit <= 0) return { utxos, lastAddr, lastUtxo }
    }
  }
  return { utxos, lastAddr, lastUtxo }
}

/** Subnets in id byte order (`GetSubnetIDs`). */
export function sortedSubnets(pchain: PChain): Subnet[] {
  return [...pchain.state.d.subnets.values()].sort((a, b) => compareIds(a.id, b.id))
}

/** Chains of a subnet in id byte order (`GetChains`). */
export function chainsOf(pchain: PChain, subnetId: string): Blockchain[] {
  const out: Blockchain[] = []
  for (const c of pchain.state.d.blockchains.values()) if (c.subnetId === subnetId) out.push(c)
  return out.sort((a, b) => compareIds(a.id, b.id))
}

/** Orders node ids by their bytes (as `subnetIDNodeIDDB` keys sort). */
export function compareNodeIds(a: string, b: string): number {
  const x = bytesToHex(parseNodeId(a))
  const y = bytesToHex(parseNodeId(b))
  return x < y ? -1 : x > y ? 1 : 0
}

/** `stakerAttributes`: what `loadStakerTxAttributes` reads from a staker's tx. */
export type StakerAttributes = {
  shares: number
  rewardsOwner?: OutputOwners
  validationRewardsOwner?: OutputOwners
  delegationRewardsOwner?: OutputOwners
  proofOfPossession?: ProofOfPossession
}

/** `loadStakerTxAttributes`: from the stored staker tx (`not found` when absent, as `state.GetTx`). */
export function stakerAttributes(pchain: PChain, staker: Staker): StakerAttributes {
  const stored = pchain.state.getTx(staker.txId)
  // Genesis validators restored from a snapshot file saved by an older l1sim have no stored staker
  // tx: their record carries the same attributes.
  if (!stored && staker.startTime === pchain.state.d.blocks[0]?.timestamp && staker.kind === 'validator')
    return {
      shares: staker.delegationShares ?? 0,
      ...(staker.rewardsOwner ? { validationRewardsOwner: staker.rewardsOwner } : {}),
      ...(staker.delegationRewardsOwner ? { delegationRewardsOwner: staker.delegationRewardsOwner } : {}),
    }
  if (!stored) throw new NodeRpcError('not found')
  const tx = (stored.tx as PChainSignedTx).unsigned
  switch (tx.type) {
    case 'AddValidatorTx':
      return { shares: tx.delegationShares, validationRewardsOwner: tx.rewardsOwner, delegationRewardsOwner: tx.rewardsOwner }
    case 'AddPermissionlessValidatorTx':
      return {
        shares: tx.delegationShares,
        validationRewardsOwner: tx.validatorRewardsOwner,
        delegationRewardsOwner: tx.delegatorRewardsOwner,
        ...(tx.signer.type === 'ProofOfPossession' ? { proofOfPossession: tx.signer } : {}),
      }
    case 'AddDelegatorTx':
      return { shares: 0, rewardsOwner: tx.rewardsOwner }
    case 'AddPermissionlessDelegatorTx':
      return { shares: 0, rewardsOwner: tx.delegatorRewardsOwner }
    default:
      throw new NodeRpcError(`unexpected staker tx type *txs.${tx.type}`)
  }
}

/** Current supply of a subnet, undefined when the state has none (`database.ErrNotFound`). */
export function supplyOf(pchain: PChain, subnetId: string): bigint | undefined {
  return pchain.state.d.supply.get(subnetId)
}

