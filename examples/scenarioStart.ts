// Start a served network from a scenario file: its L1s, accounts and steps (sends, mints, deploys)
// run first, its assertions are checked, and what it named (accounts, contracts, chains) comes
// back resolved. `l1sim start --scenario <file>` does the same from the command line; `preset`
// (`--network`) runs it on another network's ids and upgrade times.
// Run by test/examples.test.ts, so this file stays true.
import { fileURLToPath } from 'node:url'
import { createPublicClient, http, type Address } from 'viem'
import { startDevnet, type NetworkPresetName } from '../src/index.js'

export async function main(preset: NetworkPresetName = 'local'): Promise<{ passed: number; failed: number; carolOnDex: bigint; tokenCode: boolean }> {
  const devnet = await startDevnet({ port: 0, preset, scenario: fileURLToPath(new URL('../scenarios/default.yaml', import.meta.url)) })
  try {
    const run = devnet.scenario!
    const carol = run.refs.accounts.carol! as Address
    const token = run.refs.contracts.token!
    const dex = createPublicClient({ transport: http(devnet.rpcUrl('dex')) }) // the scenario's L1, by name
    return {
      passed: run.passed,
      failed: run.failures.length,
      carolOnDex: await dex.getBalance({ address: carol }),
      tokenCode: ((await dex.getCode({ address: token.address })) ?? '0x').length > 2,
    }
  } finally {
    await devnet.close()
  }
}
