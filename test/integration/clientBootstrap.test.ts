/**
 * What the clients read before they can sign: avalanchejs' `Context.getContextFromURI` (avm
 * `getAssetDescription` and `getTxFee`, info `getBlockchainID` ×3 and `getNetworkID`, platform
 * `getFeeConfig`) and `@avalanche-sdk/client`'s own copy of it, which its `prepare…Txn` methods run
 * when given no context (the same calls through its per-chain clients; it is not exported, so it is
 * checked through the tx it builds), against a served network and compared with the network's real
 * values (avalanchego's genesis parameters for each preset); and the X-chain's blocks as both
 * clients ask for them.
 */
import { createAvalancheWalletClient } from '@avalanche-sdk/client'
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts'
import { avalancheFuji, avalancheLocal } from '@avalanche-sdk/client/chains'
import { afterEach, describe, expect, it } from 'vitest'
import { NETWORK_PRESETS } from '../../src/index.js'
import { startTestDevnet, type TestDevnet } from '../api/node/helpers.js'
import { ajs, ok } from './primaryClients.js'

let devnet: TestDevnet | undefined
afterEach(async () => {
  await devnet?.stop()
  devnet = undefined
})

/** avalanchego `genesis_{local,fuji}.go`: the X-chain's static fees and the P-chain's dynamic fee config, in nAVAX. */
const GENESIS_PARAMS = {
  local: { txFee: 1_000_000n, createAssetTxFee: 1_000_000n },
  fuji: { txFee: 1_000_000n, createAssetTxFee: 10_000_000n },
} as const
const PLATFORM_FEE_CONFIG = {
  weights: { 0: 1, 1: 1000, 2: 1000, 3: 4 },
  maxCapacity: 1_000_000n,
  maxPerSecond: 100_000n,
  targetPerSecond: 50_000n,
  minPrice: 1n,
  excessConversionConstant: 2_164_043n,
}

describe('client bootstrap', () => {
  it.each(['local', 'fuji'] as const)('%s: avalanchejs and @avalanche-sdk/client read the network\'s ids, fees, hrp and network id', async (preset) => {
    devnet = await startTestDevnet(`bootstrap-${preset}`, { nodes: 1, preset })
    const p = NETWORK_PRESETS[preset]
    const expected = {
      xBlockchainID: p.xChainId,
      pBlockchainID: p.pChainId,
      cBlockchainID: p.cChainId,
      avaxAssetID: p.avaxAssetId,
      baseTxFee: GENESIS_PARAMS[preset].txFee,
      createAssetTxFee: GENESIS_PARAMS[preset].createAssetTxFee,
      networkID: p.networkId,
      hrp: p.hrp,
      platformFeeConfig: PLATFORM_FEE_CONFIG,
    }
    const context = await ajs.Context.getContextFromURI(devnet.url)
    expect({ ...context, platformFeeConfig: { ...context.platformFeeConfig, weights: { ...context.platformFeeConfig.weights } } }).toEqual(expected)

    const chain = preset === 'local' ? avalancheLocal : avalancheFuji
    const client = createAvalancheWalletClient({
      chain,
      transport: { type: 'http', url: devnet.rpcUrl('C') },
      account: privateKeyToAvalancheAccount(devnet.network.devAccounts[0]!.privateKey),
    })
    expect(await client.xChain.getTxFee()).toEqual({ txFee: String(expected.baseTxFee), createAssetTxFee: String(expected.createAssetTxFee) })
    // The SDK's bootstrap, then a BaseTx on what it read: this network, this chain, its fee.
    const to = privateKeyToAvalancheAccount(devnet.network.devAccounts[1]!.privateKey).getXPAddress('X', p.hrp)
    const { tx } = await client.xChain.prepareBaseTxn({ outputs: [{ addresses: [to], amount: 5_000_000n }] })
    const base = (tx.getTx() as unknown as { baseTx: { NetworkId: { value(): number }; BlockchainId: { toString(): string } } }).baseTx
    expect([base.NetworkId.value(), base.BlockchainId.toString()]).toEqual([p.networkId, p.xChainId])
    expect(ajs.utils.getBurnedAmountByTx(tx.getTx()).get(p.avaxAssetId)).toBe(expected.baseTxFee)
    const { txHash } = await client.sendXPTransaction({ tx, chainAlias: 'X' } as never)
    expect(await client.xChain.getTxStatus({ txID: txHash })).toEqual({ status: 'Accepted' })
  })

  it('avm.getBlock and getBlockByHeight: the genesis block on the stop vertex, then a block the clients decode', async () => {
    devnet = await startTestDevnet('bootstrap-blocks', { nodes: 1, preset: 'fuji' })
    const { url, network } = devnet
    const client = createAvalancheWalletClient({ chain: avalancheFuji, transport: { type: 'http', url: devnet.rpcUrl('C') }, account: privateKeyToAvalancheAccount(network.devAccounts[0]!.privateKey) })
    // The SDK sends `blockId` and `height` as Go decodes them (field names fold, numbers as json.Uint64).
    const genesis = await client.xChain.getBlockByHeight({ height: 0, encoding: 'json' } as never) as unknown as { block: Record<string, unknown> }
    expect(genesis.block).toEqual({
      parentID: NETWORK_PRESETS.fuji.upgradeParams.cortinaXChainStopVertexID,
      height: 0,
      time: expect.any(Number),
      merkleRoot: '11111111111111111111111111111111LpoYY',
      txs: [],
      id: network.primary.xchain.getBlockByHeight(0)!.id,
    })
    const byId = await client.xChain.getBlock({ blockId: genesis.block.id as string, encoding: 'json' } as never) as unknown as { block: unknown }
    expect(byId.block).toEqual(genesis.block)

    const w = network.wallets(0)!
    const { txId, height } = network.primary.xchain.issueTx(w.x.send([{ address: network.wallets(1)!.address, amount: 1_000_000_000n }]))
    const hex = await ok(url, '/ext/bc/X', 'avm.getBlockByHeight', { height: String(height) })
    const bytes: Uint8Array = ajs.utils.hexToBuffer(hex.block)
    expect(ajs.utils.addChecksum(bytes.slice(0, -4))).toEqual(bytes)
    // The block carries the tx as avalanchejs reads it back from avm.getTx.
    const tx = await new ajs.avm.AVMApi(url).getTx({ txID: txId })
    const signed: Uint8Array = tx.toBytes()
    expect(Buffer.from(bytes.slice(0, -4)).includes(Buffer.from(signed.slice(2)))).toBe(true)
    await expect(ok(url, '/ext/bc/X', 'avm.getBlockByHeight', { height: height + 1 })).rejects.toThrow(`couldn't get block at height ${height + 1}: not found`)
  })
})
