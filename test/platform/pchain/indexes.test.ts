import { describe, expect, it } from 'vitest'
import { PRIMARY_NETWORK_ID } from '../../../src/core/ids.js'
import { hexToBytes } from '../../../src/core/hex.js'
import type { ValidatorEntry } from '../../../src/network/validators.js'
import type { L1Validator, PChain, Staker, UtxoRecord } from '../../../src/platform/pchain/index.js'
import { PChainState, canonicalJson, stakerLess } from '../../../src/platform/pchain/index.js'
import { genesisBlock } from '../../../src/platform/pchain/genesis.js'
import type { PChainSignedTx } from '../../../src/platform/txs.js'
import { showId, showNodeId } from '../../../src/platform/txs.js'
import { AVAX, DAY, GENESIS_TX, addr, avaxId, idOf, makeChain, nodeId, owners, spend } from './helpers.js'
import { seededRandom } from '../../helpers/seededRandom.js'

const rng = seededRandom

const SUBNETS = [PRIMARY_NETWORK_ID, 'subnetA', 'subnetB']
const NODES = ['NodeID-a', 'NodeID-b', 'NodeID-c', 'NodeID-d', 'NodeID-e']
const ADDRS = ['0x01', '0x02', '0x03', '0x04']

const cmpStakers = (a: Staker, b: Staker) => (stakerLess(a, b) ? -1 : stakerLess(b, a) ? 1 : 0)

/** Every index query of `st` against a brute-force scan of its data. */
function checkIndexes(st: PChainState) {
  const d = st.d
  for (const a of [...ADDRS, '0x99']) {
    const brute = [...d.utxos.values()].filter((r) => r.addresses.some((x) => x.replace(/^0x/, '') === a.replace(/^0x/, '')))
    expect(st.utxosByAddress(a)).toEqual(brute)
  }
  for (const which of ['current', 'pending'] as const) {
    const maps = which === 'current' ? [d.currentValidators, d.currentDelegators] : [d.pendingValidators, d.pendingDelegators]
    const brute = maps.flatMap((m) => [...m.values()]).sort(cmpStakers)
    expect(st.sortedStakers(which)).toEqual(brute)
    expect(st.firstStaker(which)).toBe(brute[0])
    const t = brute[Math.floor(brute.length / 2)]?.nextTime ?? 0
    expect(st.stakersWhile(which, (s) => s.nextTime <= t)).toEqual(brute.filter((s) => s.nextTime <= t))
    for (const s of SUBNETS) for (const n of NODES) {
      const m = which === 'current' ? d.currentDelegators : d.pendingDelegators
      expect(st.delegatorsOf(s, n, which)).toEqual([...m.values()].filter((x) => x.subnetId === s && x.nodeId === n))
    }
    for (const m of maps) for (const s of m.values()) expect(st.stakerStatus(s.txId)).toBe(which)
  }
  for (const s of SUBNETS) {
    expect(st.currentValidatorsOf(s)).toEqual([...d.currentValidators.values()].filter((v) => v.subnetId === s))
    expect(st.l1ValidatorsOf(s)).toEqual([...d.l1Validators.values()].filter((v) => v.subnetId === s))
  }
  const active = [...d.l1Validators.values()].filter((v) => v.endAccumulatedFee !== 0n)
    .sort((a, b) => (a.endAccumulatedFee < b.endAccumulatedFee ? -1 : a.endAccumulatedFee > b.endAccumulatedFee ? 1 : a.validationId < b.validationId ? -1 : 1))
  expect(st.activeL1Validators()).toEqual(active)
  expect(st.firstActiveL1Validator()).toBe(active[0])
  expect(st.numActiveL1Validators()).toBe(active.length)
  for (const t of [0, 50, 100, 1000]) expect(new Set(st.expiriesUpTo(t))).toEqual(new Set([...d.expiries].filter((k) => Number(k.split('/')[0]) <= t)))
}

