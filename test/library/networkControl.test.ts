/**
 * Snapshot, revert and reset over HTTP: `sim.snapshot` / `sim.revert` / `sim.reset` at /ext/sim
 * and `evm_snapshot` / `evm_revert` / `anvil_reset` at /ext/bc/C/rpc share the network's ids and
 * its stack (a revert uses up its snapshot and every later one); reset returns to the state the
 * scenario left, on any node; `sim.saveSnapshot` writes a file `loadNetwork` continues from.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { InvalidArgumentError } from '../../src/core/errors.js'
import { createEIP1193Provider, loadNetwork, parseScenario, startDevnet, type Devnet, type DevnetOptions } from '../../src/index.js'

const RECEIVER = '0x000000000000000000000000000000000000bEEF'

let devnet: Devnet | undefined
const tmpDirs: string[] = []
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fresh directory under test/.tmp/ (gitignored), removed after the test. */
function tmpDir(label: string): string {
  const root = fileURLToPath(new URL('../.tmp/', import.meta.url))
  mkdirSync(root, { recursive: true })
  const dir = mkdtempSync(join(root, `library-${label}-`))
  tmpDirs.push(dir)
  return dir
}

async function start(options: DevnetOptions = {}): Promise<Devnet> {
  devnet = await startDevnet({ port: 0, nodes: 2, accounts: 2, ...options })
  return devnet
}

async function post(url: string, method: string, params: unknown): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  expect(res.status).toBe(200)
  const { jsonrpc, id, ...answer } = (await res.json()) as { jsonrpc: string; id: number; result?: any; error?: { code: number; message: string } }
  expect({ jsonrpc, id }).toEqual({ jsonrpc: '2.0', id: 1 })
  return answer
}

/** A `sim.*` call on node `node`'s /ext/sim. */
async function sim(d: Devnet, method: string, params: unknown = {}, node = 0) {
  return post(`${d.nodes[node]!.url}/ext/sim`, `sim.${method}`, params)
}

async function eth(d: Devnet, method: string, params: unknown[] = []) {
  return post(d.rpcUrl(), method, params)
}

async function pay(d: Devnet, wei: number): Promise<void> {
  const sent = await eth(d, 'eth_sendTransaction', [{ from: d.network.devAccounts[0]!.address, to: RECEIVER, value: `0x${wei.toString(16)}` }])
  expect(sent.error).toBeUndefined()
}

async function receiverBalance(d: Devnet): Promise<bigint> {
  return BigInt((await eth(d, 'eth_getBalance', [RECEIVER, 'latest'])).result)
}

describe('sim.snapshot / sim.revert / sim.reset', () => {
  it('snapshots and reverts the network, by id, on any node', async () => {
    const d = await start()
    await pay(d, 1)
    expect(await sim(d, 'snapshot')).toEqual({ result: { id: '1' } })
    await pay(d, 2)
    const height = (await eth(d, 'eth_blockNumber')).result
    expect(await sim(d, 'snapshot', {}, 1)).toEqual({ result: { id: '2' } })
    await pay(d, 4)
    expect(await receiverBalance(d)).toBe(7n)

    expect(await sim(d, 'revert', { id: '2' }, 1)).toEqual({ result: {} })
    expect(await receiverBalance(d)).toBe(3n)
    expect((await eth(d, 'eth_blockNumber')).result).toBe(height)
    expect(await sim(d, 'revert', { id: 1 })).toEqual({ result: {} }) // a bare number is a json.Uint64 too
    expect(await receiverBalance(d)).toBe(1n)
  })

  it('uses a snapshot up, with every later one, and refuses an unknown id without changing anything', async () => {
    const d = await start()
    await sim(d, 'snapshot') // 1
    await pay(d, 1)
    await sim(d, 'snapshot') // 2
    await pay(d, 2)
    await sim(d, 'snapshot') // 3
    await pay(d, 4)
    expect(await sim(d, 'revert', { id: '2' })).toEqual({ result: {} })
    const gone = 'does not exist (a revert to it or to an earlier snapshot used it up, or a reset cleared it)'
    expect(await sim(d, 'revert', { id: '3' })).toEqual({ error: { code: -32000, message: `snapshot 3 ${gone}`, data: null } })
    expect(await sim(d, 'revert', { id: '2' })).toEqual({ error: { code: -32000, message: `snapshot 2 ${gone}`, data: null } })
    expect(await receiverBalance(d)).toBe(1n)
    // Ids keep counting: a new snapshot is 4, not a reused 2.
    expect(await sim(d, 'snapshot')).toEqual({ result: { id: '4' } })
    expect(await sim(d, 'revert', { id: '1' })).toEqual({ result: {} })
    expect(await receiverBalance(d)).toBe(0n)
  })

  it('refuses a malformed id as the node refuses bad arguments', async () => {
    const d = await start()
    const res = await sim(d, 'revert', { id: '0x1' })
    expect(res.error).toEqual({ code: -32000, message: "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls", data: null })
  })

  it('resets to the start: snapshots cleared, faults lifted', async () => {
    const d = await start()
    await pay(d, 5)
    await sim(d, 'snapshot')
    expect((await sim(d, 'disconnectNode', { node: 1 })).error).toBeUndefined()
    expect((await sim(d, 'getFaults')).result.faults).toHaveLength(1)
    expect(await sim(d, 'reset', {}, 1)).toEqual({ result: {} })
    expect(await receiverBalance(d)).toBe(0n)
    expect((await eth(d, 'eth_blockNumber')).result).toBe('0x0')
    expect((await sim(d, 'getFaults')).result.faults).toEqual([])
    expect((await sim(d, 'revert', { id: '1' })).error?.message).toMatch(/^snapshot 1 does not exist/)
  })
})

