/**
 * The P-chain's main flows from @avalanche-sdk/client 0.1.1 (the viem-based Avalanche client), as
 * its README drives them: `createAvalancheWalletClient` on the local chain pointed at a devnet,
 * `pChain.prepareXxxTxn` (it reads the context, fee state and UTXOs from the node), then
 * `sendXPTransaction` (signs, `platform.issueTx`) and `waitForTxn`; read back over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAvalancheWalletClient } from '@avalanche-sdk/client'
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts'
import { avalancheLocal } from '@avalanche-sdk/client/chains'
import { testGenesis } from '../../l1/helpers.js'
import { blsFixture, bytes20 } from '../../platform/fixtures/ajs.js'
import { result, startTestDevnet, type TestDevnet } from './helpers.js'
import { AVAX, platform, utils } from './pchain.js'

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet('p-sdk-client', { nodes: 2 })
})
afterAll(async () => {
  await devnet.stop()
})

const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy'

/** The README's wallet client for a dev account's key, its transport at the devnet's C-chain URL (the P-chain client derives `/ext/bc/P`). */
function walletOf(account: number) {
  const avalancheAccount = privateKeyToAvalancheAccount(devnet.network.devAccounts[account]!.privateKey as `0x${string}`)
  const wallet = createAvalancheWalletClient({ account: avalancheAccount, chain: avalancheLocal, transport: { type: 'http', url: `${devnet.url}/ext/bc/C/rpc` } })
  return { wallet, pAddr: avalancheAccount.getXPAddress('P', 'local') }
}

/** `sendXPTransaction` then `waitForTxn`, as the README chains them; the tx id. */
async function send(wallet: ReturnType<typeof walletOf>['wallet'], request: Parameters<ReturnType<typeof walletOf>['wallet']['sendXPTransaction']>[0]): Promise<string> {
  const { txHash } = await wallet.sendXPTransaction(request)
  await wallet.waitForTxn({ txHash, chainAlias: 'P' })
  expect(await platform(devnet.url, 'getTxStatus', { txID: txHash })).toEqual({ status: 'Committed' })
  return txHash
}

const unlocked = async (pAddr: string) => BigInt((await platform(devnet.url, 'getBalance', { addresses: [pAddr] })).unlocked)

describe('@avalanche-sdk/client against platform.issueTx', () => {
  it('prepareBaseTxn + sendXPTransaction: the payee is paid; the same tx sent again is refused and changes nothing', async () => {
    const { wallet, pAddr } = walletOf(1)
    const payee = walletOf(2).pAddr
    const [before, payeeBefore] = [await unlocked(pAddr), await unlocked(payee)]
    const request = await wallet.pChain.prepareBaseTxn({ outputs: [{ addresses: [payee], amount: 2n * AVAX }] })
    const txId = await send(wallet, request)
    expect(await unlocked(payee)).toBe(payeeBefore + 2n * AVAX)
    const paid = before - (await unlocked(pAddr))
    expect(paid).toBeGreaterThan(2n * AVAX)
    expect((await platform(devnet.url, 'getTx', { txID: txId, encoding: 'json' })).tx.unsignedTx.outputs.map((o: { output: { amount: number } }) => o.output.amount)).toContain(Number(2n * AVAX))
    const height = await platform(devnet.url, 'getHeight')
    await expect(wallet.sendXPTransaction(request)).rejects.toThrow(`couldn't issue tx: failed verification: failed execution: standard tx ${txId} failed execution: failed to read consumed UTXO`)
    expect([await unlocked(pAddr), await unlocked(payee), await platform(devnet.url, 'getHeight')]).toEqual([before - paid, payeeBefore + 2n * AVAX, height])
  })

  it('prepareCreateSubnetTxn, prepareCreateChainTxn, prepareConvertSubnetToL1Txn: an L1 whose chain serves, with two validators', async () => {
    const { wallet, pAddr } = walletOf(3)
    const subnetId = await send(wallet, await wallet.pChain.prepareCreateSubnetTxn({ subnetOwners: { addresses: [pAddr] } }))
    expect(await platform(devnet.url, 'getSubnet', { subnetID: subnetId })).toMatchObject({ isPermissioned: true, controlKeys: [pAddr] })
    const chainId = await send(wallet, await wallet.pChain.prepareCreateChainTxn({ subnetId, vmId: SUBNET_EVM, chainName: 'sdkchain', genesisData: testGenesis(), subnetAuth: [0] }))
    const res = await fetch(`${devnet.url}/ext/bc/${chainId}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    expect(((await res.json()) as { result: string }).result).toBe('0x1869f')

    const nodes = await Promise.all([0, 1].map((i) => result(devnet.nodes[i]!.url, '/ext/info', 'info.getNodeID', {})))
    const owner = { addresses: [pAddr], threshold: 1 }
    const validators = nodes.map((n) => ({ nodeId: n.nodeID, nodePoP: n.nodePOP, weight: 100n, initialBalanceInAvax: AVAX, remainingBalanceOwner: owner, deactivationOwner: owner }))
    await send(wallet, await wallet.pChain.prepareConvertSubnetToL1Txn({ subnetId, blockchainId: chainId, managerContractAddress: '0x0000000000000000000000000000000000000abc', validators, subnetAuth: [0] }))
    expect(await platform(devnet.url, 'getSubnet', { subnetID: subnetId })).toMatchObject({ isPermissioned: false, managerChainID: chainId })
    const set = (await result(devnet.url, `/ext/bc/${chainId}/validators`, 'validators.getCurrentValidators', {})).validators as { nodeID: string; validationID: string }[]
    expect(set.map((v) => v.nodeID).sort()).toEqual(nodes.map((n) => n.nodeID).sort())
    for (const v of set) expect(await platform(devnet.url, 'getL1Validator', { validationID: v.validationID })).toMatchObject({ subnetID: subnetId, weight: '100', balance: String(AVAX) })
  })

  it('prepareAddPermissionlessValidatorTxn: a primary network validator with its BLS key', async () => {
    const { wallet, pAddr } = walletOf(4)
    const bls = blsFixture('sdk-validator')
    const nodeId = `NodeID-${utils.base58check.encode(bytes20('sdk-validator'))}`
    const now = BigInt(new Date((await platform(devnet.url, 'getTimestamp')).timestamp).getTime() / 1000)
    const before = await unlocked(pAddr)
    const txId = await send(wallet, await wallet.pChain.prepareAddPermissionlessValidatorTxn({
      nodeId, stakeInAvax: 2_000n * AVAX, publicKey: utils.bufferToHex(bls.publicKey), signature: utils.bufferToHex(bls.signature),
      end: now + 21n * 86_400n, rewardAddresses: [pAddr], delegatorRewardAddresses: [pAddr], delegatorRewardPercentage: 2,
    }))
    const [v] = (await platform(devnet.url, 'getCurrentValidators', { nodeIDs: [nodeId] })).validators
    expect(v).toMatchObject({ txID: txId, nodeID: nodeId, weight: String(2_000n * AVAX), delegationFee: '2.0000', signer: { publicKey: utils.bufferToHex(bls.publicKey) } })
    expect(await unlocked(pAddr)).toBeLessThan(before - 2_000n * AVAX)
  })
})
