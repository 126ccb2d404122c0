/**
 * In-memory snapshots share the X-chain state copy-on-write and keep the P-chain's pushed
 * validator sets: what a client sees over HTTP after `evm_revert` must be the state of the
 * snapshot, whatever was written after it, for nested snapshots and for a revert to an older
 * snapshot after newer ones were taken and used.
 */
import { hexToBytes } from '@ethereumjs/util'
import { afterEach, describe, expect, it } from 'vitest'
import { addressFromPrivateKey } from '../../src/platform/secp256k1fx.js'
import { Keychain, XWallet } from '../../src/platform/xchain/wallet.js'
import { startTestDevnet, type TestDevnet } from '../api/node/helpers.js'
import { keyAddresses, ok } from '../integration/primaryClients.js'

const AVAX = 1_000_000_000n
let devnet: TestDevnet | undefined
afterEach(async () => {
  await devnet?.stop()
  devnet = undefined
})

describe('evm_snapshot / evm_revert over the P- and X-chain state', () => {
  it('restores X balances, UTXOs and txs for nested snapshots, a reused one and an older one', async () => {
    devnet = await startTestDevnet('snapcow-x', { nodes: 1 })
    const { url, network } = devnet
    const evm = (method: string, params: unknown[] = []) => ok(url, '/ext/bc/C/rpc', method, params)
    const key = network.devAccounts[4]!.privateKey
    const { x } = keyAddresses(key, network.preset.hrp)
    const wallet = new XWallet(network.primary.xchain, new Keychain([hexToBytes(key)]))
    const to = addressFromPrivateKey(hexToBytes(network.devAccounts[5]!.privateKey))
    const view = async () => ({
      balance: (await ok(url, '/ext/bc/X', 'avm.getBalance', { address: x, assetID: 'AVAX' })).balance as string,
      utxos: (await ok(url, '/ext/bc/X', 'avm.getUTXOs', { addresses: [x], limit: 1024 })).utxos as string[],
      height: (await ok(url, '/ext/bc/X', 'avm.getHeight')).height as string,
    })
    const send = (amount: bigint) => network.primary.xchain.issueTx(wallet.send([{ address: to, amount }])).txId

    const start = await view()
    const s1 = await evm('evm_snapshot')
    const txA = send(1n * AVAX)
    const afterA = await view()
    expect(afterA.balance).not.toBe(start.balance)
    const s2 = await evm('evm_snapshot')
    send(2n * AVAX)
    const s3 = await evm('evm_snapshot')
    send(3n * AVAX)
    expect(await evm('evm_revert', [s3])).toBe(true)
    expect(BigInt((await view()).balance)).toBe(BigInt(afterA.balance) - 2n * AVAX - network.primary.xchain.txFee)
    // back to s2, then a write after it: the containers s1 shares must not see it
    expect(await evm('evm_revert', [s2])).toBe(true)
    expect(await view()).toEqual(afterA)
    send(4n * AVAX)
    expect(BigInt((await view()).balance)).toBe(BigInt(afterA.balance) - 4n * AVAX - network.primary.xchain.txFee)
    expect(await evm('evm_revert', [s1])).toBe(true)
    expect(await view()).toEqual(start)
    const gone = await ok(url, '/ext/bc/X', 'avm.getTxStatus', { txID: txA })
    expect(gone.status).toBe('Unknown')
    // a used-up snapshot is gone; the state stays writable and a new snapshot restores it
    expect(await evm('evm_revert', [s2])).toBe(false)
    const s4 = await evm('evm_snapshot')
    send(5n * AVAX)
    expect(await evm('evm_revert', [s4])).toBe(true)
    expect(await view()).toEqual(start)
  })

  it('restores the P-chain validators and the primary set the nodes use, and pushes a set re-added after the revert', async () => {
    devnet = await startTestDevnet('snapcow-p', { nodes: 2 })
    const { url, network } = devnet
    const evm = (method: string, params: unknown[] = []) => ok(url, '/ext/bc/C/rpc', method, params)
    const validators = async () => ((await ok(url, '/ext/bc/P', 'platform.getCurrentValidators', {})).validators as { nodeID: string }[]).map((v) => v.nodeID).sort()
    const uptime = () => ok(url, '/ext/info', 'info.uptime', {})
    const node = network.newValidatorIdentity()
    const add = () => network.wallets(0)!.p.addValidator({ node, stake: 2_000n * AVAX, end: network.clock.now() + 14 * 24 * 3600 })

    const start = { validators: await validators(), uptime: await uptime() }
    const s1 = await evm('evm_snapshot')
    add()
    const added = { validators: await validators(), uptime: await uptime() }
    expect(added.validators).toContain(node.nodeId)
    // the new validator is not connected: the stake-weighted uptime drops
    expect(added.uptime).not.toEqual(start.uptime)
    const s2 = await evm('evm_snapshot')
    expect(await evm('evm_revert', [s2])).toBe(true)
    expect({ validators: await validators(), uptime: await uptime() }).toEqual(added)
    expect(await evm('evm_revert', [s1])).toBe(true)
    expect({ validators: await validators(), uptime: await uptime() }).toEqual(start)
    // the same validator again: its set differs from the one pushed at s1, so the nodes get it
    add()
    expect({ validators: await validators(), uptime: await uptime() }).toEqual(added)
  })

  it('restores uptimes after a disconnection and C-chain atomic txs after an export, nested and reused', async () => {
    devnet = await startTestDevnet('snapcow-uptime', { nodes: 3 })
    const { url, network } = devnet
    const evm = (method: string, params: unknown[] = []) => ok(url, '/ext/bc/C/rpc', method, params)
    const uptime = () => ok(url, '/ext/info', 'info.uptime', {})
    const status = async (txID: string) => (await ok(url, '/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID })).status as string
    await network.advanceTime(3600)
    const start = await uptime()
    const s1 = await evm('evm_snapshot')
    // an hour offline, then back (faults are not part of a snapshot: the node must be up again)
    network.faults.disconnectNode(1)
    await network.advanceTime(3600)
    network.faults.connectNode(1)
    const down = await uptime()
    expect(down).not.toEqual(start)
    const s2 = await evm('evm_snapshot')
    const key = hexToBytes(network.devAccounts[6]!.privateKey)
    const { txId: txID } = await network.primary.exportFromC({ destinationChain: network.preset.xChainId, to: addressFromPrivateKey(key), amount: AVAX, privateKey: key })
    expect(await status(txID)).toBe('Accepted')
    expect(await evm('evm_revert', [s2])).toBe(true)
    expect(await status(txID)).toBe('Unknown')
    expect(await uptime()).toEqual(down)
    expect(await evm('evm_revert', [s1])).toBe(true)
    expect(await uptime()).toEqual(start)
    // the restored trackers keep counting: the same hour offline again gives the same uptime
    const s3 = await evm('evm_snapshot')
    network.faults.disconnectNode(1)
    await network.advanceTime(3600)
    network.faults.connectNode(1)
    expect(await uptime()).toEqual(down)
    expect(await evm('evm_revert', [s3])).toBe(true)
    expect(await uptime()).toEqual(start)
    // from the restored trackers every node was up all along: two more hours up keep 100%
    expect(start).toEqual({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' })
    await network.advanceTime(7200)
    expect(await uptime()).toEqual(start)
  })
})
