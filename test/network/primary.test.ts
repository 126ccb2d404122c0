import { describe, expect, it } from 'vitest'
import { hexToBytes } from '@ethereumjs/util'
import { createNetwork } from '../../src/network/network.js'
import { Keychain, XWallet } from '../../src/platform/xchain/wallet.js'
import { addressFromPrivateKey } from '../../src/platform/secp256k1fx.js'

describe('the primary network: X ↔ C through shared memory', () => {
  it('exports AVAX from X, imports it on C (an EVM balance in wei), and back', async () => {
    const network = await createNetwork({ nodes: 1 })
    const { xchain } = network.primary
    const dev = network.devAccounts[3]!
    const key = hexToBytes(dev.privateKey)
    const keychain = new Keychain([key])
    const wallet = new XWallet(xchain, keychain)
    const xAddr = addressFromPrivateKey(key)
    const xBefore = xchain.balanceOf(xAddr)
    expect(xBefore).toBe(10_000n * 10n ** 9n)
    const cChainId = network.preset.cChainId
    xchain.issueTx(wallet.export({ destinationChain: cChainId, to: xAddr, amount: 5n * 10n ** 9n }))
    expect(xchain.balanceOf(xAddr)).toBe(xBefore - 5n * 10n ** 9n - xchain.txFee)

    const evm = hexToBytes(dev.address)
    const cBefore = (await network.cChain.getAccountFields(dev.address, 'latest')).balance
    const height = network.cChain.head.number
    await network.primary.importToC({ sourceChain: network.preset.xChainId, to: evm, keychain })
    expect(network.cChain.head.number).toBe(height + 1n) // sealed in a block
    const cAfter = (await network.cChain.getAccountFields(dev.address, 'latest')).balance
    // 5 AVAX in, less the dynamic atomic fee, at 1e9 wei per nAVAX.
    expect(cAfter - cBefore).toBeGreaterThan(4n * 10n ** 18n)
    expect(cAfter - cBefore).toBeLessThanOrEqual(5n * 10n ** 18n)
    expect((cAfter - cBefore) % 10n ** 9n).toBe(0n)

    // Back: C → X, then import on X.
    await network.primary.exportFromC({ destinationChain: network.preset.xChainId, to: xAddr, amount: 2n * 10n ** 9n, privateKey: key })
    const cFinal = (await network.cChain.getAccountFields(dev.address, 'latest'))
    expect(cFinal.balance).toBeLessThan(cAfter - 2n * 10n ** 18n)
    expect(cFinal.nonce).toBe(1n) // the export used the account's nonce
    const xMid = xchain.balanceOf(xAddr)
    xchain.issueTx(wallet.import({ sourceChain: cChainId }))
    expect(xchain.balanceOf(xAddr)).toBe(xMid + 2n * 10n ** 9n - xchain.txFee)
    await network.close()
  })

  it('snapshot and revert restore X-chain balances and shared memory', async () => {
    const network = await createNetwork({ nodes: 1 })
    const { xchain } = network.primary
    const key = hexToBytes(network.devAccounts[4]!.privateKey)
    const wallet = new XWallet(xchain, new Keychain([key]))
    const addr = addressFromPrivateKey(key)
    const before = xchain.balanceOf(addr)
    const id = await network.snapshot()
    xchain.issueTx(wallet.export({ destinationChain: network.preset.cChainId, to: addr, amount: 10n ** 9n }))
    expect(xchain.balanceOf(addr)).not.toBe(before)
    expect(await network.revert(id)).toBe(true)
    expect(xchain.balanceOf(addr)).toBe(before)
    expect(network.primary.sharedMemory.list(network.preset.xChainId, network.preset.cChainId)).toHaveLength(0)
    await network.close()
  })
})

describe('the P-chain in the network', () => {
  it('emits accepted blocks and is restored exactly by a snapshot revert (hash-equal serialisation)', async () => {
    const network = await createNetwork({ nodes: 2 })
    const { pchain } = network.primary
    const blocks: number[] = []
    pchain.events.on('block', (b) => blocks.push(b.height))
    const hash = pchain.hash()
    const id = await network.snapshot()
    const wallet = network.wallets(0)!
    const added = wallet.p.addValidator({ node: network.newValidatorIdentity(), stake: 2_000n * 10n ** 9n, end: network.clock.now() + 14 * 24 * 3600 })
    expect(blocks).toEqual([added.height])
    await network.advanceTime(15 * 24 * 3600)
    expect(blocks.length).toBeGreaterThan(1) // reward proposal and commit blocks
    expect(pchain.hash()).not.toBe(hash)
    expect(await network.revert(id)).toBe(true)
    expect(pchain.hash()).toBe(hash)
    expect(pchain.validationStatus(added.txId)).toBe('unknown')
    await network.close()
  })
})

describe('P-chain blocks follow events, not the clock', () => {
  it('moving network time builds no empty P-chain block; a staker change does', async () => {
    const network = await createNetwork({ nodes: 1 })
    const { pchain } = network.primary
    const height = pchain.height
    await network.advanceTime(3600)
    expect(pchain.height).toBe(height)
    expect(pchain.timestamp).toBe(network.clock.now())
    const wallet = network.wallets(0)!
    const added = wallet.p.addValidator({ node: network.newValidatorIdentity(), stake: 2_000n * 10n ** 9n, end: network.clock.now() + 14 * 24 * 3600 })
    expect(pchain.height).toBe(height + 1)
    await network.advanceTime(15 * 24 * 3600) // the end time: a block at it, then the reward proposal and commit
    expect(pchain.height).toBeGreaterThanOrEqual(added.height + 3)
    await network.close()
  })
})
