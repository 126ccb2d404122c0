import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPlatformIndexer, type IndexedTx, type PlatformIndexer } from '../../src/indexer/index.js'
import { createNetwork, type Network } from '../../src/network/network.js'

const AVAX = 1_000_000_000n
const DAY = 86_400

type Dump = { p: { txs: IndexedTx[] }; x: { txs: IndexedTx[] }; c: { txs: IndexedTx[] } }

describe('platform indexer', () => {
  let network: Network
  let index: PlatformIndexer
  const open: PlatformIndexer[] = []
  const indexer = () => {
    const { pchain, xchain, cAtomic } = network.primary
    const made = createPlatformIndexer({ pchain, xchain, cAtomic, cChainId: network.preset.cChainId })
    open.push(made)
    return made
  }

  beforeEach(async () => {
    network = await createNetwork()
    index = indexer()
  })
  afterEach(async () => {
    for (const i of open.splice(0)) i.close()
    await network.close?.()
  })

  /** P, X and C activity: transfers both ways, staking with rewards, a subnet converted to an L1 and its validators' lifecycle. */
  async function activity(): Promise<{ increase: string; validationIds: string[]; balanceAfterIncrease: bigint }> {
    const w = network.wallets(0)!
    const other = network.wallets(1)!.address
    network.primary.xchain.issueTx(w.x.send([{ address: other, amount: 2n * AVAX }]))
    await network.transfer({ from: 'X', to: 'P', amount: 10n * AVAX, account: 0 })
    const t = network.primary.pchain.timestamp
    const node = network.newValidatorIdentity()
    w.p.addValidator({ node, stake: 2_000n * AVAX, end: t + DAY + 50 })
    w.p.addDelegator({ nodeId: node.nodeId, stake: 50n * AVAX, end: t + DAY })
    const { subnetId } = w.p.createSubnet()
    const { blockchainId } = w.p.createChain({ subnetId, name: 'l1', vmId: new Uint8Array(32).fill(1), genesis: '{"config":{}}' })
    const nodes = [network.newValidatorIdentity(), network.newValidatorIdentity()]
    const conv = w.p.convertSubnetToL1({
      subnetId, chainId: blockchainId, address: new Uint8Array(20).fill(0xee),
      validators: nodes.map((n) => ({ node: n, weight: 100n, balance: AVAX })),
    })
    const validationIds = conv.validators.map((v) => v.validationId)
    await network.advanceTime(600) // the L1 validators pay their fees
    const increase = w.p.increaseL1ValidatorBalance({ validationId: validationIds[0]!, amount: 7_000n }).txId
    const pchain = network.primary.pchain
    const balanceAfterIncrease = pchain.l1ValidatorBalance(pchain.state.getL1Validator(validationIds[0]!)!)
    w.p.setL1ValidatorWeight({ validationId: validationIds[1]!, weight: 300n, warpSigners: nodes })
    const reg = w.p.registerL1Validator({ subnetId, node: network.newValidatorIdentity(), weight: 20n, balance: AVAX, warpSigners: nodes })
    w.p.disableL1Validator({ validationId: reg.validationId })
    await network.transfer({ from: 'P', to: 'C', amount: 3n * AVAX, account: 0 })
    await network.transfer({ from: 'C', to: 'X', amount: AVAX, account: 0 })
    await network.advanceTime(DAY + 100) // both stakers end: reward txs
    return { increase, validationIds, balanceAfterIncrease }
  }

  it('indexes every chain incrementally as a rebuild from history does', async () => {
    const { increase, validationIds, balanceAfterIncrease } = await activity()
    const incremental = index.dump() as Dump
    expect(incremental.p.txs.map((t) => t.type)).toEqual(expect.arrayContaining(['ImportTx', 'ExportTx', 'AddPermissionlessValidatorTx', 'RewardValidatorTx', 'ConvertSubnetToL1Tx', 'DisableL1ValidatorTx']))
    expect(incremental.x.txs.map((t) => t.type)).toEqual(['BaseTx', 'ExportTx', 'ImportTx'])
    expect(incremental.c.txs.map((t) => t.type)).toEqual(['ImportTx', 'ExportTx'])
    index.rebuild()
    expect(index.dump()).toEqual(incremental)

    // The balance an IncreaseL1ValidatorBalanceTx left is read when its block is announced: the
    // deposit less the fees accrued since the conversion.
    const tx = incremental.p.txs.find((t) => t.txId === increase)!
    const sample = tx.l1![0]!
    expect(sample.validationId).toBe(validationIds[0])
    expect(balanceAfterIncrease).toBeLessThan(AVAX + 7_000n)
    expect(sample.remainingBalance).toBe(balanceAfterIncrease)
    expect(sample.balanceChange).toBe(7_000n)

    // An indexer made afterwards has every tx and UTXO; for L1 balances it only has the deposits.
    const late = indexer().dump() as Dump
    const withoutL1 = (d: Dump) => ({ ...d, p: { ...d.p, txs: d.p.txs.map((t) => ({ ...t, l1: t.l1?.map((s) => ({ ...s, remainingBalance: 0n })) })) } })
    expect(withoutL1(late)).toEqual(withoutL1(incremental))
    expect(late.p.txs.find((t) => t.txId === increase)!.l1![0]!.remainingBalance).toBe(AVAX + 7_000n)
  })

  it('leaves no stale entries after a revert, and follows the chains again', async () => {
    await activity()
    const before = index.dump()
    const snapshot = await network.snapshot()
    const w = network.wallets(0)!
    const sent = w.p.send([{ address: network.wallets(2)!.address, amount: AVAX }]).txId
    network.primary.xchain.issueTx(w.x.send([{ address: network.wallets(2)!.address, amount: AVAX }]))
    await network.transfer({ from: 'X', to: 'C', amount: AVAX, account: 0 })
    const during = index.dump() as Dump
    expect(during.p.txs.at(-1)!.txId).toBe(sent)
    expect(during.c.txs).toHaveLength(3)
    expect(await network.revert(snapshot)).toBe(true)
    expect(index.dump()).toEqual(before)
    expect(index.transactions('P', { addresses: [Buffer.from(w.address).toString('hex')] }, 'desc', 100).items.map((t) => t.txId)).not.toContain(sent)
    // new history after the revert: indexed from the events, equal to a rebuild
    const again = w.p.send([{ address: network.wallets(1)!.address, amount: 2n * AVAX }]).txId
    const after = index.dump() as Dump
    expect(after.p.txs.at(-1)!.txId).toBe(again)
    index.rebuild()
    expect(index.dump()).toEqual(after)
  })

  it('pages by position: new blocks never shift a page', async () => {
    await activity()
    const w = network.wallets(0)!
    const addr = [Buffer.from(w.address).toString('hex')]
    const first = index.transactions('P', { addresses: addr }, 'desc', 3)
    expect(first.items).toHaveLength(3)
    w.p.send([{ address: network.wallets(1)!.address, amount: AVAX }])
    const second = index.transactions('P', { addresses: addr }, 'desc', 3, first.next)
    expect(second.items[0]!.seq).toBeLessThan(first.items[2]!.seq)
    const asc = index.transactions('P', { addresses: addr, txTypes: ['ImportTx', 'ExportTx'] }, 'asc', 10)
    expect(asc.items.map((t) => t.type)).toEqual(['ImportTx', 'ExportTx'])
    expect(asc.next).toBeUndefined()
  })
})
