import { describe, expect, it } from 'vitest'
import { encodeL1ValidatorWeight, type PChain } from '../../../src/platform/pchain/index.js'
import type { PChainSignedTx } from '../../../src/platform/txs.js'
import { showId } from '../../../src/platform/txs.js'
import { hexToBytes } from '@ethereumjs/util'
import { AVAX, GENESIS_TX, addr, blsNode, idOf, makeChain, nodeId, owners, spend, warpMessage } from './helpers.js'

const A = addr(1)
const MANAGER = new Uint8Array(20).fill(0xee)
/** The node ids of a pushed set's active validators (the set also holds inactive L1 validators). */
const active = (set: readonly { nodeId: string; isActive?: false }[] | undefined) => set?.filter((e) => e.isActive !== false).map((e) => e.nodeId)

function utxoOf(tx: PChainSignedTx) {
  const out = tx.unsigned.type === 'AdvanceTimeTx' || tx.unsigned.type === 'RewardValidatorTx' ? undefined : tx.unsigned.base.outputs[0]!
  return { txId: idOf(tx), index: 0, amount: out!.output.type === 'TransferOutput' ? out!.output.amount : 0n, owner: A }
}

export function setupL1(chain: PChain) {
  const subnetTx = spend(chain, { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }, 0n, (b) => ({ type: 'CreateSubnetTx', base: b, owner: owners(A) }))
  chain.issueTx(subnetTx)
  const subnetId = idOf(subnetTx)
  const chainTx = spend(chain, utxoOf(subnetTx), 0n, (b) => ({
    type: 'CreateChainTx', base: b, subnetId, chainName: 'l1', vmId: new Uint8Array(32).fill(1), fxIds: [], genesisData: new Uint8Array([1, 2]), subnetAuth: { sigIndices: [0] },
  }), [[A], [A]])
  chain.issueTx(chainTx)
  const blockchainId = idOf(chainTx)
  const balances = [1000n, AVAX, AVAX]
  const convertTx = spend(chain, utxoOf(chainTx), balances.reduce((a, b) => a + b), (b) => ({
    type: 'ConvertSubnetToL1Tx', base: b, subnetId, chainId: blockchainId, address: MANAGER,
    validators: balances.map((balance, i) => ({
      nodeId: nodeId(10 + i), weight: 100n, balance, signer: { publicKey: hexToBytes(blsNode(i).blsPublicKey), signature: new Uint8Array(96) },
      remainingBalanceOwner: { threshold: 1, addrs: [A] }, deactivationOwner: { threshold: 1, addrs: [A] },
    })),
    subnetAuth: { sigIndices: [0] },
  }), [[A], [A]])
  chain.issueTx(convertTx)
  return { subnetTx, chainTx, convertTx, subnetId: showId(subnetId), blockchainId }
}

describe('L1 lifecycle', () => {
  it('converts, runs out of balance, is topped up, re-weighted and disabled', () => {
    const { chain, sets } = makeChain()
    const { subnetId, blockchainId, convertTx } = setupL1(chain)
    expect(chain.state.getSubnet(subnetId)?.conversion?.chainId).toBe(showId(blockchainId))
    const vals = chain.state.l1ValidatorsOf(subnetId).sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1))
    expect(vals).toHaveLength(3)
    expect(sets.get(subnetId)?.length).toBe(3)
    const [v0, v1, v2] = vals as [typeof vals[0], typeof vals[0], typeof vals[0]]
    expect(chain.l1ValidatorBalance(v0)).toBe(1000n)

    // 3 active validators < target: price stays at minPrice (1 nAVAX/s) → v0 lasts 1000 s
    chain.advanceTo(chain.timestamp + 999)
    expect(chain.state.getL1Validator(v0.validationId)!.endAccumulatedFee).not.toBe(0n)
    chain.advanceTo(chain.timestamp + 10)
    expect(chain.state.getL1Validator(v0.validationId)!.endAccumulatedFee).toBe(0n)
    expect(chain.state.d.blocks.some((b) => b.timestamp === chain.state.d.blocks[3]!.timestamp + 1000)).toBe(true)
    // Out of balance: still a current validator with its weight, inactive.
    expect(active(sets.get(subnetId))).toEqual([v1.nodeId, v2.nodeId])
    expect(sets.get(subnetId)?.find((e) => e.nodeId === v0.nodeId)).toMatchObject({ weight: 100n, isActive: false })
    expect(chain.l1ValidatorBalance(chain.state.getL1Validator(v1.validationId)!)).toBe(AVAX - 1009n)

    // top up v0 → active again
    const topUp = spend(chain, utxoOf(convertTx), 5000n, (b) => ({ type: 'IncreaseL1ValidatorBalanceTx', base: b, validationId: idFromCb58(v0.validationId), balance: 5000n }))
    chain.issueTx(topUp)
    expect(chain.l1ValidatorBalance(chain.state.getL1Validator(v0.validationId)!)).toBe(5000n)
    expect(active(sets.get(subnetId))).toHaveLength(3)

    // re-weight v1 through a warp message from the manager
    const payload = encodeL1ValidatorWeight({ validationId: idFromCb58(v1.validationId), nonce: 0n, weight: 250n })
    const weightTx = spend(chain, utxoOf(topUp), 0n, (b) => ({ type: 'SetL1ValidatorWeightTx', base: b, message: warpMessage(chain, subnetId, [0, 1, 2].map(blsNode), blockchainId, MANAGER, payload) }))
    chain.issueTx(weightTx)
    expect(chain.state.getL1Validator(v1.validationId)).toMatchObject({ weight: 250n, minNonce: 1n })
    expect(sets.get(subnetId)?.find((e) => e.nodeId === v1.nodeId)?.weight).toBe(250n)
    // replaying the same nonce is refused
    const replay = spend(chain, utxoOf(weightTx), 0n, (b) => ({ type: 'SetL1ValidatorWeightTx', base: b, message: warpMessage(chain, subnetId, [0, 1, 2].map(blsNode), blockchainId, MANAGER, payload) }))
    const before = chain.serialize()
    expect(() => chain.issueTx(replay)).toThrow('warp message contains stale nonce 0 must be at least 1')
    expect(chain.serialize()).toBe(before)

    // disable v2: remaining balance refunded to its owner
    const balanceV2 = chain.l1ValidatorBalance(chain.state.getL1Validator(v2.validationId)!)
    const disable = spend(chain, utxoOf(weightTx), 0n, (b) => ({ type: 'DisableL1ValidatorTx', base: b, validationId: idFromCb58(v2.validationId), disableAuth: { sigIndices: [0] } }), [[A], [A]])
    chain.issueTx(disable)
    expect(chain.state.getL1Validator(v2.validationId)!.endAccumulatedFee).toBe(0n)
    expect(chain.getUtxo(showId(idOf(disable)), 1)?.utxo.output).toMatchObject({ amount: balanceV2 })
    // Disabled: inactive, with its weight, until the L1 removes it.
    expect(active(sets.get(subnetId))).toEqual([v0.nodeId, v1.nodeId])
    expect(sets.get(subnetId)?.find((e) => e.nodeId === v2.nodeId)).toMatchObject({ weight: 100n, isActive: false })
  })
})

import { idFromString } from '../../../src/core/ids.js'
const idFromCb58 = (s: string) => idFromString(s)
