/**
 * The primary network's non-EVM history as the data API reads it: per chain (P, X, and the
 * C-chain's atomic txs), the accepted transactions in order with the UTXOs each consumed and
 * emitted, indexed by address, by L1 validation id and by type; every UTXO with the tx, block and
 * time that created it and, once spent (or imported by another chain), those that consumed it.
 *
 * A pure function of the chains' history: the P- and X-chain parts follow the chains' `block`
 * events and read what a block did from the chain's stored blocks, txs and UTXO records, so the
 * part built incrementally equals the part rebuilt from scratch. A revert (the network restoring
 * a P/X snapshot emits nothing) shows as a stored block that differs from the indexed one, or as a
 * chain lower than the index: every read checks the tip and rebuilds that part. The C part is
 * derived from the C-chain's accepted atomic txs whenever they change.
 *
 * L1 validator details reflect the state at the time of the tx. They are read from the P-chain's
 * state when the tx's block is announced (state then is that of the block); a tx accepted before
 * the indexer existed gets them from the history of L1 txs, where the remaining balance of an
 * IncreaseL1ValidatorBalanceTx / SetL1ValidatorWeightTx is the balance deposited so far (the fees
 * accrued until then are not in the stored history).
 */
import { idFromString, idToString } from '../core/ids.js'
import { utxoId as inputIdOf } from '../platform/codec.js'
import type { PChain } from '../platform/pchain/chain.js'
import type { PBlock, Staker } from '../platform/pchain/state.js'
import type { PChainSignedTx, TransferableInput, TransferableOutput } from '../platform/txs.js'
import type { AcceptedAtomicTx, CChainAtomic } from '../platform/xchain/cchainAtomic.js'
import type { XChain } from '../platform/xchain/chain.js'
import {
  hex, inputUtxoId, l1Effects, makeUtxo, validationIdsOf, xOutputCount,
  type IndexedTx, type IndexedUtxo, type L1ValidatorSample, type PlatformChain, type TxFilter, type UtxoConsumption,
} from './platformRecords.js'

export type { IndexedTx, IndexedUtxo, L1ValidatorSample, PlatformChain, TxFilter, UtxoConsumption } from './platformRecords.js'

export type PlatformIndexer = {
  /** A page of `chain`'s txs matching `filter`, after the cursor `after` (a `seq`), in `order`. */
  transactions(chain: PlatformChain, filter: TxFilter, order: 'asc' | 'desc', limit: number, after?: number): { items: IndexedTx[]; next?: number }
  /** The tx at position `seq` of `chain`'s list, as the chains' history has it now. */
  txAt(chain: PlatformChain, seq: number): IndexedTx | undefined
  /** UTXOs owned by any of `addresses` that `chain` holds (for C: those exported to it). */
  utxos(chain: PlatformChain, addresses: readonly string[], includeSpent: boolean): IndexedUtxo[]
  utxo(utxoId: string): IndexedUtxo | undefined
  consumption(utxoId: string): UtxoConsumption | undefined
  /** The RewardValidatorTx that ended the staker `stakingTxId`. */
  rewardTxOf(stakingTxId: string): string | undefined
  /** The staker a staking tx created, from the P-chain state (current, pending or ended). */
  stakerOf(stakingTxId: string): Staker | undefined
  /** Rebuilds every part from the chains' history. */
  rebuild(): void
  /** Every part as plain data, for comparisons. */
  dump(): unknown
  close(): void
}

export type PlatformIndexerOptions = { pchain: PChain; xchain: XChain; cAtomic: CChainAtomic; cChainId: string }

type Part = {
  chain: PlatformChain
  chainId: string
  txs: IndexedTx[]
  utxos: Map<string, IndexedUtxo>
  consumed: Map<string, UtxoConsumption>
  byAddress: Map<string, number[]>
  byValidation: Map<string, number[]>
  /** P/X: block ids by height; C: a fingerprint of the atomic history. */
  blocks: string[]
  fingerprint: string
}

function newPart(chain: PlatformChain, chainId: string): Part {
  return { chain, chainId, txs: [], utxos: new Map(), consumed: new Map(), byAddress: new Map(), byValidation: new Map(), blocks: [], fingerprint: '' }
}

function push(map: Map<string, number[]>, key: string, seq: number) {
  const list = map.get(key)
  if (!list) map.set(key, [seq])
  else if (list[list.length - 1] !== seq) list.push(seq)
}

