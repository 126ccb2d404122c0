/**
 * AVAX between the X-, P- and C-chains with the P-chain's half issued through `platform.issueTx`,
 * as avalanchejs' examples and `@avalanche-sdk/client` do it: X → P (avm.newExportTx, then
 * pvm.newImportTx), P → X, P → C (pvm.newExportTx, then evm.newImportTx) and, with the SDK, C → P.
 * Each side is read back on its own chain (getTxStatus, balances, the atomic UTXOs in between).
 * Needs `platform.issueTx` (issue 15's P-chain part).
 */
import { createAvalancheWalletClient } from '@avalanche-sdk/client'
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts'
import { avalancheFuji } from '@avalanche-sdk/client/chains'
import { describe, expect, it } from 'vitest'
import { ajs, ethBalance, keyAddresses, ok, primaryDevnets } from './primaryClients.js'

const AVAX = 1_000_000_000n
const WEI = 1_000_000_000n

const start = primaryDevnets()

async function setup(label: string, preset: 'local' | 'fuji' = 'local') {
  const { devnet, url, network, context, avmapi, pvmapi, evmapi } = await start(label, preset)
  const alice = keyAddresses(network.devAccounts[0]!.privateKey, context.hrp)
  const pBalance = async (address: string) => BigInt((await ok(url, '/ext/bc/P', 'platform.getBalance', { addresses: [address] })).unlocked)
  const xBalance = async (address: string) => BigInt((await avmapi.getBalance({ address, assetID: 'AVAX' })).balance)
  return { devnet, url, network, context, avmapi, pvmapi, evmapi, alice, pBalance, xBalance }
}

