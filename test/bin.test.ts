/**
 * The installed `l1sim` bin, `dist/l1sim.mjs`: the launcher (scripts/launcher.mjs) running the CLI
 * bundle through its V8 code cache, spawned as a user runs it and driven over HTTP. `npm ci` builds
 * dist (`prepare`); after changing src or scripts, `npm run build` first: these tests refuse a
 * missing or older dist rather than test other code than the sources'.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { inspect } from 'node:util'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { encodeFunctionData } from 'viem'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { idFromString as decodeCb58Id, vmIdFromName } from '../src/core/ids.js'
import { ICM_MESSENGER_ABI } from '../src/evm/icm/messenger.js'
import { ICM_MESSENGER_ADDRESS } from '../src/evm/icm/predeploy.js'
import { readScenario } from '../src/scenario/index.js'
import { readPreparsedScenario } from '../src/scenario/preparsed.js'
import { startDevnet } from '../src/index.js'
import { portWithNextNodeTaken } from './helpers/ports.js'

const root = fileURLToPath(new URL('../', import.meta.url))
const dist = join(root, 'dist')
const BIN = join(dist, 'l1sim.mjs')
const BUNDLE = join(dist, 'l1sim.bundle.cjs')
const CACHE = /^l1sim\.bundle\.cjs\.[0-9a-f]{16}(\.[0-9a-f]{8})?\.v8cache$/

/** Refuses to run against a dist that is missing or older than a source it is built from. */
function assertBuilt(): void {
  if (!existsSync(BIN) || !existsSync(BUNDLE)) throw new Error('dist/l1sim.mjs is missing: run `npm run build` (npm ci runs it) before the bin tests')
  const built = Math.min(statSync(BIN).mtimeMs, statSync(BUNDLE).mtimeMs)
  const sources = [
    ...readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).map((file) => join(root, 'src', file)),
    join(root, 'scripts/launcher.mjs'),
    join(root, 'scripts/bundle-cli.mjs'),
  ]
  const newer = sources.find((file) => statSync(file).mtimeMs > built)
  if (newer !== undefined) throw new Error(`dist/ is older than ${relative(root, newer)}: run \`npm run build\` before the bin tests`)
}

/** A fresh directory under test/.tmp/ (gitignored), removed after each test. */
const tmpDirs: string[] = []
function tmpDir(label: string): string {
  const dir = join(root, 'test/.tmp')
  mkdirSync(dir, { recursive: true })
  const made = mkdtempSync(join(dir, `bin-${label}-`))
  tmpDirs.push(made)
  return made
}

type Bin = { child: ChildProcess; stdout: string; stderr: string; exited: Promise<number | null> }
const running: Bin[] = []

/** Runs the bin with `args`; collects its output. */
function spawnBin(args: string[], nodeFlags: string[] = []): Bin {
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  const bin: Bin = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  }
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (bin.stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (bin.stderr += chunk))
  running.push(bin)
  return bin
}

/** `l1sim start …` until its `l1sim ready at <url>` line (the test's timeout bounds the wait). */
async function startBin(args: string[], nodeFlags: string[] = []): Promise<Bin & { url: string }> {
  const bin = spawnBin(['start', '--port', '0', '--no-scenario', '--nodes', '1', ...args], nodeFlags)
  // Awaited before the spread copies the output read so far (the banner).
  const url = await readyUrl(bin)
  return { ...bin, url }
}

/** The URL of a started bin's `l1sim ready at <url>` line; rejects if it exits first. */
function readyUrl(bin: Bin): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    bin.child.stdout!.on('data', () => {
      const ready = /^l1sim ready at (http:\/\/\S+)$/m.exec(bin.stdout)
      if (ready) resolve(ready[1]!)
    })
    void bin.exited.then((code) => reject(new Error(`l1sim exited with ${code} before it was ready:\n${bin.stdout}${bin.stderr}`)))
  })
}

/** SIGTERM, then its exit code. */
async function stop(bin: Bin): Promise<number | null> {
  bin.child.kill('SIGTERM')
  return bin.exited
}

