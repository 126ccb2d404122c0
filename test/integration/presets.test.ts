import { describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, defineChain, http, parseEther, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { NETWORK_PRESETS, startDevnet } from '../../src/index.js'
import { ERC20 } from '../fixtures/contracts/index.js'

const alice = mnemonicToAccount('test test test test test test test test test test test junk')

describe('a fresh network on every preset', () => {
  // A fuji or mainnet C-chain whose genesis was dated 2020 ran its head's pre-Durango rules, so the
  // first estimate of Shanghai code (PUSH0, solc >= 0.8.20) answered "invalid opcode".
  it.each(['local', 'fuji', 'mainnet'] as const)('%s: viem deploys a Cancun-compiled ERC-20 on the C-chain before any block was mined', async (preset) => {
    const devnet = await startDevnet({ port: 0, preset })
    try {
      const url = devnet.rpcUrl()
      const chain = defineChain({ id: NETWORK_PRESETS[preset].evmChainId, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
      const client = createPublicClient({ chain, transport: http(url) })
      const wallet = createWalletClient({ chain, transport: http(url), account: alice })
      expect(await client.getBlockNumber()).toBe(0n)
      const hash = await wallet.deployContract({ abi: ERC20.abi, bytecode: ERC20.bytecode as Hex, args: ['Token', 'TOK', parseEther('1000')] })
      const receipt = await client.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      expect(await client.readContract({ address: receipt.contractAddress!, abi: ERC20.abi, functionName: 'balanceOf', args: [alice.address] })).toBe(parseEther('1000'))
    } finally {
      await devnet.close()
    }
  })
})
