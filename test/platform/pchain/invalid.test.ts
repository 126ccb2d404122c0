import { describe, expect, it } from 'vitest'
import type { PChainSignedTx } from '../../../src/platform/txs.js'
import { AVAX, DAY, GENESIS_TX, T0, addr, avaxId, idOf, makeChain, nodeId, owners, spend } from './helpers.js'

const A = addr(1), B = addr(2)
const pop = { type: 'ProofOfPossession' as const, publicKey: new Uint8Array(48).fill(9), signature: new Uint8Array(96) }
const G = { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }

function validatorTx(chain: ReturnType<typeof makeChain>['chain'], o: { weight?: bigint; end?: number; node?: number; from?: typeof G; burn?: bigint; shares?: number } = {}) {
  const weight = o.weight ?? 2_000n * AVAX
  return spend(chain, o.from ?? G, o.burn ?? weight, (b) => ({
    type: 'AddPermissionlessValidatorTx', base: b,
    validator: { nodeId: nodeId(o.node ?? 1), start: 0n, end: BigInt(o.end ?? T0 + 30 * DAY), weight },
    subnetId: new Uint8Array(32), signer: pop,
    stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: weight, owners: owners(A) } }],
    validatorRewardsOwner: owners(A), delegatorRewardsOwner: owners(A), delegationShares: o.shares ?? 100_000,
  }))
}

function refused(chain: ReturnType<typeof makeChain>['chain'], tx: PChainSignedTx, message: string) {
  const before = chain.serialize()
  expect(() => chain.issueTx(tx)).toThrow(message)
  expect(chain.serialize()).toBe(before)
}

describe('invalid transactions are refused with the real message and change nothing', () => {
  it('insufficient funds', () => {
    const { chain } = makeChain()
    const tx = validatorTx(chain, { burn: 0n }) // change output keeps the stake: produced > consumed
    refused(chain, tx, 'flow check failed: insufficient unlocked funds: needs 2000000000000 more')
  })
  it('wrong owner signature', () => {
    const { chain } = makeChain()
    const tx = validatorTx(chain)
    tx.credentials[0]!.sigs[0]!.set(B)
    refused(chain, tx, 'flow check failed: failed to verify transfer: wrong signature: expected signature from')
  })
  it('stake below minimum / above maximum', () => {
    const { chain } = makeChain()
    refused(chain, validatorTx(chain, { weight: 1_999n * AVAX }), 'weight of this validator is too low')
    refused(chain, validatorTx(chain, { weight: 3_000_001n * AVAX }), 'weight of this validator is too large')
  })
  it('end time out of range', () => {
    const { chain } = makeChain()
    refused(chain, validatorTx(chain, { end: T0 + 3600 }), 'staking period is too short')
    refused(chain, validatorTx(chain, { end: T0 + 366 * DAY }), 'staking period is too long')
  })
  it('delegation fee too low, duplicate validator, double spend', () => {
    const { chain } = makeChain()
    refused(chain, validatorTx(chain, { shares: 1 }), 'staker charges an insufficient delegation fee')
    const ok = validatorTx(chain)
    chain.issueTx(ok)
    refused(chain, validatorTx(chain, { from: { ...G, index: 1, owner: B } }), 'duplicate validator: NodeID-')
    refused(chain, validatorTx(chain, { node: 2 }), `flow check failed: failed to read consumed UTXO`)
  })
  it('delegation over capacity and outside the validator period', () => {
    const { chain } = makeChain()
    chain.issueTx(validatorTx(chain))
    const del = (weight: bigint, end = T0 + 20 * DAY) => spend(chain, { ...G, index: 1, owner: B }, weight, (b) => ({
      type: 'AddPermissionlessDelegatorTx', base: b,
      validator: { nodeId: nodeId(1), start: 0n, end: BigInt(end), weight }, subnetId: new Uint8Array(32),
      stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: weight, owners: owners(B) } }], delegatorRewardsOwner: owners(B),
    }))
    refused(chain, del(8_001n * AVAX), 'validator would be over delegated')
    refused(chain, del(25n * AVAX, T0 + 31 * DAY), 'proposed staking period is not inside dependent staking period')
    refused(chain, del(24n * AVAX), 'weight of this validator is too low')
  })
  it('unknown subnet, wrong subnet auth', () => {
    const { chain } = makeChain()
    const chainTx = (subnetId: Uint8Array, signer = A) => spend(chain, G, 0n, (b) => ({
      type: 'CreateChainTx', base: b, subnetId, chainName: 'x', vmId: new Uint8Array(32), fxIds: [], genesisData: new Uint8Array(), subnetAuth: { sigIndices: [0] },
    }), [[A], [signer]])
    refused(chain, chainTx(new Uint8Array(32).fill(5)), 'not found')
    const subnetTx = spend(chain, G, 0n, (b) => ({ type: 'CreateSubnetTx', base: b, owner: owners(A) }))
    chain.issueTx(subnetTx)
    const G2 = { txId: idOf(subnetTx), index: 0, amount: (subnetTx.unsigned as { base: { outputs: { output: { amount: bigint } }[] } }).base.outputs[0]!.output.amount, owner: A }
    const bad = spend(chain, G2, 0n, (b) => ({
      type: 'CreateChainTx', base: b, subnetId: idOf(subnetTx), chainName: 'x', vmId: new Uint8Array(32), fxIds: [], genesisData: new Uint8Array(), subnetAuth: { sigIndices: [0] },
    }), [[A], [B]])
    refused(chain, bad, 'unauthorized modification: wrong signature')
  })
})

describe('snapshot / restore', () => {
  it('restores the state hash-equal', () => {
    const { chain } = makeChain()
    const snap = chain.snapshot()
    const h0 = chain.hash()
    chain.issueTx(validatorTx(chain))
    chain.advanceTo(T0 + 40 * DAY)
    expect(chain.hash()).not.toBe(h0)
    const h1 = chain.hash()
    const snap1 = chain.snapshot()
    chain.restore(snap)
    expect(chain.hash()).toBe(h0)
    chain.restore(snap1)
    expect(chain.hash()).toBe(h1)
    expect(Object.isFrozen(snap1)).toBe(true)
  })
})