describe('P-chain state indexes', () => {
  it('agree with a brute-force scan after random mutations, rollbacks, snapshots and restores', () => {
    for (const seed of [1, 2, 3]) {
      const r = rng(seed)
      const st = PChainState.empty({ timestamp: 0, supply: 1000n, primaryNetworkId: PRIMARY_NETWORK_ID, genesisBlock: genesisBlock({}, 0) })
      let n = 0
      const newStaker = (kind: Staker['kind'], current: boolean): Staker => {
        const t = r.int(100)
        return {
          txId: `tx${n++}`, txIdHex: r.int(1e9).toString(16).padStart(8, '0') + n, txType: 'x', nodeId: r.pick(NODES), subnetId: r.pick(SUBNETS), kind,
          priority: current ? r.pick([7, 8, 9, 10, 11]) : r.pick([1, 2, 3, 4, 5, 6]), weight: BigInt(1 + r.int(100)), startTime: t, endTime: t + 10, nextTime: current ? t + 10 : t,
          potentialReward: 0n, outsLength: 0, ...(r.int(2) ? { blsPublicKey: `0x${'ab'.repeat(48)}` } : {}),
        }
      }
      const newUtxo = (): UtxoRecord => ({
        utxo: { txId: new Uint8Array(32), outputIndex: n++, assetId: new Uint8Array(32), output: { type: 'TransferOutput', amount: 1n, owners: { locktime: 0n, threshold: 1, addrs: [] } } },
        created: { chain: 'P', txId: 't', height: 0 },
        addresses: Array.from({ length: 1 + r.int(2) }, () => r.pick(ADDRS)),
      })
      // a validation id belongs to one L1 for good
      const newL1 = (id = r.int(12)): L1Validator => ({
        validationId: `v${id}`, subnetId: SUBNETS[1 + (id % 2)]!, nodeId: r.pick(NODES), publicKey: `0x${'cd'.repeat(48)}`,
        remainingBalanceOwner: { threshold: 1, addrs: [] }, deactivationOwner: { threshold: 1, addrs: [] },
        startTime: 0, weight: BigInt(r.int(3)), minNonce: 0n, endAccumulatedFee: r.int(3) === 0 ? 0n : BigInt(1 + r.int(5)),
      })
      const op = () => {
        const d = st.d
        switch (r.int(12)) {
          // UTXO keys are never reused on a chain (tx id + index)
          case 0: case 1: st.addUtxo(`u${n++}`, newUtxo()); break
          case 2: { const k = [...d.utxos.keys()]; if (k.length) st.consumeUtxo(r.pick(k), { chain: 'P', txId: 'c', height: 1 }); break }
          case 3: { const s = newStaker(r.int(2) ? 'validator' : 'delegator', true); if (s.kind === 'validator') st.putCurrentValidator(s); else st.putCurrentDelegator(s); break }
          case 4: { const s = newStaker(r.int(2) ? 'validator' : 'delegator', false); if (s.kind === 'validator') st.putPendingValidator(s); else st.putPendingDelegator(s); break }
          case 5: { // promote a pending staker
            const all = [...d.pendingValidators.values(), ...d.pendingDelegators.values()]
            if (!all.length) break
            const p = r.pick(all)
            const cur = { ...p, nextTime: p.endTime, priority: p.priority + 6 }
            if (p.kind === 'validator') { st.deletePendingValidator(cur); st.putCurrentValidator(cur) } else { st.deletePendingDelegator(cur); st.putCurrentDelegator(cur) }
            break
          }
          case 6: { const all = [...d.currentValidators.values()]; if (all.length) st.deleteCurrentValidator(r.pick(all)); break }
          case 7: { const all = [...d.currentDelegators.values()]; if (all.length) st.deleteCurrentDelegator(r.pick(all)); break }
          case 8: case 9: st.putL1Validator(newL1()); break
          case 10: { const k = `${r.int(200)}/v${r.int(5)}`; if (r.int(2)) st.putExpiry(k); else st.deleteExpiry(k); break }
          case 11: st.setSupply(r.pick(SUBNETS), BigInt(r.int(100))); break
        }
      }
      const snaps: { snap: ReturnType<PChainState['snapshot']>; json: string; hash: string }[] = []
      for (let step = 0; step < 400; step++) {
        const k = r.int(10)
        if (k < 6) op()
        else if (k < 8) {
          // a batch that fails half-way is rolled back exactly
          const before = st.hash()
          expect(() => st.atomically(() => { for (let i = 0; i < 1 + r.int(6); i++) op(); throw new Error('boom') })).toThrow('boom')
          expect(st.hash()).toBe(before)
        } else if (k < 9) {
          const snap = st.snapshot()
          snaps.push({ snap, json: canonicalJson(snap), hash: st.hash() })
        } else if (snaps.length) {
          const s = r.pick(snaps)
          // a snapshot never changes after it is taken, whatever the live state did since
          expect(canonicalJson(s.snap)).toBe(s.json)
          // restoring a snapshot that came from elsewhere (no indexes) rebuilds them
          if (r.int(2)) st.restore(s.snap)
          else st.restore(structuredClone(s.snap))
          expect(st.hash()).toBe(s.hash)
        }
        checkIndexes(st)
        // indexes built from scratch answer the same
        if (step % 50 === 0) checkIndexes(new PChainState(structuredClone(st.d)))
      }
      for (const s of snaps) expect(canonicalJson(s.snap)).toBe(s.json)
    }
  })
})

