// Start a network on a free port, send AVAX with viem, and snapshot/revert around it.
// Run by test/examples.test.ts, so this file stays true.
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { startDevnet } from '../src/index.js'

export async function main(): Promise<{ balance: bigint; afterRevert: bigint }> {
  const devnet = await startDevnet({ port: 0 })
  try {
    const chain = defineChain({
      id: 43112,
      name: 'l1sim C-chain',
      nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
      rpcUrls: { default: { http: [devnet.rpcUrl('C')] } },
    })
    const transport = http(devnet.rpcUrl('C'))
    const client = createPublicClient({ chain, transport })
    const testClient = createTestClient({ chain, mode: 'anvil', transport })
    const wallet = createWalletClient({
      chain,
      transport,
      account: mnemonicToAccount('test test test test test test test test test test test junk'),
    })

    const id = await testClient.snapshot()
    const receiver = '0x000000000000000000000000000000000000bEEF'
    await wallet.sendTransaction({ to: receiver, value: parseEther('1') })
    const balance = await client.getBalance({ address: receiver }) // the receipt exists already: automine
    await testClient.revert({ id })
    const afterRevert = await client.getBalance({ address: receiver })
    return { balance, afterRevert }
  } finally {
    await devnet.close()
  }
}
