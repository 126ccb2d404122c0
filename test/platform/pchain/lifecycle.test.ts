import { describe, expect, it } from 'vitest'
import { PRIMARY_NETWORK_ID } from '../../../src/core/ids.js'
import { splitReward } from '../../../src/platform/pchain/index.js'
import { showId, showNodeId } from '../../../src/platform/txs.js'
import { AVAX, DAY, GENESIS_TX, T0, addr, avaxId, idOf, makeChain, nodeId, owners, spend } from './helpers.js'

const pop = { type: 'ProofOfPossession' as const, publicKey: new Uint8Array(48).fill(9), signature: new Uint8Array(96) }

describe('primary network validator lifecycle', () => {
  it('adds a validator and a delegator, rewards both at end time, returns stake', () => {
    const { chain, sets } = makeChain()
    const A = addr(1), B = addr(2)
    const stake = 2_000n * AVAX
    const vTx = spend(chain, { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }, stake, (b) => ({
      type: 'AddPermissionlessValidatorTx', base: b,
      validator: { nodeId: nodeId(1), start: 0n, end: BigInt(T0 + 30 * DAY), weight: stake },
      subnetId: new Uint8Array(32), signer: pop,
      stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: stake, owners: owners(A) } }],
      validatorRewardsOwner: owners(A), delegatorRewardsOwner: owners(A), delegationShares: 100_000,
    }))
    const supplyBefore = chain.state.getSupply(PRIMARY_NETWORK_ID)
    const r1 = chain.issueTx(vTx)
    expect(r1.height).toBe(1)
    expect(r1.fee).toBeGreaterThan(0n)
    const vId = showId(idOf(vTx))
    expect(chain.validationStatus(vId)).toBe('active')
    const v = chain.state.getCurrentValidator(PRIMARY_NETWORK_ID, showNodeId(nodeId(1)))!
    expect(v.potentialReward).toBeGreaterThan(0n)
    expect(chain.state.getSupply(PRIMARY_NETWORK_ID)).toBe(supplyBefore + v.potentialReward)
    expect(sets.get(PRIMARY_NETWORK_ID)?.map((e) => e.weight)).toEqual([stake])

    const dStake = 100n * AVAX
    const dTx = spend(chain, { txId: GENESIS_TX, index: 1, amount: 1_000_000n * AVAX, owner: B }, dStake, (b) => ({
      type: 'AddPermissionlessDelegatorTx', base: b,
      validator: { nodeId: nodeId(1), start: 0n, end: BigInt(T0 + 20 * DAY), weight: dStake },
      subnetId: new Uint8Array(32),
      stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: dStake, owners: owners(B) } }],
      delegatorRewardsOwner: owners(B),
    }))
    chain.issueTx(dTx, { timestamp: T0 + 10 })
    const dId = showId(idOf(dTx))
    expect(sets.get(PRIMARY_NETWORK_ID)?.map((e) => e.weight)).toEqual([stake + dStake])
    const d = [...chain.state.d.currentDelegators.values()][0]!

    chain.advanceTo(T0 + 31 * DAY)
    expect(chain.timestamp).toBe(T0 + 31 * DAY)
    expect(chain.validationStatus(dId)).toBe('completed')
    expect(chain.validationStatus(vId)).toBe('completed')
    expect(sets.get(PRIMARY_NETWORK_ID)).toEqual([])
    // blocks: proposal + commit per reward (after the genesis block, itself an Apricot commit block)
    const kinds = chain.state.d.blocks.slice(1).map((b) => b.kind)
    expect(kinds.filter((k) => k === 'proposal')).toHaveLength(2)
    expect(kinds.filter((k) => k === 'commit')).toHaveLength(2)

    // stake returned at len(outs)+0; rewards after it
    const vTxId = idOf(vTx), dTxId = idOf(dTx)
    expect(chain.getUtxo(showId(vTxId), 1)?.utxo.output).toMatchObject({ amount: stake })
    expect(chain.getUtxo(showId(vTxId), 2)?.utxo.output).toMatchObject({ amount: v.potentialReward })
    const [delegatee, delegator] = splitReward(d.potentialReward, 100_000)
    expect(delegatee + delegator).toBe(d.potentialReward)
    expect(chain.getUtxo(showId(vTxId), 3)?.utxo.output).toMatchObject({ amount: delegatee })
    expect(chain.getUtxo(showId(dTxId), 1)?.utxo.output).toMatchObject({ amount: dStake })
    expect(chain.getUtxo(showId(dTxId), 2)?.utxo.output).toMatchObject({ amount: delegator, owners: owners(B) })
    expect(chain.getUtxo(showId(dTxId), 2)?.reward).toBe(true)
    // the genesis UTXOs are spent, with metadata
    expect(chain.state.d.spent.get(`${showId(GENESIS_TX)}:0`)?.consumed).toMatchObject({ txId: vId, height: 1 })
  })

  it('aborts the reward when uptime is below 80%, returning stake only', () => {
    const { chain } = makeChain({ uptime: () => 0.5 })
    const A = addr(1)
    const stake = 2_000n * AVAX
    const vTx = spend(chain, { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }, stake, (b) => ({
      type: 'AddPermissionlessValidatorTx', base: b,
      validator: { nodeId: nodeId(1), start: 0n, end: BigInt(T0 + 30 * DAY), weight: stake },
      subnetId: new Uint8Array(32), signer: pop,
      stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: stake, owners: owners(A) } }],
      validatorRewardsOwner: owners(A), delegatorRewardsOwner: owners(A), delegationShares: 100_000,
    }))
    const supply = chain.state.getSupply(PRIMARY_NETWORK_ID)
    chain.issueTx(vTx)
    chain.advanceTo(T0 + 40 * DAY)
    // proposal then abort; no empty block after (time moves without one when nothing changes)
    expect(chain.state.d.blocks.at(-1)?.kind).toBe('abort')
    expect(chain.getUtxo(showId(idOf(vTx)), 1)?.utxo.output).toMatchObject({ amount: stake })
    expect(chain.getUtxo(showId(idOf(vTx)), 2)).toBeUndefined()
    expect(chain.state.getSupply(PRIMARY_NETWORK_ID)).toBe(supply)
    expect(chain.state.getTx(chain.state.d.blocks.at(-2)!.txs[0]!)?.status).toBe('Aborted')
  })

  it('pre-Durango: AddValidatorTx is pending until its start time, then active', () => {
    const { chain } = makeChain({ durangoTime: T0 + 1000 * DAY })
    const A = addr(1)
    const stake = 2_000n * AVAX
    const vTx = spend(chain, { txId: GENESIS_TX, index: 0, amount: 1_000_000n * AVAX, owner: A }, stake, (b) => ({
      type: 'AddValidatorTx', base: b,
      validator: { nodeId: nodeId(1), start: BigInt(T0 + DAY), end: BigInt(T0 + 30 * DAY), weight: stake },
      stakeOuts: [{ assetId: avaxId(), output: { type: 'TransferOutput', amount: stake, owners: owners(A) } }],
      rewardsOwner: owners(A), delegationShares: 100_000,
    }))
    chain.issueTx(vTx)
    const id = showId(idOf(vTx))
    expect(chain.validationStatus(id)).toBe('pending')
    chain.advanceTo(T0 + 2 * DAY)
    expect(chain.validationStatus(id)).toBe('active')
    expect(chain.state.d.blocks.find((b) => b.timestamp === T0 + DAY)).toBeDefined()
    chain.advanceTo(T0 + 31 * DAY)
    expect(chain.validationStatus(id)).toBe('completed')
  })
})
