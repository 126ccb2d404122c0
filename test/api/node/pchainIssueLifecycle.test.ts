/**
 * A P-chain tx's life as the node reports it, on a network that mines manually (the P-chain then
 * builds at the network's next tick): issued into the mempool (`Processing`, nothing spent yet),
 * built into a block (`Committed`), refused by the mempool when it spends what a waiting tx
 * spends, or dropped by the block that could not take it (`Dropped` with the block's reason).
 * Txs built and signed with @avalabs/avalanchejs, issued over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { call, result, sim, startTestDevnet, type TestDevnet } from './helpers.js'
import { AVAX, TransferableOutput, common, pClient, platform, pvm, signAll, signAndIssue, signedHex, txIdOf, unlocked, utxoIds } from './pchain.js'

let devnet: TestDevnet | undefined
afterEach(async () => {
  await devnet?.stop()
  devnet = undefined
})

const status = (url: string, txID: string) => platform(url, 'getTxStatus', { txID })

describe('platform.issueTx with manual mining: the mempool between issue and block', () => {
  it('Processing until the next tick builds the block, then Committed; issued again meanwhile, the same id', async () => {
    devnet = await startTestDevnet('p-issue-manual', { nodes: 1, mining: { mode: 'manual' } })
    const c = await pClient(devnet.url, devnet.network.devAccounts[1]!.privateKey)
    const [before, utxos, height] = [await unlocked(c), await utxoIds(c), await platform(devnet.url, 'getHeight')]
    const tx = pvm.newBaseTx({ ...(await common(c)), outputs: [TransferableOutput.fromNative(c.context.avaxAssetID, AVAX, [c.addr])] }, c.context)
    const txId = await signAndIssue(c, tx)
    expect(await status(devnet.url, txId)).toEqual({ status: 'Processing' })
    expect([await unlocked(c), await utxoIds(c), await platform(devnet.url, 'getHeight')]).toEqual([before, utxos, height])
    expect(await result(devnet.url, '/ext/bc/P', 'platform.issueTx', { tx: signedHex(tx) })).toEqual({ txID: txId })
    await sim(devnet.url, 'advanceTime', { seconds: 1 })
    expect(await status(devnet.url, txId)).toEqual({ status: 'Committed' })
    expect(Number((await platform(devnet.url, 'getHeight')).height)).toBe(Number(height.height) + 1)
    expect(await unlocked(c)).toBeLessThan(before)
  })

  it('a network snapshot taken while a tx waits has it waiting again after a revert', async () => {
    devnet = await startTestDevnet('p-issue-revert', { nodes: 1, mining: { mode: 'manual' } })
    const c = await pClient(devnet.url, devnet.network.devAccounts[4]!.privateKey)
    const before = await unlocked(c)
    const tx = pvm.newBaseTx({ ...(await common(c)), outputs: [TransferableOutput.fromNative(c.context.avaxAssetID, AVAX, [c.addr])] }, c.context)
    const txId = await signAndIssue(c, tx)
    const { id } = await sim(devnet.url, 'snapshot')
    await sim(devnet.url, 'advanceTime', { seconds: 1 })
    expect(await status(devnet.url, txId)).toEqual({ status: 'Committed' })
    await sim(devnet.url, 'revert', { id: Number(id) })
    expect(await status(devnet.url, txId)).toEqual({ status: 'Processing' })
    expect(await unlocked(c)).toBe(before)
    await sim(devnet.url, 'advanceTime', { seconds: 1 })
    expect(await status(devnet.url, txId)).toEqual({ status: 'Committed' })
  })

  it('a second tx spending a waiting tx\'s UTXO: tx conflicts with other tx, recorded as its drop reason', async () => {
    devnet = await startTestDevnet('p-issue-conflict', { nodes: 1, mining: { mode: 'manual' } })
    const c = await pClient(devnet.url, devnet.network.devAccounts[2]!.privateKey)
    const base = await common(c)
    const first = pvm.newBaseTx({ ...base, outputs: [TransferableOutput.fromNative(c.context.avaxAssetID, AVAX, [c.addr])] }, c.context)
    const second = pvm.newBaseTx({ ...base, outputs: [TransferableOutput.fromNative(c.context.avaxAssetID, 2n * AVAX, [c.addr])] }, c.context)
    const firstId = await signAndIssue(c, first)
    await signAll(c, second)
    const refused = await call(devnet.url, '/ext/bc/P', 'platform.issueTx', { tx: signedHex(second) })
    expect(refused.json.error).toEqual({ code: -32000, message: "couldn't issue tx: tx conflicts with other tx", data: null })
    expect(await status(devnet.url, txIdOf(second))).toEqual({ status: 'Dropped', reason: 'tx conflicts with other tx' })
    await sim(devnet.url, 'advanceTime', { seconds: 1 })
    expect(await status(devnet.url, firstId)).toEqual({ status: 'Committed' })
    expect(await status(devnet.url, txIdOf(second))).toEqual({ status: 'Dropped', reason: 'tx conflicts with other tx' })
  })

  it('two txs each valid alone, not together: the block takes one and drops the other with its execution error', async () => {
    devnet = await startTestDevnet('p-issue-dropped', { nodes: 1, mining: { mode: 'manual' } })
    const c = await pClient(devnet.url, devnet.network.devAccounts[3]!.privateKey)
    const { subnetID } = await sim(devnet.url, 'createSubnet', { account: 3 })
    // a second UTXO, so the two txs spend different inputs
    devnet.network.wallets(4)!.p.send([{ address: c.addr, amount: 10n * AVAX }])
    const { nodeID } = await result(devnet.url, '/ext/info', 'info.getNodeID', {})
    const { feeState, fromAddressesBytes, utxos } = await common(c)
    expect(utxos).toHaveLength(2)
    const start = BigInt(devnet.network.primary.pchain.timestamp)
    const txs = utxos.map((u: unknown) =>
      pvm.newAddSubnetValidatorTx({ feeState, fromAddressesBytes, utxos: [u], end: start + 86_400n * 7n, nodeId: nodeID, start, subnetAuth: [0], subnetId: subnetID, weight: 10n }, c.context),
    )
    const ids: string[] = []
    for (const tx of txs) {
      await signAll(c, tx)
      ids.push((await result(devnet.url, '/ext/bc/P', 'platform.issueTx', { tx: signedHex(tx) })).txID)
    }
    expect(await Promise.all(ids.map((id) => status(devnet!.url, id)))).toEqual([{ status: 'Processing' }, { status: 'Processing' }])
    await sim(devnet.url, 'advanceTime', { seconds: 1 })
    const after = await Promise.all(ids.map((id) => status(devnet!.url, id)))
    const committed = after.findIndex((s) => s.status === 'Committed')
    expect(committed).toBeGreaterThanOrEqual(0)
    const dropped = ids[1 - committed]!
    expect(after[1 - committed]).toEqual({ status: 'Dropped', reason: `standard tx ${dropped} failed execution: attempted to issue duplicate validator for ${nodeID} on subnet ${subnetID}` })
    // the dropped tx spent nothing: its UTXO is still there
    expect(await utxoIds(c)).toContain(`${txs[1 - committed]!.getTx().baseTx.inputs[0].utxoID.txID.toString()}:${txs[1 - committed]!.getTx().baseTx.inputs[0].utxoID.outputIdx.value()}`)
  })
})
