// A fixture shared by several tests, run once: `loadFixture` (from `l1sim/testing`) runs the setup
// on its first call and snapshots the network; later calls revert to that snapshot instead of
// running the setup again. Run by test/examples.test.ts, so this file stays true.
import { createPublicClient, createWalletClient, custom, defineChain, parseEther, type Address } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createEIP1193Provider, createNetwork, type Network } from '../src/index.js'
import { loadFixture } from '../src/testing/index.js'

const receiver: Address = '0x000000000000000000000000000000000000bEEF'
let setupRuns = 0

const chain = defineChain({
  id: 43112,
  name: 'l1sim C-chain',
  nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
  rpcUrls: { default: { http: [] } },
})

function clientsOf(network: Network) {
  const transport = custom(createEIP1193Provider({ network }))
  const account = mnemonicToAccount('test test test test test test test test test test test junk')
  return { client: createPublicClient({ chain, transport }), wallet: createWalletClient({ chain, transport, account }) }
}

/** The shared setup: one payment to `receiver`. A named function, declared once: it is the fixture's key. */
async function paidReceiver(network: Network) {
  setupRuns++
  const { wallet } = clientsOf(network)
  await wallet.sendTransaction({ to: receiver, value: parseEther('1') })
  return { receiver }
}

export async function main(): Promise<{ inFirstTest: bigint; inSecondTest: bigint; setupRuns: number }> {
  setupRuns = 0
  const network = await createNetwork()
  try {
    const { client, wallet } = clientsOf(network)

    // "first test": starts from the fixture, then changes the state.
    const first = await loadFixture(network, paidReceiver)
    await wallet.sendTransaction({ to: first.receiver, value: parseEther('2') })
    const inFirstTest = await client.getBalance({ address: first.receiver })

    // "second test": the same fixture, without the first test's payment and without running it again.
    const second = await loadFixture(network, paidReceiver)
    const inSecondTest = await client.getBalance({ address: second.receiver })
    return { inFirstTest, inSecondTest, setupRuns }
  } finally {
    await network.close()
  }
}
