/**
 * A snapshot file saved before the network started from the real local genesis
 * (`test/fixtures/snapshots/before-real-genesis.l1sim`, written by l1sim at commit 297b5cc: two
 * nodes, three accounts, a P-chain export, a C-chain transfer, a minute later) still loads: its
 * options name no genesis layout, so its network is recreated with the old one (the C-chain's
 * genesis must be the one the file's blocks build on), then its state is put back, and it goes on.
 * Read over HTTP with avalanchejs and viem.
 */
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sha256 } from '@noble/hashes/sha2.js'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { idToString } from '../../src/core/ids.js'
import { startDevnet, type Devnet } from '../../src/index.js'
import { createEIP1193Provider } from '../../src/rpc/provider.js'
import { ajs } from '../platform/fixtures/ajs.js'

const FIXTURE = fileURLToPath(new URL('../fixtures/snapshots/before-real-genesis.l1sim', import.meta.url))
const DATA_DIR = fileURLToPath(new URL('../.tmp/snapshot-legacy-genesis', import.meta.url))
const EWOQ_C = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
const PRIMARY = '11111111111111111111111111111111LpoYY'

let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet({ port: 0, snapshot: FIXTURE, node: { dataDir: DATA_DIR } })
})
afterAll(async () => {
  await devnet?.close()
  rmSync(DATA_DIR, { recursive: true, force: true })
})

describe('a snapshot file saved before the real local genesis', () => {
  it('loads with the genesis layout it was saved with: its chains and validators as they were', async () => {
    const { network, url } = devnet
    expect(network.options.genesisVersion).toBe(1)
    const c = createPublicClient({ transport: http(devnet.rpcUrl('C')) })
    expect(await c.getBlockNumber()).toBe(1n)
    // ewoq was not funded on the C-chain then.
    expect(await c.getBalance({ address: EWOQ_C })).toBe(0n)
    const p = new ajs.pvm.PVMApi(url)
    expect(await p.getHeight()).toEqual({ height: '1' })
    // The genesis validators staked 2,000 AVAX each and had no stored staker tx: they are listed all the same.
    const { validators } = await p.getCurrentValidators({ subnetID: PRIMARY })
    expect(validators.map((v: { weight: string }) => v.weight)).toEqual(['2000000000000', '2000000000000'])
    expect(await p.getBlockchains()).toEqual({ blockchains: [] })
    // Its blocks kept no bytes: getBlockByHeight encodes them from their fields.
    const block = await fetch(`${url}/ext/bc/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.getBlockByHeight', params: { height: 1, encoding: 'json' } }),
    }).then((r) => r.json() as Promise<{ result: { block: unknown } }>)
    expect(block.result.block).toMatchObject({ height: 1, parentID: network.primary.pchain.state.d.blocks[0]!.id, txs: [expect.objectContaining({ unsignedTx: expect.objectContaining({ destinationChain: network.preset.xChainId }) })] })
  })

  it('goes on: a new P-chain block is a real Banff block on the saved tip, the C-chain mines', async () => {
    const { network } = devnet
    const pchain = network.primary.pchain
    const tip = pchain.state.lastBlockId
    const w = network.wallets(0)!
    w.p.exportTo(network.preset.xChainId, { to: w.address, amount: 1_000_000_000n })
    const block = pchain.state.d.blocks.at(-1)!
    expect(block.parentId).toBe(tip)
    expect(block.id).toBe(idToString(sha256(block.bytes!)))
    const provider = createEIP1193Provider({ network })
    await provider.request({ method: 'eth_sendTransaction', params: [{ from: network.devAccounts[0]!.address, to: network.devAccounts[2]!.address, value: '0x1' }] })
    expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x2')
  })
})