describe('evm_snapshot / evm_revert / anvil_reset share the network-wide ids', () => {
  it('interleaves evm_ and sim. snapshots on one stack', async () => {
    const d = await start()
    expect((await eth(d, 'evm_snapshot')).result).toBe('0x1')
    await pay(d, 1)
    expect(await sim(d, 'snapshot')).toEqual({ result: { id: '2' } })
    await pay(d, 2)
    expect((await eth(d, 'evm_snapshot')).result).toBe('0x3')
    await pay(d, 4)

    // sim.revert to evm_snapshot's 0x3, then evm_revert to sim.snapshot's "2".
    expect(await sim(d, 'revert', { id: '3' })).toEqual({ result: {} })
    expect(await receiverBalance(d)).toBe(3n)
    expect((await eth(d, 'evm_revert', ['0x2'])).result).toBe(true)
    expect(await receiverBalance(d)).toBe(1n)
    // 0x3 went with 0x2 (stack semantics); 0x1 is still there.
    expect((await eth(d, 'evm_revert', ['0x3'])).result).toBe(false)
    expect((await eth(d, 'evm_revert', ['0x1'])).result).toBe(true)
    expect(await receiverBalance(d)).toBe(0n)
    expect((await eth(d, 'evm_revert', ['0x1'])).result).toBe(false)
  })

  it('anvil_reset (no fork) returns to where the network started and clears the snapshots', async () => {
    const d = await start()
    await eth(d, 'evm_snapshot')
    await pay(d, 9)
    expect((await eth(d, 'anvil_reset', [])).result).toBe(null)
    expect(await receiverBalance(d)).toBe(0n)
    expect((await eth(d, 'eth_blockNumber')).result).toBe('0x0')
    expect((await eth(d, 'evm_revert', ['0x1'])).result).toBe(false)
    expect((await eth(d, 'hardhat_reset', [])).result).toBe(null)
  })
})