/** Creates the index over the P-chain, the X-chain and the C-chain's atomic txs, and follows them. */
export function createPlatformIndexer(o: PlatformIndexerOptions): PlatformIndexer {
  const { pchain, xchain, cAtomic } = o
  let p = newPart('P', pchain.chainId)
  let x = newPart('X', xchain.chainId)
  let c = newPart('C', o.cChainId)
  /** L1 validator details read from the state when the tx's block was announced, by tx id. */
  const samples = new Map<string, L1ValidatorSample[]>()
  /** The last details of each L1 validation while indexing P (history order). */
  let l1Last = new Map<string, L1ValidatorSample>()
  const rewardOf = new Map<string, string>()

  const addTx = (part: Part, tx: Omit<IndexedTx, 'seq' | 'chain'>, extraAddresses: string[] = []) => {
    const seq = part.txs.length
    const addrs = new Set<string>(extraAddresses)
    for (const id of [...tx.emitted, ...tx.consumed]) for (const a of part.utxos.get(id)?.addresses ?? []) addrs.add(a)
    const full: IndexedTx = { ...tx, chain: part.chain, seq, addresses: [...addrs] }
    part.txs.push(full)
    for (const a of full.addresses) push(part.byAddress, a, seq)
    for (const v of full.validationIds) push(part.byValidation, v, seq)
  }

  // --- P ---------------------------------------------------------------------------------------

  const pRecord = (key: string) => pchain.state.d.utxos.get(key) ?? pchain.state.d.spent.get(key)

  function findStaker(txId: string): Staker | undefined {
    const d = pchain.state.d
    const ended = d.endedStakers.get(txId)
    if (ended) return ended.staker
    for (const m of [d.currentDelegators, d.pendingDelegators]) { const s = m.get(txId); if (s) return s }
    for (const m of [d.currentValidators, d.pendingValidators]) for (const s of m.values()) if (s.txId === txId) return s
    return undefined
  }

  /** Reads the L1 validators `txIds` touched from the live state (the state of the announced block). */
  function captureSamples(block: PBlock) {
    for (const txId of block.txs) {
      const stored = pchain.state.d.txs.get(txId)
      if (!stored) continue
      const u = (stored.tx as PChainSignedTx).unsigned
      const vids = validationIdsOf(u)
      if (vids.length === 0) continue
      const st = pchain.state
      samples.set(txId, vids.flatMap((vid) => {
        const v = st.getL1Validator(vid)
        if (!v) return []
        return [{ validationId: vid, nodeId: v.nodeId, subnetId: v.subnetId, weight: v.weight, remainingBalance: v.endAccumulatedFee === 0n ? 0n : v.endAccumulatedFee - st.accruedFees, publicKey: v.publicKey, proofOfPossession: '' }]
      }))
    }
  }

  function indexPBlock(block: PBlock) {
    const at = { height: block.height, blockHash: block.id, timestamp: block.timestamp }
    p.blocks[block.height] = block.id
    if (block.height === 0) {
      for (const rec of [...pchain.state.d.utxos.values(), ...pchain.state.d.spent.values()])
        if (rec.created.height === 0) { const u = makeUtxo(rec.utxo, 'P', p.chainId, rec.created.txId, at); p.utxos.set(u.utxoId, u) }
    }
    block.txs.forEach((txId) => {
      const stored = pchain.state.d.txs.get(txId)
      if (!stored) return
      const signed = stored.tx as PChainSignedTx
      const u = signed.unsigned
      const txBytes = idFromString(txId)
      const emitted: IndexedUtxo[] = []
      const consumed: string[] = []
      const spend = (ins: readonly TransferableInput[]) => {
        for (const i of ins) {
          const id = inputUtxoId(i.txId, i.outputIndex)
          consumed.push(id)
          p.consumed.set(id, { chainId: p.chainId, txId, ...at })
        }
      }
      const extra: string[] = []
      if ('base' in u) {
        spend(u.base.inputs)
        u.base.outputs.forEach((out, i) => emitted.push(makeUtxo({ txId: txBytes, outputIndex: i, assetId: out.assetId, output: out.output }, 'P', p.chainId, txId, at)))
      }
      if (u.type === 'ImportTx') spend(u.importedInputs)
      if (u.type === 'ExportTx') {
        const n = u.base.outputs.length
        u.exportedOutputs.forEach((out, i) => emitted.push(makeUtxo({ txId: txBytes, outputIndex: n + i, assetId: out.assetId, output: out.output }, 'P', p.chainId, txId, at, { exportedTo: idToString(u.destinationChain) })))
      }
      if ('stakeOuts' in u) {
        const staker = findStaker(txId)
        const start = staker?.startTime ?? Number(u.validator.start)
        const end = staker?.endTime ?? Number(u.validator.end)
        const n = u.base.outputs.length
        u.stakeOuts.forEach((out, i) => emitted.push(makeUtxo({ txId: txBytes, outputIndex: n + i, assetId: out.assetId, output: out.output }, 'P', p.chainId, txId, at, { staked: { start, end } })))
      }
      if ('rewardsOwner' in u) extra.push(...u.rewardsOwner.addrs.map(hex))
      if ('validatorRewardsOwner' in u) extra.push(...u.validatorRewardsOwner.addrs.map(hex))
      if (u.type === 'AddPermissionlessDelegatorTx') extra.push(...u.delegatorRewardsOwner.addrs.map(hex))
      if (u.type === 'CreateSubnetTx' || u.type === 'TransferSubnetOwnershipTx') extra.push(...u.owner.addrs.map(hex))
      if (u.type === 'SetL1ValidatorWeightTx' || u.type === 'DisableL1ValidatorTx') {
        const rec = pRecord(`${txId}:${u.base.outputs.length}`)
        if (rec && rec.created.txId === txId) emitted.push(makeUtxo(rec.utxo, 'P', p.chainId, txId, at))
      }
      if (u.type === 'RewardValidatorTx') {
        const stakingTxId = idToString(u.txId)
        rewardOf.set(stakingTxId, txId)
        const ended = pchain.state.d.endedStakers.get(stakingTxId)
        const staker = ended?.staker
        if (staker) {
          const first = staker.outsLength + (staker.stakeOuts?.length ?? 0)
          const kind = staker.kind
          for (const index of [first, first + 1]) {
            const rec = pRecord(`${stakingTxId}:${index}`)
            if (!rec || !rec.reward) continue
            const validatorReward = ended.rewarded === true && staker.potentialReward > 0n
            const rewardType = kind === 'delegator' ? 'DELEGATOR' as const : index === first && validatorReward ? 'VALIDATOR' as const : 'VALIDATOR_FEE' as const
            emitted.push(makeUtxo(rec.utxo, 'P', p.chainId, txId, at, { rewardType }))
          }
        }
      }
      for (const e of emitted) p.utxos.set(e.utxoId, e)
      const effects = l1Effects(u, emitted, (vid) => l1Last.get(vid))
      const live = samples.get(txId)
      const l1 = effects.map((e) => {
        const s = live?.find((x) => x.validationId === e.validationId)
        return s ? { ...e, weight: s.weight, remainingBalance: s.remainingBalance, nodeId: s.nodeId, subnetId: s.subnetId, publicKey: s.publicKey } : e
      })
      for (const s of l1) l1Last.set(s.validationId, s)
      addTx(p, {
        txId, type: stored.type, height: block.height, blockHash: block.id, timestamp: block.timestamp, unsigned: u, credentials: signed.credentials,
        consumed, emitted: emitted.map((e) => e.utxoId), addresses: [], validationIds: validationIdsOf(u), ...(l1.length > 0 ? { l1 } : {}),
      }, extra)
    })
  }

  /** Indexes P up to height `upTo` (default: the chain's head), rebuilding first if the chain was reverted. */
  function syncP(upTo?: number) {
    const blocks = pchain.state.d.blocks
    const tip = p.blocks.length - 1
    if (tip >= blocks.length || (tip >= 0 && blocks[tip]?.id !== p.blocks[tip])) {
      p = newPart('P', pchain.chainId)
      l1Last = new Map()
      rewardOf.clear()
      const known = new Set<string>()
      for (const b of blocks) for (const t of b.txs) known.add(t)
      for (const id of [...samples.keys()]) if (!known.has(id)) samples.delete(id)
    }
    const last = Math.min(upTo ?? blocks.length - 1, blocks.length - 1)
    for (let h = p.blocks.length; h <= last; h++) indexPBlock(blocks[h]!)
  }

  // --- X ---------------------------------------------------------------------------------------

  function indexXHeight(h: number) {
    const block = xchain.getBlockByHeight(h)
    x.blocks[h] = block?.id ?? ''
    if (!block) return
    const at = { height: block.height, blockHash: block.id, timestamp: block.timestamp }
    if (h === 0) {
      for (const e of [...xchain.state.allUtxos(), ...xchain.state.history()])
        if (e.created.height === 0 && e.created.chainId === x.chainId) x.utxos.set(e.utxoId, makeUtxo(e.utxo, 'X', x.chainId, e.created.txId, at))
    }
    for (const txId of block.txIds) {
      const stored = xchain.getTx(txId)
      if (!stored) continue
      const u = stored.tx.unsigned
      const txBytes = idFromString(txId)
      const emitted: string[] = []
      for (let i = 0; i < xOutputCount(u); i++) {
        const entry = xchain.state.findUtxo(inputIdOf(txBytes, i))
        if (!entry || entry.created.txId !== txId) continue
        const rec = makeUtxo(entry.utxo, 'X', x.chainId, txId, at, entry.exportedTo ? { exportedTo: entry.exportedTo } : {})
        x.utxos.set(rec.utxoId, rec)
        emitted.push(rec.utxoId)
      }
      const refs = [...u.base.inputs, ...(u.type === 'ImportTx' ? u.importedInputs : []), ...(u.type === 'OperationTx' ? u.operations.flatMap((op) => op.utxoIds) : [])]
      const consumed = refs.map((r) => inputUtxoId(r.txId, r.outputIndex))
      for (const id of consumed) x.consumed.set(id, { chainId: x.chainId, txId, ...at })
      addTx(x, { txId, type: u.type, height: block.height, blockHash: block.id, timestamp: block.timestamp, unsigned: u, credentials: stored.tx.credentials, consumed, emitted, addresses: [], validationIds: [] })
    }
  }

  function syncX() {
    const height = xchain.height
    const tip = x.blocks.length - 1
    if (tip > height || (tip >= 0 && xchain.getBlockByHeight(tip)?.id !== x.blocks[tip])) x = newPart('X', xchain.chainId)
    for (let h = x.blocks.length; h <= height; h++) indexXHeight(h)
  }

  // --- C (atomic txs) ---------------------------------------------------------------------------

  function syncC() {
    const accepted = cAtomic.acceptedTxs().filter((a): a is AcceptedAtomicTx & { block: NonNullable<AcceptedAtomicTx['block']> } => a.block !== undefined)
    const fingerprint = accepted.map((a) => `${a.txId}@${a.block.hash}`).join(',')
    if (fingerprint === c.fingerprint) return
    c = newPart('C', o.cChainId)
    c.fingerprint = fingerprint
    const ordered = accepted.map((a, i) => ({ a, i })).sort((l, r) => l.a.block.height - r.a.block.height || l.i - r.i).map((e) => e.a)
    for (const a of ordered) {
      const u = a.tx.unsigned
      const at = { height: a.block.height, blockHash: a.block.hash, timestamp: a.block.timestamp }
      const txBytes = idFromString(a.txId)
      const emitted: string[] = []
      const consumed: string[] = []
      const extra: string[] = []
      if (u.type === 'ExportTx') {
        u.exportedOutputs.forEach((out: TransferableOutput, i: number) => {
          const rec = makeUtxo({ txId: txBytes, outputIndex: i, assetId: out.assetId, output: out.output }, 'X', c.chainId, a.txId, at, { exportedTo: idToString(u.destinationChain) })
          c.utxos.set(rec.utxoId, rec)
          emitted.push(rec.utxoId)
        })
        extra.push(...u.ins.map((i) => hex(i.address)))
      } else {
        for (const i of u.importedInputs) {
          const id = inputUtxoId(i.txId, i.outputIndex)
          consumed.push(id)
          c.consumed.set(id, { chainId: c.chainId, txId: a.txId, ...at })
          // the owners of the imported UTXOs, from the P/X parts (indexed before this one)
          extra.push(...(p.utxos.get(id) ?? x.utxos.get(id))?.addresses ?? [])
        }
        extra.push(...u.outs.map((out) => hex(out.address)))
      }
      addTx(c, { txId: a.txId, type: u.type, height: at.height, blockHash: at.blockHash, timestamp: at.timestamp, unsigned: u, credentials: a.tx.credentials, consumed, emitted, addresses: [], validationIds: [] }, extra)
    }
  }

  // --- reads -----------------------------------------------------------------------------------

  const sync = () => { syncP(); syncX(); syncC() }
  const partOf = (chain: PlatformChain) => (chain === 'P' ? p : chain === 'X' ? x : c)
  // An announced block's state is in place: read its L1 validators, then index up to it (the
  // blocks after it in the same batch are announced next).
  const onP = (block: PBlock) => {
    captureSamples(block)
    syncP(block.height)
  }
  const onX = () => syncX()
  pchain.events.on('block', onP)
  xchain.events.on('block', onX)
  sync()

  const lookupUtxo = (id: string) => p.utxos.get(id) ?? x.utxos.get(id) ?? c.utxos.get(id)
  const lookupConsumption = (id: string) => p.consumed.get(id) ?? x.consumed.get(id) ?? c.consumed.get(id)

  return {
    transactions(chain, filter, order, limit, after) {
      sync()
      const part = partOf(chain)
      let seqs: number[]
      if (filter.addresses !== undefined) seqs = [...new Set(filter.addresses.flatMap((a) => part.byAddress.get(a) ?? []))].sort((a, b) => a - b)
      else if (filter.validationId !== undefined) seqs = part.byValidation.get(filter.validationId) ?? []
      else seqs = part.txs.map((t) => t.seq)
      if (filter.validationId !== undefined && filter.addresses !== undefined) {
        const v = new Set(part.byValidation.get(filter.validationId) ?? [])
        seqs = seqs.filter((s) => v.has(s))
      }
      const types = filter.txTypes && filter.txTypes.length > 0 ? new Set(filter.txTypes) : undefined
      const ordered = order === 'asc' ? seqs : [...seqs].reverse()
      const items: IndexedTx[] = []
      let next: number | undefined
      for (const seq of ordered) {
        if (after !== undefined && (order === 'asc' ? seq <= after : seq >= after)) continue
        const t = part.txs[seq]!
        if (types && !types.has(t.type)) continue
        if (filter.startTimestamp !== undefined && t.timestamp < filter.startTimestamp) continue
        if (filter.endTimestamp !== undefined && t.timestamp > filter.endTimestamp) continue
        if (items.length === limit) { next = items[items.length - 1]!.seq; break }
        items.push(t)
      }
      return next === undefined ? { items } : { items, next }
    },
    txAt(chain, seq) {
      sync()
      return partOf(chain).txs[seq]
    },
    utxos(chain, addresses, includeSpent) {
      sync()
      const wanted = new Set(addresses)
      const owned = (u: IndexedUtxo) => u.addresses.some((a) => wanted.has(a))
      const candidates = chain === 'C'
        ? [...p.utxos.values(), ...x.utxos.values()].filter((u) => u.exportedTo === o.cChainId)
        : [...partOf(chain).utxos.values()].filter((u) => u.exportedTo === undefined)
      return candidates.filter((u) => owned(u) && (includeSpent || lookupConsumption(u.utxoId) === undefined))
    },
    utxo(id) { sync(); return lookupUtxo(id) },
    consumption(id) { sync(); return lookupConsumption(id) },
    rewardTxOf(stakingTxId) { sync(); return rewardOf.get(stakingTxId) },
    stakerOf: findStaker,
    rebuild() {
      p = newPart('P', pchain.chainId)
      x = newPart('X', xchain.chainId)
      c = newPart('C', o.cChainId)
      l1Last = new Map()
      rewardOf.clear()
      sync()
    },
    dump() {
      sync()
      const plain = (part: Part) => ({
        txs: part.txs.map((t) => ({ ...t, consumed: [...t.consumed], emitted: [...t.emitted], unsigned: undefined, credentials: undefined })),
        utxos: [...part.utxos.values()].map((u) => ({ ...u, utxo: undefined })).sort((a, b) => (a.utxoId < b.utxoId ? -1 : 1)),
        consumed: [...part.consumed].sort(([a], [b]) => (a < b ? -1 : 1)),
        byAddress: [...part.byAddress].map(([k, v]) => [k, [...v]] as const).sort(([a], [b]) => (a < b ? -1 : 1)),
        byValidation: [...part.byValidation].map(([k, v]) => [k, [...v]] as const).sort(([a], [b]) => (a < b ? -1 : 1)),
      })
      return { p: plain(p), x: plain(x), c: plain(c), rewards: [...rewardOf].sort(([a], [b]) => (a < b ? -1 : 1)) }
    },
    close() {
      pchain.events.off('block', onP)
      xchain.events.off('block', onX)
    },
  }
}