describe('X ↔ P ↔ C with the P-chain issuing', () => {
  it('X → P: avm.newExportTx, then pvm.newImportTx through platform.issueTx', async () => {
    const s = await setup('xp-x-to-p')
    const [xBefore, pBefore] = [await s.xBalance(s.alice.x), await s.pBalance(s.alice.p)]
    const { utxos } = await s.avmapi.getUTXOs({ addresses: [s.alice.x] })
    const exp = ajs.avm.newExportTx(s.context, s.context.pBlockchainID, [s.alice.bytes], utxos, [ajs.TransferableOutput.fromNative(s.context.avaxAssetID, 10n * AVAX, [s.alice.bytes])])
    await ajs.addTxSignatures({ unsignedTx: exp, privateKeys: [s.alice.key] })
    const { txID: exportId } = await s.avmapi.issueSignedTx(exp.getSignedTx())
    expect(await s.avmapi.getTxStatus({ txID: exportId })).toEqual({ status: 'Accepted' })
    expect(await s.xBalance(s.alice.x)).toBe(xBefore - 10n * AVAX - s.context.baseTxFee)

    const feeState = await s.pvmapi.getFeeState()
    const { utxos: atomic } = await s.pvmapi.getUTXOs({ sourceChain: 'X', addresses: [s.alice.p] })
    expect(atomic).toHaveLength(1)
    const imp = ajs.pvm.newImportTx({ feeState, fromAddressesBytes: [s.alice.bytes], sourceChainId: s.context.xBlockchainID, toAddressesBytes: [s.alice.bytes], utxos: atomic }, s.context)
    await ajs.addTxSignatures({ unsignedTx: imp, privateKeys: [s.alice.key] })
    const { txID: importId } = await s.pvmapi.issueSignedTx(imp.getSignedTx())
    expect((await s.pvmapi.getTxStatus({ txID: importId })).status).toBe('Committed')
    const burned: bigint = ajs.utils.getBurnedAmountByTx(imp.getTx(), s.context).get(s.context.avaxAssetID)
    expect(await s.pBalance(s.alice.p)).toBe(pBefore + 10n * AVAX - burned)
    expect((await s.pvmapi.getUTXOs({ sourceChain: 'X', addresses: [s.alice.p] })).utxos).toEqual([])
  })

  it('P → X and P → C: pvm.newExportTx, then avm.newImportTx and evm.newImportTx', async () => {
    const s = await setup('xp-p-out')
    for (const [destination, amount] of [[s.context.xBlockchainID, 3n * AVAX], [s.context.cBlockchainID, 5n * AVAX]] as const) {
      const feeState = await s.pvmapi.getFeeState()
      const { utxos } = await s.pvmapi.getUTXOs({ addresses: [s.alice.p] })
      const exp = ajs.pvm.newExportTx({ destinationChainId: destination, feeState, fromAddressesBytes: [s.alice.bytes], outputs: [ajs.TransferableOutput.fromNative(s.context.avaxAssetID, amount, [s.alice.bytes])], utxos }, s.context)
      await ajs.addTxSignatures({ unsignedTx: exp, privateKeys: [s.alice.key] })
      const { txID } = await s.pvmapi.issueSignedTx(exp.getSignedTx())
      expect((await s.pvmapi.getTxStatus({ txID })).status).toBe('Committed')
    }
    const xBefore = await s.xBalance(s.alice.x)
    const { utxos: toX } = await s.avmapi.getUTXOs({ sourceChain: 'P', addresses: [s.alice.x] })
    const xImp = ajs.avm.newImportTx(s.context, s.context.pBlockchainID, toX, [s.alice.bytes], [s.alice.bytes])
    await ajs.addTxSignatures({ unsignedTx: xImp, privateKeys: [s.alice.key] })
    expect(await s.avmapi.getTxStatus({ txID: (await s.avmapi.issueSignedTx(xImp.getSignedTx())).txID })).toEqual({ status: 'Accepted' })
    expect(await s.xBalance(s.alice.x)).toBe(xBefore + 3n * AVAX - s.context.baseTxFee)

    const cBefore = await ethBalance(s.url, s.alice.eth)
    const { utxos: toC } = await s.evmapi.getUTXOs({ sourceChain: 'P', addresses: [s.alice.c] })
    const baseFee = ((await s.evmapi.getBaseFee()) + WEI - 1n) / WEI
    const cImp = ajs.evm.newImportTxFromBaseFee(s.context, ajs.utils.hexToBuffer(s.alice.eth), [s.alice.bytes], toC, s.context.pBlockchainID, baseFee)
    await ajs.addTxSignatures({ unsignedTx: cImp, privateKeys: [s.alice.key] })
    const { txID } = await s.evmapi.issueSignedTx(cImp.getSignedTx())
    expect((await s.evmapi.getAtomicTxStatus(txID)).status).toBe('Accepted')
    expect(await ethBalance(s.url, s.alice.eth)).toBe(cBefore + BigInt(cImp.getTx().Outs[0].amount.value()) * WEI)
  })

  it('C → P with @avalanche-sdk/client: cChain.prepareExportTxn, then pChain.prepareImportTxn', async () => {
    const s = await setup('xp-sdk-c-to-p', 'fuji')
    const account = privateKeyToAvalancheAccount(s.network.devAccounts[0]!.privateKey)
    const client = createAvalancheWalletClient({ chain: avalancheFuji, transport: { type: 'http', url: s.devnet.rpcUrl('C') }, account })
    const p = account.getXPAddress('P', 'fuji')
    const before = await s.pBalance(p)
    const exported = await client.cChain.prepareExportTxn({ destinationChain: 'P', fromAddress: account.getEVMAddress(), exportedOutput: { addresses: [p], amount: 2n * AVAX } })
    const { txHash } = await client.sendXPTransaction(exported)
    await client.waitForTxn({ txHash, chainAlias: 'C' })
    const imported = await client.pChain.prepareImportTxn({ sourceChain: 'C', importedOutput: { addresses: [p] } })
    const { txHash: importHash } = await client.sendXPTransaction(imported)
    await client.waitForTxn({ txHash: importHash, chainAlias: 'P' })
    expect(await s.pBalance(p)).toBeGreaterThan(before + AVAX)
    expect(await s.pBalance(p)).toBeLessThan(before + 2n * AVAX)
  })
})
