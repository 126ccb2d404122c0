/**
 * platform.issueTx with AVAX moves built by @avalabs/avalanchejs as its examples build them
 * (examples/p-chain/base.ts, import.ts, export.ts), issued over HTTP and read back through the
 * node (getTx, getTxStatus, getBalance, getUTXOs) and the data API (ops 14, 15).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Glacier } from '@avalabs/glacier-sdk'
import { formatXAddress } from '../../../src/platform/secp256k1fx.js'
import { startTestDevnet, result, type TestDevnet } from './helpers.js'
import { AVAX, TransferableOutput, burned, common, dataUtxos, expectAccepted, expectDataUtxosMatch, glacierOf, pClient, pvm, signAndIssue, unlocked } from './pchain.js'

let devnet: TestDevnet
let glacier: Glacier
beforeAll(async () => {
  devnet = await startTestDevnet('p-issue-transfers', { nodes: 1 })
  glacier = glacierOf(devnet.url)
})
afterAll(async () => {
  await devnet.stop()
})

const key = (account: number) => devnet.network.devAccounts[account]!.privateKey

describe('platform.issueTx: AVAX transfers from avalanchejs', () => {
  it('BaseTx pays another address: Committed, both balances and UTXO sets follow, the data API lists it', async () => {
    const alice = await pClient(devnet.url, key(1))
    const bob = await pClient(devnet.url, key(2))
    const [aliceBefore, bobBefore] = [await unlocked(alice), await unlocked(bob)]
    const tx = pvm.newBaseTx({ ...(await common(alice)), outputs: [TransferableOutput.fromNative(alice.context.avaxAssetID, 3n * AVAX, [bob.addr])] }, alice.context)
    const txId = await signAndIssue(alice, tx)
    const { json } = await expectAccepted(alice, txId, tx, 'BaseTx', glacier)
    expect(json.unsignedTx.outputs.map((o: { output: { amount: number } }) => o.output.amount)).toContain(Number(3n * AVAX))
    const fee = burned(tx, alice.context)
    expect(fee).toBeGreaterThan(0n)
    expect(await unlocked(alice)).toBe(aliceBefore - 3n * AVAX - fee)
    expect(await unlocked(bob)).toBe(bobBefore + 3n * AVAX)
    // Bob's new UTXO is output 0 of the tx, in platform.getUTXOs and the data API alike.
    const { utxos } = await bob.pvmApi.getUTXOs({ addresses: [bob.pAddr] })
    expect(utxos.map((u: { utxoId: { txID: { toString(): string } } }) => u.utxoId.txID.toString())).toContain(txId)
    expect((await dataUtxos(glacier, bob.pAddr)).some((u) => u.txHash === txId && u.amount === String(3n * AVAX))).toBe(true)
    await expectDataUtxosMatch(alice, glacier)
    await expectDataUtxosMatch(bob, glacier)
  })

  it('ImportTx from the X-chain: the exported UTXO leaves shared memory and lands in the P balance', async () => {
    const c = await pClient(devnet.url, key(3))
    // The X side exports through the library (avm.issueTx is the X-chain's API).
    const w = devnet.network.wallets(3)!
    devnet.network.primary.xchain.issueTx(w.x.export({ destinationChain: c.context.pBlockchainID, to: w.address, amount: 5n * AVAX }))
    const before = await unlocked(c)
    const pending = await c.pvmApi.getUTXOs({ addresses: [c.pAddr], sourceChain: 'X' })
    expect(pending.utxos).toHaveLength(1)
    const tx = pvm.newImportTx({ ...(await common(c, { sourceChain: 'X' })), sourceChainId: c.context.xBlockchainID, toAddressesBytes: [c.addr] }, c.context)
    const txId = await signAndIssue(c, tx)
    const { listed } = await expectAccepted(c, txId, tx, 'ImportTx', glacier)
    expect(listed.sourceChain).toBe(c.context.xBlockchainID)
    expect(await unlocked(c)).toBe(before + 5n * AVAX - burned(tx, c.context))
    expect((await c.pvmApi.getUTXOs({ addresses: [c.pAddr], sourceChain: 'X' })).utxos).toHaveLength(0)
    await expectDataUtxosMatch(c, glacier)
  })

  it('ExportTx to the X-chain: the P balance pays the amount and the fee, the X-chain sees the atomic UTXO', async () => {
    const c = await pClient(devnet.url, key(4))
    const before = await unlocked(c)
    const tx = pvm.newExportTx(
      { ...(await common(c)), destinationChainId: c.context.xBlockchainID, outputs: [TransferableOutput.fromNative(c.context.avaxAssetID, 2n * AVAX, [c.addr])] },
      c.context,
    )
    const txId = await signAndIssue(c, tx)
    const { listed } = await expectAccepted(c, txId, tx, 'ExportTx', glacier)
    expect(listed.destinationChain).toBe(c.context.xBlockchainID)
    expect(await unlocked(c)).toBe(before - 2n * AVAX - burned(tx, c.context))
    const xAddr = formatXAddress(c.context.networkID, c.addr)
    const atomic = await result(devnet.url, '/ext/bc/X', 'avm.getUTXOs', { addresses: [xAddr], sourceChain: 'P' })
    expect(atomic.numFetched).toBe('1')
    await expectDataUtxosMatch(c, glacier)
  })
})
