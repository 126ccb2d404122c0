import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ContractFactory, HDNodeWallet, JsonRpcProvider, Mnemonic, WebSocketProvider, parseEther, type Contract } from 'ethers'
import { startDevnet, type Devnet } from '../../src/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const mnemonic = Mnemonic.fromPhrase('test test test test test test test test test test test junk')
const keyOf = (i: number) => HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`)

let devnet: Devnet
beforeEach(async () => {
  devnet = await startDevnet({ port: 0 })
})
afterEach(async () => {
  await devnet.close()
})

describe('ethers v6', () => {
  it('JsonRpcProvider: chain id, value transfer, ERC-20 deploy and transfer with logs', async () => {
    const provider = new JsonRpcProvider(devnet.rpcUrl(), undefined, { staticNetwork: true, cacheTimeout: -1 })
    expect((await provider.getNetwork()).chainId).toBe(43112n)
    const alice = keyOf(0).connect(provider)
    const bob = keyOf(1)
    const tx = await alice.sendTransaction({ to: bob.address, value: parseEther('2') })
    const receipt = await tx.wait()
    expect(receipt?.status).toBe(1)
    expect(await provider.getBalance(bob.address)).toBe(parseEther('10002'))

    const factory = new ContractFactory(ERC20.abi as never, ERC20.bytecode, alice)
    const token = (await factory.deploy('Token', 'TOK', parseEther('100'))) as Contract
    await token.waitForDeployment()
    const transfer = await token.getFunction('transfer')(bob.address, 5n)
    const mined = await transfer.wait()
    expect(await token.getFunction('balanceOf')(bob.address)).toBe(5n)
    const parsed = mined.logs.map((l: { topics: string[]; data: string }) => token.interface.parseLog(l))
    expect(parsed[0]?.name).toBe('Transfer')
    expect(await provider.estimateGas({ from: alice.address, to: bob.address, value: 1n })).toBe(21000n)
    provider.destroy()
  })

  it('WebSocketProvider: block number, balance and a new-block event', async () => {
    const ws = new WebSocketProvider(devnet.wsUrl(), undefined, { staticNetwork: true })
    expect(await ws.getBlockNumber()).toBe(0)
    const block = new Promise<number>((resolve) => void ws.once('block', (n: number) => resolve(n)))
    await new Promise((r) => setImmediate(r))
    const http = new JsonRpcProvider(devnet.rpcUrl(), undefined, { staticNetwork: true, cacheTimeout: -1 })
    await (await keyOf(0).connect(http).sendTransaction({ to: keyOf(2).address, value: 1n })).wait()
    expect(await block).toBe(1)
    expect(await ws.getBalance(keyOf(2).address)).toBe(parseEther('10000') + 1n)
    http.destroy()
    await ws.destroy()
  })
})