afterEach(async () => {
  for (const bin of running.splice(0)) {
    if (bin.child.exitCode === null && bin.child.signalCode === null) bin.child.kill('SIGKILL')
    await bin.exited
  }
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return res.json()
}

const admin = (url: string, method: string) => post(`${url}/ext/admin`, { jsonrpc: '2.0', id: 1, method: `admin.${method}`, params: {} })

const cacheFiles = () => readdirSync(dist).filter((name) => CACHE.test(name))

describe('the l1sim bin (dist/l1sim.mjs)', () => {
  beforeAll(() => {
    assertBuilt()
    // Caches left by starts under other node flags (a profiler's, `npm start`'s) would be counted
    // with the ones these tests make: they start from none.
    for (const name of cacheFiles()) rmSync(join(dist, name))
  })

  it('starts, answers over HTTP, stops on SIGTERM, and keeps one code cache beside its bundle', async () => {
    const bin = await startBin([])
    expect(await post(`${bin.url}/ext/bc/C/rpc`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' })
    expect(await stop(bin)).toBe(0)
    expect(bin.stderr).toBe('')
    // Written once the first start is serving (when there was none), read by every later start.
    expect(cacheFiles()).toHaveLength(1)
  })

  it('runs its bundle\'s non-ASCII source as written (the bundle is made ASCII with escapes)', async () => {
    const bin = await startBin([])
    const trace = (timeout: string) => post(`${bin.url}/ext/bc/C/rpc`, { jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params: [{ to: '0x0000000000000000000000000000000000000001' }, 'latest', { tracer: 'callTracer', timeout }] })
    // geth's time.ParseDuration takes both micro signs; src/rpc/methods/debug/traceTransaction.ts has them in a regular expression.
    for (const timeout of ['5\u00b5s', '5\u03bcs']) expect(await trace(timeout)).toMatchObject({ result: { type: 'CALL' } })
    expect(await trace('5xs')).toMatchObject({ error: { code: -32000, message: 'time: invalid duration "5xs"' } })
    expect(await stop(bin)).toBe(0)
  })

  it('from its code cache: the profilers write their files and admin.loadVMs imports a plugin', async () => {
    const [cache] = cacheFiles()
    expect(cache, 'the previous test leaves a code cache').toBeDefined()
    const cached = statSync(join(dist, cache!)).mtimeMs
    const dataDir = tmpDir('lazy')
    const plugins = join(dataDir, 'node-0', 'plugins')
    mkdirSync(plugins, { recursive: true })
    writeFileSync(join(plugins, 'good.mjs'), "export default { id: 'testvm', aliases: ['test-vm'] }\n")
    const bin = await startBin(['--api-admin-enabled', '--data-dir', dataDir])
    const ok = { jsonrpc: '2.0', result: {}, id: 1 }
    const profiles = join(dataDir, 'node-0', 'profiles')

    // admin.startCPUProfiler and admin.memoryProfile load node:inspector on first use.
    expect(await admin(bin.url, 'startCPUProfiler')).toEqual(ok)
    expect(await admin(bin.url, 'stopCPUProfiler')).toEqual(ok)
    const cpu = JSON.parse(readFileSync(join(profiles, 'cpu.profile'), 'utf8')) as { nodes: unknown[]; samples: unknown[] }
    expect(cpu.nodes.length).toBeGreaterThan(0)
    expect(await admin(bin.url, 'memoryProfile')).toEqual(ok)
    expect(JSON.parse(readFileSync(join(profiles, 'mem.profile'), 'utf8'))).toHaveProperty('head')
    expect(await admin(bin.url, 'lockProfile')).toEqual(ok)
    expect(JSON.parse(readFileSync(join(profiles, 'lock.profile'), 'utf8'))).toBeTypeOf('object')

    // admin.loadVMs imports the user's file.
    const id = vmIdFromName('testvm')
    expect(await admin(bin.url, 'loadVMs')).toEqual({ jsonrpc: '2.0', result: { newVMs: { [id]: ['testvm', 'test-vm'] } }, id: 1 })
    const vms = (await post(`${bin.url}/ext/info`, { jsonrpc: '2.0', id: 1, method: 'info.getVMs', params: {} })) as { result: { vms: Record<string, string[]> } }
    expect(vms.result.vms[id]).toEqual(['testvm', 'test-vm'])

    expect(await stop(bin)).toBe(0)
    expect(bin.stderr).toBe('')
    // The cache was read and accepted: a refused one would have been written again.
    expect(cacheFiles()).toEqual([cache])
    expect(statSync(join(dist, cache!)).mtimeMs).toBe(cached)
  })

  it('keeps a code cache per set of node flags: starts with and without `npm start`\'s flags do not refuse each other\'s', async () => {
    const [plain] = cacheFiles()
    expect(plain, 'the previous tests leave a code cache').toBeDefined()
    const written = statSync(join(dist, plain!)).mtimeMs
    const flagged = await startBin([], ['--max-semi-space-size=32', '--min-semi-space-size=32'])
    expect(await stop(flagged)).toBe(0)
    const [other] = cacheFiles().filter((name) => name !== plain)
    try {
      expect(cacheFiles()).toHaveLength(2)
      const bin = await startBin([])
      expect(await stop(bin)).toBe(0)
      // The plain start read its own cache and accepted it: a refused one would have been written again.
      expect(cacheFiles()).toContain(plain)
      expect(statSync(join(dist, plain!)).mtimeMs).toBe(written)
    } finally {
      // The other flags' cache, which the first test's "one code cache" does not expect.
      if (other !== undefined) rmSync(join(dist, other))
    }
  })

  it('runs the default scenario as the build parsed it: the same document, and the state its steps leave', async () => {
    const defaultScenario = join(root, 'scenarios/default.yaml')
    const decoded = readPreparsedScenario(defaultScenario, join(dist, 'scenario/default.preparsed.json'))
    expect(decoded, 'npm run build writes dist/scenario/default.preparsed.json').toBeDefined()
    expect(inspect(decoded, { depth: Infinity, showHidden: true })).toBe(inspect(await readScenario(defaultScenario), { depth: Infinity, showHidden: true }))
    const bin = spawnBin(['start', '--port', '0'])
    const url = await readyUrl(bin)
    expect(bin.stdout).toContain(defaultScenario)
    // carol (dev account 3): 10,000 AVAX and the 1.5 the scenario's first step sends.
    const balance = await post(`${url}/ext/bc/C/rpc`, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', 'latest'] })
    expect(balance).toEqual({ jsonrpc: '2.0', id: 1, result: `0x${(10_001_500n * 10n ** 15n).toString(16)}` })
    expect(await stop(bin)).toBe(0)
    expect(bin.stderr).not.toContain('assertion failed')
  })

  it('holds libsecp256k1\'s results for what the default scenario signs and recovers, and signs the rest once started', async () => {
    const table = JSON.parse(readFileSync(join(dist, 'scenario/default.signatures.json'), 'utf8')) as {
      signatures: [string, string, string, number][]
      recoveries: [string, number, string, string][]
    }
    // The scenario's three transactions (a send, a mint, a deploy): each signed once and its sender recovered.
    expect([table.signatures.length, table.recoveries.length]).toEqual([3, 3])
    const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))
    for (const [message, key, signature, recid] of table.signatures) {
      const made = secp256k1.sign(bytes(message), bytes(key), { extraEntropy: false, format: 'recovered', prehash: false })
      expect([recid, signature]).toEqual([made[0], Buffer.from(made.subarray(1)).toString('hex')])
    }
    for (const [signature, recid, message, publicKey] of table.recoveries) {
      const point = secp256k1.Signature.fromBytes(bytes(signature), 'compact').addRecoveryBit(recid).recoverPublicKey(bytes(message))
      expect(Buffer.from(point.toBytes(false)).toString('hex')).toBe(publicKey)
    }
    const bin = spawnBin(['start', '--port', '0'])
    const url = await readyUrl(bin)
    const rpc = `${url}/ext/bc/C/rpc`
    // The scenario's send is the C-chain's first block, signed as the table says.
    const block = (await post(rpc, { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x1', true] })) as { result: { transactions: { r: string; s: string }[] } }
    const [tx] = block.result.transactions
    const rs = `${tx!.r.slice(2).padStart(64, '0')}${tx!.s.slice(2).padStart(64, '0')}`
    expect(table.signatures.map(([, , signature]) => signature)).toContain(rs)
    // A transaction the table does not hold is signed and its sender recovered as ever.
    const alice = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const sent = (await post(rpc, { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [{ from: alice, to: alice, value: '0x1' }] })) as { result: string }
    const got = (await post(rpc, { jsonrpc: '2.0', id: 3, method: 'eth_getTransactionByHash', params: [sent.result] })) as { result: { from: string } }
    expect(got.result.from).toBe(alice.toLowerCase())
    expect(await stop(bin)).toBe(0)
  })

  it('names the port that is taken when it is a later node\'s', async () => {
    const { port, blocker } = await portWithNextNodeTaken()
    try {
      const bin = spawnBin(['start', '--port', String(port), '--no-scenario', '--nodes', '2'])
      expect(await bin.exited).toBe(1)
      expect(bin.stderr).toBe(`l1sim: port ${port + 2} on 127.0.0.1 is already in use\n`)
    } finally {
      blocker.close()
    }
  })

  it('--icm --relayer manual --relayer-port: the relayer holds a message until POST /relay on its own port delivers it', async () => {
    const bin = await startBin(['--icm', '--relayer', 'manual', '--relayer-port', '0'])
    const relayerUrl = /ICM relayer:\s+(http:\/\/\S+)\/relay \(manual, from 0x[0-9a-f]{40}\)/.exec(bin.stdout)?.[1]
    expect(relayerUrl).toBeDefined()
    expect((await fetch(`${relayerUrl}/health`)).status).toBe(200)
    const rpc = async (method: string, params: unknown[]) => ((await post(`${bin.url}/ext/bc/C/rpc`, { jsonrpc: '2.0', id: 1, method, params })) as { result: any }).result
    const [from] = (await rpc('eth_accounts', [])) as string[]
    const cChainId = `0x${Buffer.from(decodeCb58Id((await post(`${bin.url}/ext/info`, { jsonrpc: '2.0', id: 1, method: 'info.getBlockchainID', params: { alias: 'C' } }) as { result: { blockchainID: string } }).result.blockchainID)).toString('hex')}`
    // A message from the C-chain to itself: sendCrossChainMessage((destination, to, (fee token, 0), 100000, [], 0x01)).
    const data = encodeFunctionData({
      abi: ICM_MESSENGER_ABI,
      functionName: 'sendCrossChainMessage',
      args: [{ destinationBlockchainID: cChainId as `0x${string}`, destinationAddress: from as `0x${string}`, feeInfo: { feeTokenAddress: `0x${'00'.repeat(20)}`, amount: 0n }, requiredGasLimit: 100_000n, allowedRelayerAddresses: [], message: '0x01' }],
    })
    const hash = await rpc('eth_sendTransaction', [{ from, to: ICM_MESSENGER_ADDRESS, data, gas: '0x100000' }])
    const receipt = await rpc('eth_getTransactionReceipt', [hash])
    const warpLog = receipt.logs.find((l: { address: string }) => l.address === '0x0200000000000000000000000000000000000005')
    // SendCrossChainMessage(bytes32 indexed messageID, …), after the first send's BlockchainIDInitialized.
    const messageId = receipt.logs.find((l: { topics: string[] }) => l.topics[0] === '0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8').topics[1]
    const received = async () => rpc('eth_call', [{ to: ICM_MESSENGER_ADDRESS, data: encodeFunctionData({ abi: ICM_MESSENGER_ABI, functionName: 'messageReceived', args: [messageId] }) }, 'latest'])
    expect(await received()).toBe(`0x${'00'.repeat(32)}`)
    const relay = await fetch(`${relayerUrl}/relay`, { method: 'POST', body: JSON.stringify({ 'blockchain-id': cChainId, 'message-id': warpLog.topics[2], 'block-num': Number(receipt.blockNumber) }) })
    expect(relay.status).toBe(200)
    const delivery = (await relay.json()) as { 'transaction-hash': string }
    expect((await rpc('eth_getTransactionReceipt', [delivery['transaction-hash']])).status).toBe('0x1')
    expect(await received()).toBe(`0x${'00'.repeat(31)}01`)
    expect(await stop(bin)).toBe(0)
  })

  it("answers with the bytes and errors the library gives: the launcher's hex codecs are noble's own", async () => {
    // The launcher gives the bin's process Uint8Array.prototype.toHex and Uint8Array.fromHex,
    // which the bundle's @noble/hashes then uses; this process (the library) has neither.
    expect(typeof (Uint8Array.prototype as { toHex?: unknown }).toHex).toBe('undefined')
    const bin = await startBin([])
    const devnet = await startDevnet({ port: 0 })
    try {
      const requests: [string, unknown[]][] = [
        ['web3_sha3', ['0x68656c6c6f']],
        ['eth_call', [{ to: '0x0000000000000000000000000000000000000002', data: '0x68656c6c6f' }, 'latest']],
        ['eth_call', [{ to: '0x0000000000000000000000000000000000000004', data: '0x00ff10aB' }, 'latest']],
        ['eth_getBalance', ['0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', 'latest']],
        ['eth_sendRawTransaction', ['0x123']],
        ['eth_sendRawTransaction', ['0x12zz']],
        ['eth_sendRawTransaction', ['0xf86c0a8502540be400825208944bbeeb066ed09b7aed07bf39eee0460dfa261520880de0b6b3a7640000801ca0f3ae52c1ef3300f44df0bcfd1341c232ed6134672b16e35699ae3f5fe2493379a023d23d2955a239dd6f61c4e8b2678d174356ff424eac53da53e17706c43ef871']],
      ]
      for (const [method, params] of requests) {
        const body = { jsonrpc: '2.0', id: 1, method, params }
        expect([method, await post(`${bin.url}/ext/bc/C/rpc`, body)]).toEqual([method, await post(devnet.rpcUrl('C'), body)])
      }
    } finally {
      await devnet.close()
    }
    expect(await stop(bin)).toBe(0)
  })

  it('refuses a --relayer mode it does not know', async () => {
    const bin = spawnBin(['start', '--port', '0', '--no-scenario', '--relayer', 'sometimes'])
    expect(await bin.exited).toBe(2)
    expect(bin.stderr).toContain('--relayer must be auto, manual, delay=<N>s or delay=<N>blocks, got "sometimes"')
  })
})
