// Reset returns to the state the scenario left (not to genesis): `anvil_reset` / `hardhat_reset`
// (viem's testClient.reset()), `sim.reset` at /ext/sim, or `devnet.network.reset()`.
// Run by test/examples.test.ts, so this file stays true.
import { fileURLToPath } from 'node:url'
import { createPublicClient, createTestClient, http, parseEther, type Address } from 'viem'
import { startDevnet, type NetworkPresetName } from '../src/index.js'

export async function main(preset: NetworkPresetName = 'local'): Promise<{ afterScenario: bigint; changed: bigint; afterReset: bigint; heights: bigint[] }> {
  const devnet = await startDevnet({ port: 0, preset, scenario: fileURLToPath(new URL('../scenarios/default.yaml', import.meta.url)) })
  try {
    const carol = devnet.scenario!.refs.accounts.carol! as Address
    const transport = http(devnet.rpcUrl())
    const client = createPublicClient({ transport })
    const testClient = createTestClient({ mode: 'anvil', transport })
    const afterScenario = await client.getBalance({ address: carol })
    const scenarioHeight = await client.getBlockNumber()

    await testClient.setBalance({ address: carol, value: parseEther('1') })
    await testClient.mine({ blocks: 3 })
    const changed = await client.getBalance({ address: carol })

    await testClient.reset() // anvil_reset: back to right after the scenario
    const afterReset = await client.getBalance({ address: carol })
    return { afterScenario, changed, afterReset, heights: [scenarioHeight, await client.getBlockNumber()] }
  } finally {
    await devnet.close()
  }
}