/** The validator sets as the P-chain computed them before they were kept incrementally. */
function bruteSets(chain: PChain): Map<string, ValidatorEntry[]> {
  const st = chain.state
  const sets = new Map<string, ValidatorEntry[]>([[PRIMARY_NETWORK_ID, []]])
  const delegated = new Map<string, bigint>()
  for (const d of st.d.currentDelegators.values()) delegated.set(`${d.subnetId}/${d.nodeId}`, (delegated.get(`${d.subnetId}/${d.nodeId}`) ?? 0n) + d.weight)
  for (const v of st.d.currentValidators.values()) {
    if (st.getSubnet(v.subnetId)?.conversion) continue
    const list = sets.get(v.subnetId) ?? []
    const key = v.blsPublicKey ?? st.getCurrentValidator(PRIMARY_NETWORK_ID, v.nodeId)?.blsPublicKey
    list.push({ nodeId: v.nodeId, weight: v.weight + (delegated.get(`${v.subnetId}/${v.nodeId}`) ?? 0n), blsPublicKey: key ? hexToBytes(key as `0x${string}`) : undefined, startTime: BigInt(v.startTime) })
    sets.set(v.subnetId, list)
  }
  for (const s of st.d.subnets.values()) {
    if (!s.conversion) { if (!sets.has(s.id)) sets.set(s.id, []); continue }
    const list: ValidatorEntry[] = []
    for (const v of st.d.l1Validators.values()) if (v.subnetId === s.id && v.endAccumulatedFee !== 0n) list.push({ nodeId: v.nodeId, weight: v.weight, blsPublicKey: hexToBytes(v.publicKey as `0x${string}`), startTime: BigInt(v.startTime), validationId: v.validationId })
    sets.set(s.id, list)
  }
  for (const list of sets.values()) list.sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1))
  return sets
}

