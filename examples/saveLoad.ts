// Save a network to a snapshot file and continue from it later: in-process with `loadNetwork`, or
// served with `startDevnet({ snapshot })` (the CLI's `l1sim start --snapshot`).
// Run by test/examples.test.ts, so this file stays true.
import { join } from 'node:path'
import { createPublicClient, http, type Address } from 'viem'
import { createEIP1193Provider, createNetwork, loadNetwork, startDevnet } from '../src/index.js'

const receiver: Address = '0x000000000000000000000000000000000000bEEF'

/** `dir`: where the snapshot file goes. */
export async function main(dir: string): Promise<{ bytes: number; loaded: { balance: bigint; height: bigint }; served: { balance: bigint; height: bigint } }> {
  // A network with some history: two payments, two blocks.
  const network = await createNetwork()
  const provider = createEIP1193Provider({ network })
  const from = network.devAccounts[0]!.address
  for (const value of ['0x1', '0x2']) await provider.request({ method: 'eth_sendTransaction', params: [{ from, to: receiver, value }] })
  const saved = await network.save(join(dir, 'paid.l1sim')) // atomic: a temp file, then a rename
  await network.close()

  // In-process: the same chains, state and clock.
  const loadedNetwork = await loadNetwork(saved.path)
  const loadedProvider = createEIP1193Provider({ network: loadedNetwork })
  const loaded = {
    balance: BigInt(await loadedProvider.request({ method: 'eth_getBalance', params: [receiver, 'latest'] }) as string),
    height: BigInt(await loadedProvider.request({ method: 'eth_blockNumber', params: [] }) as string),
  }
  await loadedNetwork.close()

  // Served: what `l1sim start --snapshot <file>` does.
  const devnet = await startDevnet({ port: 0, snapshot: saved.path })
  try {
    const client = createPublicClient({ transport: http(devnet.rpcUrl()) })
    const served = { balance: await client.getBalance({ address: receiver }), height: await client.getBlockNumber() }
    return { bytes: saved.bytes, loaded, served }
  } finally {
    await devnet.close()
  }
}
