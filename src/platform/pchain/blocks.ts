import { sha256 } from '../../core/sha256.js'
import { idFromString, idToString } from '../../core/ids.js'
import { CODEC_VERSION, Writer } from '../codec.js'
import { concat } from '../xchain/bytes.js'
import type { BlockKind } from './state.js'

/**
 * P-Chain block bytes (`vms/platformvm/block`), with the block codec's type ids: the five Apricot
 * blocks are registered first (0–4), the Banff blocks after the Banff txs (29–32). Every block the
 * emulator builds is a Banff block; the genesis block is an `ApricotCommitBlock` at height 0 whose
 * parent is the hash of the genesis bytes, as on every real network (`state.init`). A block's id is
 * sha256 of its bytes.
 */
export const P_BLOCK_TYPE_IDS = {
  ApricotProposalBlock: 0,
  ApricotAbortBlock: 1,
  ApricotCommitBlock: 2,
  ApricotStandardBlock: 3,
  ApricotAtomicBlock: 4,
  BanffProposalBlock: 29,
  BanffAbortBlock: 30,
  BanffCommitBlock: 31,
  BanffStandardBlock: 32,
} as const

const BANFF_TYPE: Record<BlockKind, number> = {
  proposal: P_BLOCK_TYPE_IDS.BanffProposalBlock,
  abort: P_BLOCK_TYPE_IDS.BanffAbortBlock,
  commit: P_BLOCK_TYPE_IDS.BanffCommitBlock,
  standard: P_BLOCK_TYPE_IDS.BanffStandardBlock,
}

/** The genesis block (`block.NewApricotCommitBlock(genesisID, 0)`): codec version, type id, parent id, height. */
export function encodeGenesisBlock(parentId: Uint8Array): Uint8Array {
  return new Writer().u16(CODEC_VERSION).u32(P_BLOCK_TYPE_IDS.ApricotCommitBlock).fixed(parentId, 32, 'a block id').u64(0n).finish()
}

export type BanffBlockFields = { kind: BlockKind; parentId: string; height: number; timestamp: number; txs: readonly Uint8Array[] }

/**
 * A Banff block's bytes. Field order follows the Go structs: `Time` first, then (proposal blocks
 * only) the decision txs, then the embedded Apricot block (`PrntID`, `Hght`), then a standard
 * block's txs or a proposal block's one tx. `txs` are signed tx bytes with their codec version,
 * which a block does not repeat. A proposal block carries exactly one tx (its proposal).
 */
export function encodeBanffBlock(b: BanffBlockFields): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION).u32(BANFF_TYPE[b.kind]).u64(BigInt(b.timestamp))
  if (b.kind === 'proposal') w.u32(0)
  w.fixed(idFromString(b.parentId), 32, 'a block id').u64(BigInt(b.height))
  if (b.kind === 'standard') w.u32(b.txs.length)
  const txs = b.kind === 'standard' || b.kind === 'proposal' ? b.txs.map((t) => t.subarray(2)) : []
  return concat(w.finish(), ...txs)
}

/** A block's id: sha256 of its bytes, cb58. */
export function blockIdOf(bytes: Uint8Array): string {
  return idToString(sha256(bytes))
}
