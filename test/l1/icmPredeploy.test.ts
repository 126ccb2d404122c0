import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createPublicClient, http, type Hex, type PublicClient } from 'viem'
import { idFromString } from '../../src/core/ids.js'
import {
  createNetwork,
  ICM_MESSENGER_ABI,
  ICM_MESSENGER_ADDRESS,
  ICM_MESSENGER_DEPLOYED_BYTECODE,
  ICM_MESSENGER_DEPLOYER,
  loadNetwork,
  parseScenario,
  startDevnet,
  type Devnet,
} from '../../src/index.js'
import { tempDir } from '../snapshot/helpers.js'
import { bob, testGenesis } from './helpers.js'
import { DURANGO_LOCAL, side } from './icmHelpers.js'

const ONE = `0x${'00'.repeat(31)}01`

/** What the messenger's keyless deployment leaves on a chain (as icmDeployment.test.ts sees it happen). */
async function expectPredeployed(client: PublicClient, blockchainId: Hex) {
  expect(await client.getCode({ address: ICM_MESSENGER_ADDRESS })).toBe(ICM_MESSENGER_DEPLOYED_BYTECODE)
  expect(await client.getTransactionCount({ address: ICM_MESSENGER_DEPLOYER })).toBe(1)
  expect(await client.getTransactionCount({ address: ICM_MESSENGER_ADDRESS })).toBe(1)
  expect(await client.getStorageAt({ address: ICM_MESSENGER_ADDRESS, slot: '0x0' })).toBe(ONE)
  expect(await client.getStorageAt({ address: ICM_MESSENGER_ADDRESS, slot: '0x1' })).toBe(ONE)
  // Its blockchain id comes from the chain's own warp precompile.
  const { result } = await client.simulateContract({ account: bob.address, address: ICM_MESSENGER_ADDRESS, abi: ICM_MESSENGER_ABI, functionName: 'initializeBlockchainID' })
  expect(result).toBe(blockchainId)
}

const l1Genesis = (chainId: number) => testGenesis({ chainId, warpConfig: { blockTimestamp: DURANGO_LOCAL } })

describe('the ICM messenger predeployed at its canonical address', () => {
  const devnets: Devnet[] = []
  afterEach(async () => {
    await Promise.all(devnets.splice(0).map((d) => d.close()))
  })

  it('createNetwork({ icm: true }): on the C-chain and every L1, each answering its own blockchain id; not without the option', async () => {
    const network = await createNetwork({ icm: true, l1s: [{ name: 'a', genesis: l1Genesis(11111) }, { name: 'b', genesis: l1Genesis(22222) }] })
    const sides = [side(network, network.cChain, idFromString(network.preset.cChainId)), ...network.l1s.map((l1) => side(network, l1.chain, l1.blockchainIdBytes))]
    expect(new Set(sides.map((s) => s.blockchainId)).size).toBe(3)
    for (const s of sides) await expectPredeployed(s.publicClient as PublicClient, s.blockchainId)

    const plain = await createNetwork({ l1s: [{ name: 'a', genesis: l1Genesis(11111) }] })
    for (const chain of plain.chains) {
      const s = side(plain, chain, new Uint8Array(32))
      expect(await s.publicClient.getCode({ address: ICM_MESSENGER_ADDRESS })).toBeUndefined()
      expect(await s.publicClient.getTransactionCount({ address: ICM_MESSENGER_DEPLOYER })).toBe(0)
    }
  })

  it('a snapshot file keeps it: the loaded network is recreated with the option', async () => {
    const { dir, cleanup } = tempDir('icm')
    try {
      const network = await createNetwork({ icm: true, l1s: [{ name: 'a', genesis: l1Genesis(11111) }] })
      await network.save(join(dir, 'icm.l1sim'))
      const loaded = await loadNetwork(join(dir, 'icm.l1sim'))
      const l1 = loaded.l1('a')!
      expect(loaded.options.icm).toBe(true)
      await expectPredeployed(side(loaded, l1.chain, l1.blockchainIdBytes).publicClient as PublicClient, side(loaded, l1.chain, l1.blockchainIdBytes).blockchainId)
    } finally {
      cleanup()
    }
  })

  it('a scenario with `icm: true`, served over HTTP: on an L1 from genesis and on a chain a CreateChainTx starts', async () => {
    // `dex` exists from genesis; `game` is started later by a CreateChainTx.
    const scenario = parseScenario(
      'icm: true\nl1s:\n  - name: dex\n    chainId: 99999\n    precompiles: { warp: { quorumNumerator: 67 } }\nsubnets:\n  - name: gaming\n    chains: [{ name: game, chainId: 55555, precompiles: { warp: {} } }]\n',
      'icm.yaml',
    )
    const devnet = await startDevnet({ port: 0, nodes: 1, scenario })
    devnets.push(devnet)
    const l1 = devnet.network.l1('dex')!
    await expectPredeployed(createPublicClient({ transport: http(devnet.rpcUrl('C')) }), `0x${Buffer.from(idFromString(devnet.network.preset.cChainId)).toString('hex')}`)
    await expectPredeployed(createPublicClient({ transport: http(devnet.rpcUrl('dex')) }), `0x${Buffer.from(l1.blockchainIdBytes).toString('hex')}`)
    const game = devnet.network.l1('game')!
    await expectPredeployed(createPublicClient({ transport: http(devnet.rpcUrl('game')) }), `0x${Buffer.from(game.blockchainIdBytes).toString('hex')}`)
  })

  it('the CLI: l1sim start --icm (the built bin)', async () => {
    const bin = fileURLToPath(new URL('../../dist/l1sim.mjs', import.meta.url))
    if (!existsSync(bin)) throw new Error('dist/l1sim.mjs is missing: run `npm run build` first')
    const child = spawn(process.execPath, [bin, 'start', '--port', '0', '--no-scenario', '--nodes', '1', '--icm'], { stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      let out = ''
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk
          const ready = /^l1sim ready at (http:\/\/\S+)$/m.exec(out)
          if (ready) resolve(ready[1]!)
        })
        child.once('exit', (code) => reject(new Error(`l1sim exited with ${code}:\n${out}`)))
      })
      const client = createPublicClient({ transport: http(`${url}/ext/bc/C/rpc`) })
      const cChainId = (await (await fetch(`${url}/ext/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getBlockchainID', params: { alias: 'C' } }) })).json()) as { result: { blockchainID: string } }
      await expectPredeployed(client, `0x${Buffer.from(idFromString(cChainId.result.blockchainID)).toString('hex')}`)
    } finally {
      child.kill('SIGTERM')
    }
  })
})