describe('P-chain incremental validator sets and UTXO lookups', () => {
  it('match a full recomputation through validators, delegators, rewards, refusals and restores', () => {
    const { chain, sets } = makeChain()
    const r = rng(7)
    const A = addr(1)
    // spendable UTXOs of A: start from the genesis one, follow the change outputs
    let coin: { txId: Uint8Array; index: number; amount: bigint; owner: Uint8Array } = { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }
    const issue = (tx: PChainSignedTx, timestamp?: number) => {
      chain.issueTx(tx, timestamp === undefined ? {} : { timestamp })
      const out = tx.unsigned.type === 'AdvanceTimeTx' || tx.unsigned.type === 'RewardValidatorTx' ? undefined : tx.unsigned.base.outputs[0]!
      coin = { txId: idOf(tx), index: 0, amount: out!.output.type === 'TransferOutput' ? out!.output.amount : 0n, owner: A }
    }
    const pop = (i: number) => ({ type: 'ProofOfPossession' as const, publicKey: new Uint8Array(48).fill(i), signature: new Uint8Array(96) })
    const validators: number[] = []
    const subnetTx = spend(chain, coin, 0n, (b) => ({ type: 'CreateSubnetTx', base: b, owner: owners(A) }))
    issue(subnetTx)
    const subnetId = idOf(subnetTx)
    const check = () => {
      const expected = bruteSets(chain)
      expect(chain.validatorSets()).toEqual(expected)
      // everything pushed to the listener is the current set
      for (const [id, entries] of expected) expect(sets.get(id)).toEqual(entries)
      for (const a of [addr(1), addr(2), addr(3), addr(9)]) {
        const h = Buffer.from(a).toString('hex')
        expect(chain.utxosOf(a)).toEqual([...chain.state.d.utxos.values()].filter((rec) => rec.addresses.some((x) => x.replace(/^0x/, '') === h)).map((rec) => rec.utxo))
      }
      for (const s of [...chain.state.d.currentValidators.values(), ...chain.state.d.currentDelegators.values()]) expect(chain.validationStatus(s.txId)).toBe('active')
      for (const e of chain.state.d.endedStakers.values()) expect(chain.validationStatus(e.staker.txId)).toBe(e.status)
    }
    const snaps: { snap: ReturnType<PChain['snapshot']>; hash: string; coin: typeof coin; validators: number[] }[] = []
    for (let step = 0; step < 60; step++) {
      const k = r.int(10)
      const now = chain.timestamp
      if (k < 3) {
        const node = 1 + r.int(12)
        const weight = (2_000n + BigInt(r.int(1000))) * AVAX
        const tx = spend(chain, coin, weight, (b) => ({
          type: 'AddPermissionlessValidatorTx', base: b,
          validator: { nodeId: nodeId(node), start: 0n, end: BigInt(now + DAY + r.int(20) * DAY), weight },
          subnetId: new Uint8Array(32), signer: pop(node),
          stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: weight, owners: owners(A) } }],
          validatorRewardsOwner: owners(A), delegatorRewardsOwner: owners(addr(2)), delegationShares: 100_000,
        }))
        try { issue(tx); validators.push(node) } catch { /* duplicate validator: refused, nothing changed */ }
      } else if (k < 6 && validators.length) {
        const node = r.pick(validators)
        const v = chain.state.getCurrentValidator(PRIMARY_NETWORK_ID, showNodeId(nodeId(node)))
        if (!v) continue
        const weight = (25n + BigInt(r.int(100))) * AVAX
        const tx = spend(chain, coin, weight, (b) => ({
          type: 'AddPermissionlessDelegatorTx', base: b,
          validator: { nodeId: nodeId(node), start: 0n, end: BigInt(Math.min(v.endTime, now + DAY + r.int(10) * DAY)), weight },
          subnetId: new Uint8Array(32),
          stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: weight, owners: owners(addr(3)) } }],
          delegatorRewardsOwner: owners(addr(3)),
        }))
        try { issue(tx) } catch { /* too short / over-delegated: refused */ }
      } else if (k < 7 && validators.length) {
        // a permissioned subnet validator: shows its primary validator's BLS key
        const node = r.pick(validators)
        const v = chain.state.getCurrentValidator(PRIMARY_NETWORK_ID, showNodeId(nodeId(node)))
        if (!v) continue
        const tx = spend(chain, coin, 0n, (b) => ({
          type: 'AddSubnetValidatorTx', base: b, subnetId, subnetAuth: { sigIndices: [0] },
          validator: { nodeId: nodeId(node), start: 0n, end: BigInt(Math.min(v.endTime, now + DAY + r.int(5) * DAY)), weight: BigInt(1 + r.int(50)) },
        }), [[A], [A]])
        try { issue(tx) } catch { /* already a subnet validator / too short: refused */ }
      } else if (k < 8) {
        chain.advanceTo(now + r.int(5) * DAY)
      } else if (k < 9) {
        snaps.push({ snap: chain.snapshot(), hash: chain.hash(), coin, validators: [...validators] })
      } else if (snaps.length) {
        const s = r.pick(snaps)
        chain.restore(s.snap)
        expect(chain.hash()).toBe(s.hash)
        coin = s.coin
        validators.splice(0, validators.length, ...s.validators)
      }
      check()
    }
    // the run did add, delegate to, reward and end stakers, on both subnets
    expect(chain.state.d.currentValidators.size + chain.state.d.endedStakers.size).toBeGreaterThan(10)
    expect([...chain.state.d.endedStakers.values()].some((e) => e.rewarded)).toBe(true)
    expect([...chain.state.d.endedStakers.values(), ...chain.state.d.currentValidators.values()].some((e) => ('staker' in e ? e.staker : e).subnetId === showId(subnetId))).toBe(true)
  })
})
