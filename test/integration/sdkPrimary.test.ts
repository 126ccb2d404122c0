/**
 * The main X- and C-chain flows as `@avalanche-sdk/client` 0.1.1 runs them (its `prepare…Txn`
 * methods, `sendXPTransaction`, `waitForTxn`), against a served network. Its cross-chain methods
 * map chain aliases to the ids of Fuji and Mainnet only (`getChainIdFromAlias` refuses any other
 * network id), so these run on the fuji preset, whose ids are Fuji's.
 */
import { createAvalancheWalletClient } from '@avalanche-sdk/client'
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts'
import { avalancheFuji } from '@avalanche-sdk/client/chains'
import { describe, expect, it } from 'vitest'
import { ethBalance, ok, primaryDevnets } from './primaryClients.js'

const AVAX = 1_000_000_000n
const WEI = 1_000_000_000n

const start = primaryDevnets()

async function setup(label: string) {
  const { devnet, url, network } = await start(label, 'fuji')
  const alice = privateKeyToAvalancheAccount(network.devAccounts[0]!.privateKey)
  const bob = privateKeyToAvalancheAccount(network.devAccounts[1]!.privateKey)
  const client = createAvalancheWalletClient({ chain: avalancheFuji, transport: { type: 'http', url: devnet.rpcUrl('C') }, account: alice })
  const xBalance = async (address: string) => BigInt((await ok(url, '/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' })).balance)
  return { url, network, client, alice, bob, xBalance }
}

describe('@avalanche-sdk/client against a served network', () => {
  it('X-chain send: prepareBaseTxn, sendXPTransaction, waitForTxn', async () => {
    const { client, alice, bob, xBalance } = await setup('sdk-x-send')
    const [from, to] = [alice.getXPAddress('X', 'fuji'), bob.getXPAddress('X', 'fuji')]
    const [fromBefore, toBefore] = [await xBalance(from), await xBalance(to)]
    const { txHash } = await client.sendXPTransaction(await client.xChain.prepareBaseTxn({ outputs: [{ addresses: [to], amount: 3n * AVAX }] }))
    await client.waitForTxn({ txHash, chainAlias: 'X' })
    expect(await xBalance(to)).toBe(toBefore + 3n * AVAX)
    expect(await xBalance(from)).toBe(fromBefore - 3n * AVAX - 1_000_000n)
  })

  it('C → X: cChain.prepareExportTxn, then xChain.prepareImportTxn', async () => {
    const { url, client, alice, xBalance } = await setup('sdk-c-x')
    const x = alice.getXPAddress('X', 'fuji')
    const [cBefore, xBefore] = [await ethBalance(url, alice.getEVMAddress()), await xBalance(x)]
    const exported = await client.cChain.prepareExportTxn({ destinationChain: 'X', fromAddress: alice.getEVMAddress(), exportedOutput: { addresses: [x], amount: 4n * AVAX } })
    const spent = (exported.exportTx as unknown as { ins: Array<{ amount: { value(): bigint } }> }).ins[0]!.amount.value()
    const { txHash } = await client.sendXPTransaction(exported)
    await client.waitForTxn({ txHash, chainAlias: 'C' })
    expect(await client.cChain.getAtomicTxStatus({ txID: txHash })).toMatchObject({ status: 'Accepted' })
    expect(await ethBalance(url, alice.getEVMAddress())).toBe(cBefore - spent * WEI)

    const { txHash: importHash } = await client.sendXPTransaction(await client.xChain.prepareImportTxn({ sourceChain: 'C', importedOutput: { addresses: [x] } }))
    await client.waitForTxn({ txHash: importHash, chainAlias: 'X' })
    expect(await xBalance(x)).toBe(xBefore + 4n * AVAX - 1_000_000n)
  })

  it('X → C: xChain.prepareExportTxn, then cChain.prepareImportTxn into the EVM account', async () => {
    const { url, client, alice } = await setup('sdk-x-c')
    const cAddress = alice.getXPAddress('C', 'fuji')
    const before = await ethBalance(url, alice.getEVMAddress())
    const exported = await client.xChain.prepareExportTxn({ destinationChain: 'C', exportedOutputs: [{ addresses: [cAddress], amount: 6n * AVAX }] })
    const { txHash } = await client.sendXPTransaction(exported)
    await client.waitForTxn({ txHash, chainAlias: 'X' })

    const imported = await client.cChain.prepareImportTxn({ sourceChain: 'X', toAddress: alice.getEVMAddress() })
    const credited = (imported.importTx as unknown as { Outs: Array<{ amount: { value(): bigint } }> }).Outs[0]!.amount.value()
    const { txHash: importHash } = await client.sendXPTransaction(imported)
    await client.waitForTxn({ txHash: importHash, chainAlias: 'C' })
    expect(credited).toBeLessThan(6n * AVAX)
    expect(await ethBalance(url, alice.getEVMAddress())).toBe(before + credited * WEI)
  })
})