describe('sim.saveSnapshot', () => {
  it('writes the network under the snapshot directory, to a file that loadNetwork continues from', async () => {
    const dir = tmpDir('sim-save')
    const d = await start({ snapshotDir: dir })
    await pay(d, 6)
    const saved = await sim(d, 'saveSnapshot', { path: 'six.l1sim' }, 1)
    expect(saved.result).toEqual({ path: join(dir, 'six.l1sim'), bytes: statSync(join(dir, 'six.l1sim')).size, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
    // An absolute path inside the directory, and a subdirectory of it, are the directory's too.
    mkdirSync(join(dir, 'sub'))
    expect((await sim(d, 'saveSnapshot', { path: join(dir, 'sub', 'again.l1sim') })).result?.path).toBe(join(dir, 'sub', 'again.l1sim'))
    expect((await sim(d, 'saveSnapshot', { path: 'sub/../third.l1sim' })).result?.path).toBe(join(dir, 'third.l1sim'))
    const network = await loadNetwork(join(dir, 'six.l1sim'))
    try {
      expect(await createEIP1193Provider({ network }).request({ method: 'eth_getBalance', params: [RECEIVER, 'latest'] })).toBe('0x6')
      expect(network.nodes).toHaveLength(2)
    } finally {
      await network.close()
    }
  })

  it('refuses a path that leaves the snapshot directory, and writes nothing', async () => {
    const root = tmpDir('sim-save-escape')
    const dir = join(root, 'snapshots')
    const outside = join(root, 'outside')
    mkdirSync(dir)
    mkdirSync(outside)
    const victim = join(outside, 'victim.txt')
    writeFileSync(victim, 'keep me\n')
    symlinkSync(outside, join(dir, 'link'))
    const d = await start({ snapshotDir: dir })
    for (const path of [victim, join(outside, 'new.l1sim'), '../outside/new.l1sim', '../escape.l1sim', 'sub/../../escape.l1sim', '.', dir, 'link/new.l1sim', join(dir, 'link', 'victim.txt')]) {
      expect(await sim(d, 'saveSnapshot', { path }), path).toEqual({
        error: { code: -32000, message: `cannot save the snapshot to ${path}: the path is outside the snapshot directory ${dir}: over HTTP, snapshot files are written only under it`, data: null },
      })
    }
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n')
    expect(readdirSync(outside)).toEqual(['victim.txt'])
    expect(readdirSync(root).sort()).toEqual(['outside', 'snapshots'])
    expect(readdirSync(dir)).toEqual(['link'])
  })

  it('takes the snapshot directory from the working directory by default, and makes it on the first save', async () => {
    const d = await start()
    expect(d.server.access.snapshotDir).toBe(resolve('snapshots'))
    await d.close()
    const dir = join(tmpDir('sim-save-made'), 'not', 'yet')
    const made = await start({ snapshotDir: dir })
    expect((await sim(made, 'saveSnapshot', { path: 'first.l1sim' })).result?.path).toBe(join(dir, 'first.l1sim'))
  })

  it('refuses an empty path, and reports a path it cannot write', async () => {
    const dir = tmpDir('sim-save-fails')
    const d = await start({ snapshotDir: dir })
    expect(await sim(d, 'saveSnapshot', { path: '' })).toEqual({ error: { code: -32000, message: 'path must not be empty', data: null } })
    expect(await sim(d, 'saveSnapshot', {})).toEqual({ error: { code: -32000, message: 'path must not be empty', data: null } })
    const refused = await sim(d, 'saveSnapshot', { path: join('missing', 'x.l1sim') })
    expect(refused.error?.code).toBe(-32000)
    expect(refused.error?.message.startsWith(`cannot save the snapshot to ${join('missing', 'x.l1sim')}: `)).toBe(true)
    expect(existsSync(join(dir, 'missing'))).toBe(false)
  })
})

describe('after a scenario', () => {
  const scenario = parseScenario(
    [
      'name: control',
      'accounts: { count: 4 }',
      'steps:',
      `  - send: { from: acct:1, to: "${RECEIVER}", value: 100 }`,
      `  - assert: { balance: { account: "${RECEIVER}", equals: 100 } }`,
      '',
    ].join('\n'),
    'control.yaml',
  )

  it('anvil_reset and sim.reset return to the state the scenario left, not to genesis', async () => {
    const d = await start({ scenario })
    expect(d.scenario).toMatchObject({ passed: 1, failures: [] })
    const height = (await eth(d, 'eth_blockNumber')).result
    expect(height).toBe('0x1')
    await pay(d, 5)
    expect(await receiverBalance(d)).toBe(105n)
    expect((await eth(d, 'anvil_reset', [])).result).toBe(null)
    expect(await receiverBalance(d)).toBe(100n)
    expect((await eth(d, 'eth_blockNumber')).result).toBe(height)
    await pay(d, 7)
    expect(await sim(d, 'reset', {}, 1)).toEqual({ result: {} })
    expect(await receiverBalance(d)).toBe(100n)
    // Snapshots taken after the scenario work as usual.
    expect(await sim(d, 'snapshot')).toEqual({ result: { id: '1' } })
    await pay(d, 1)
    expect(await sim(d, 'revert', { id: '1' })).toEqual({ result: {} })
    expect(await receiverBalance(d)).toBe(100n)
  })

  it('takes a scenario file path too, with the options given overriding it', async () => {
    const d = await start({ scenario: fileURLToPath(new URL('../../scenarios/default.yaml', import.meta.url)), nodes: 1, accounts: 20 })
    expect(d.network.nodes).toHaveLength(1)
    expect(d.network.l1s.map((l) => l.name)).toEqual(['dex'])
    expect(d.scenario).toMatchObject({ passed: 3, failures: [] })
  })

  it('refuses a scenario and a snapshot together', async () => {
    await expect(startDevnet({ port: 0, scenario, snapshot: 'x.l1sim' })).rejects.toThrow(
      new InvalidArgumentError('give a scenario or a snapshot, not both: a snapshot already holds the state its scenario left'),
    )
  })
})
