import { EventEmitter } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_SCENARIO, runCli, USAGE, type CliResult } from '../src/cli.js'
import { createProgressReporter, formatProgress } from '../src/cli/progress.js'
import { portWithNextNodeTaken } from './helpers/ports.js'
import { createEIP1193Provider, createNetwork, loadNetwork, startDevnet } from '../src/index.js'

function capture(isTTY = false) {
  return { text: '', isTTY, write(chunk: string) { this.text += chunk } }
}

async function run(...argv: string[]) {
  const stdout = capture()
  const stderr = capture()
  const result = await runCli(argv, { stdout, stderr })
  return { ...result, stdout: stdout.text, stderr: stderr.text }
}

/** A fresh directory under test/.tmp/ (gitignored), removed after each test. */
const tmpDirs: string[] = []
function tmpDir(label: string): string {
  const root = fileURLToPath(new URL('./.tmp/', import.meta.url))
  mkdirSync(root, { recursive: true })
  const dir = mkdtempSync(join(root, `cli-${label}-`))
  tmpDirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return ((await res.json()) as { result: unknown }).result
}

/** `text` matched literally in a RegExp. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const CAROL = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' // dev account 3, `carol` in scenarios/default.yaml

async function chainId(url: string): Promise<unknown> {
  const res = await fetch(`${url}/ext/bc/C/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
  })
  return ((await res.json()) as { result: unknown }).result
}

describe('l1sim --help / --version', () => {
  it('prints the usage and the package version', async () => {
    expect(await run('--help')).toMatchObject({ exitCode: 0, stdout: USAGE, stderr: '' })
    expect(await run('start', '-h')).toMatchObject({ exitCode: 0, stdout: USAGE })
    expect(await run('--version')).toMatchObject({ exitCode: 0, stdout: '0.1.0\n' })
  })
})

describe('usage errors exit with code 2', () => {
  const hint = 'Run "l1sim --help" for usage.\n'
  it.each([
    [['start', '--foo'], /^l1sim: Unknown option '--foo'/],
    [['start', '--port'], /^l1sim: Option '--port <value>' argument missing/],
    [['start', '--port', 'abc'], /^l1sim: --port must be a whole number from 0 to 65535, got "abc"\n/],
    [['start', '--port', '70000'], /^l1sim: --port must be a whole number from 0 to 65535, got "70000"\n/],
    [['start', '--network', 'devnet'], /^l1sim: --network must be local, fuji or mainnet, got "devnet"\n/],
    [['start', '--nodes', '0'], /^l1sim: --nodes must be a whole number from 1 to 100, got "0"\n/],
    [['start', '--accounts', '-1'], /^l1sim: Option '--accounts' argument is ambiguous/],
    [['start', '--accounts=-1'], /^l1sim: --accounts must be a whole number from 0 to 10000, got "-1"\n/],
    [['start', '--balance', '1.2.3'], /^l1sim: --balance must be an amount of AVAX such as 10000 or 0.5, got "1.2.3"\n/],
    [['start', '--block-time', '0'], /^l1sim: --block-time must be a whole number of seconds, 1 or more, got "0"\n/],
    [['start', '--block-time', '1.5'], /^l1sim: --block-time must be a whole number of seconds, 1 or more, got "1.5"\n/],
    [['start', '--port', '0', '--mnemonic', 'not a real mnemonic'], /^l1sim: invalid mnemonic\n/],
    [[], /^l1sim: missing command\n/],
    [['stop'], /^l1sim: unknown command "stop"\n/],
    [['start', 'now'], /^l1sim: unexpected argument "now"\n/],
    [['start', '--url', 'http://x'], /^l1sim: --url is not an option of "start"\n/],
    [['start', '--scenario', 'a.yaml', '--snapshot', 'b.l1sim'], /^l1sim: give --scenario or --snapshot, not both: a snapshot already holds the state its scenario left\n/],
    [['start', '--no-scenario', '--scenario', 'a.yaml'], /^l1sim: --no-scenario starts from genesis: not with --scenario or --snapshot\n/],
    [['start', '--scenario='], /^l1sim: --scenario must not be empty\n/],
    [['run'], /^l1sim: run: missing scenario file\n/],
    [['run', 'a.yaml', 'b.yaml'], /^l1sim: unexpected argument "b.yaml"\n/],
    [['run', 'a.yaml', '--port', '0'], /^l1sim: --port is not an option of "run"\n/],
    [['snapshot'], /^l1sim: missing snapshot command: save, load or inspect\n/],
    [['snapshot', 'restore', 'a'], /^l1sim: unknown snapshot command "restore" \(save, load or inspect\)\n/],
    [['snapshot', 'save'], /^l1sim: snapshot save: missing file\n/],
    [['snapshot', 'load', 'a.l1sim', '--scenario', 'b.yaml'], /^l1sim: --scenario is not an option of "snapshot load"\n/],
    [['snapshot', 'inspect', 'a.l1sim', '--url', 'http://x'], /^l1sim: --url is not an option of "snapshot inspect"\n/],
    [['start', '--snapshot', 'a.l1sim', '--nodes', '2'], /^l1sim: --nodes does not apply to a snapshot: the file fixes the network it continues\n/],
    [['snapshot', 'load', 'a.l1sim', '--l1', 'x=y.json'], /^l1sim: --l1 does not apply to a snapshot: the file fixes the network it continues\n/],
  ])('%j', async (argv, message) => {
    const result = await run(...argv)
    expect(result.exitCode).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(message)
    expect(result.stderr.endsWith(hint)).toBe(true)
    expect(result.devnet).toBeUndefined()
  })
})

describe('l1sim start', () => {
  it('prints the network, the URLs and the accounts, then one ready line once it answers', async () => {
    const result = await run('start', '--port', '0', '--no-scenario', '--accounts', '2')
    try {
      expect(result.exitCode).toBe(0)
      const devnet = result.devnet!
      const lines = result.stdout.trimEnd().split('\n')
      expect(lines.at(-1)).toBe(`l1sim ready at ${devnet.url}`)
      expect(lines.filter((l) => l.startsWith('l1sim ready at'))).toHaveLength(1)
      expect(devnet.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(result.stdout).toContain('Preset:            local (network id 12345)')
      expect(result.stdout).toContain('C-Chain:           2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC (EVM chain id 43112)')
      expect(result.stdout).toContain(`HTTP:              ${devnet.url}/ext/bc/C/rpc`)
      expect(result.stdout).toContain(`WebSocket:         ${devnet.url.replace('http', 'ws')}/ext/bc/C/ws`)
      expect(result.stdout).toContain('(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (10000 AVAX)')
      expect(result.stdout).toContain('(0) 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
      expect(result.stdout).not.toContain('(2) 0x')
      expect(result.stdout).toContain('Mining:            automine (a block per transaction)')
      expect(result.stderr).toBe('')
      expect(await chainId(devnet.url)).toBe('0xa868')
      // The CLI's blocks carry wall-clock timestamps; the library default stays manual.
      expect(devnet.network.clock.mode).toBe('realtime')
    } finally {
      await result.devnet?.close()
    }
  })

  it('passes the network options through', async () => {
    const result = await run('start', '--port', '0', '--no-scenario', '--network', 'fuji', '--nodes', '1', '--accounts', '1', '--balance', '1.5', '--block-time', '2')
    try {
      const { network } = result.devnet!
      expect(network.presetName).toBe('fuji')
      expect(network.nodes).toHaveLength(1)
      expect(network.cChain.mining).toEqual({ mode: 'interval', interval: 2 })
      expect(result.stdout).toContain('(EVM chain id 43113)')
      expect(result.stdout).toContain('(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (1.5 AVAX)')
      expect(result.stdout).toContain('Mining:            a block every 2 s')
      expect(await chainId(result.devnet!.url)).toBe('0xa869')
    } finally {
      await result.devnet?.close()
    }
  })

  it('adds L1s from genesis files (--l1 name=genesis[,upgrade]) and prints their ids and URLs', async () => {
    const fixtures = fileURLToPath(new URL('./fixtures/l1/', import.meta.url))
    const result = await run('start', '--port', '0', '--no-scenario', '--l1', `dex=${fixtures}genesis.json,${fixtures}upgrade.json`)
    try {
      const l1 = result.devnet!.network.l1s[0]!
      expect(l1.name).toBe('dex')
      expect(l1.config.precompileUpgrades).toHaveLength(1)
      expect(result.stdout).toContain(`L1 dex:            ${l1.blockchainId} (EVM chain id 99999, subnet ${l1.subnetId})`)
      expect(result.stdout).toContain(`HTTP (dex):        ${result.devnet!.url}/ext/bc/dex/rpc`)
    } finally {
      await result.devnet?.close()
    }
  })

  it('refuses an --l1 it cannot read or parse, before starting', async () => {
    const missingFile = fileURLToPath(new URL('./fixtures/l1/missing.json', import.meta.url))
    const missing = await run('start', '--port', '0', '--l1', `dex=${missingFile}`)
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toBe(`l1sim: --l1 dex: cannot read ${missingFile}: ENOENT\nRun "l1sim --help" for usage.\n`)
    const shape = await run('start', '--port', '0', '--l1', 'dex')
    expect(shape.stderr).toContain('--l1 must be <name>=<genesis file>[,<upgrade file>], got "dex"')
  })

  it('passes the node flags through: admin API, directories, log levels, health frequency', async () => {
    const dir = fileURLToPath(new URL('./.tmp/cli-node-flags/', import.meta.url))
    const result = await run('start', '--port', '0', '--no-scenario', '--nodes', '2', '--api-admin-enabled', '--data-dir', dir, '--log-level', 'debug', '--log-display-level', 'warn', '--health-check-frequency', '1m30s')
    try {
      const [node0, node1] = result.devnet!.network.nodes
      expect(node0!.config).toMatchObject({ apiAdminEnabled: true, dataDir: `${dir}node-0`, logLevel: 'DEBUG', logDisplayLevel: 'WARN', healthCheckFrequency: 90_000 })
      expect(node1!.config.dataDir).toBe(`${dir}node-1`)
      expect(result.stdout).toContain(`(1) ${node1!.nodeId} ${result.devnet!.nodes[1]!.url}`)
      expect(result.stdout).toContain('Admin API:         enabled (/ext/admin)')
      const res = await fetch(`${result.devnet!.url}/ext/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"admin.getLoggerLevel","params":{"loggerName":"C"}}' })
      expect(await res.text()).toBe('{"jsonrpc":"2.0","result":{"loggerLevels":{"C":{"logLevel":"DEBUG","displayLevel":"WARN"}}},"id":1}\n')
    } finally {
      await result.devnet?.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('passes the access flags through: allowed hosts and origins, /ext/sim, the snapshot directory', async () => {
    const dir = tmpDir('access-flags')
    const result = await run('start', '--port', '0', '--no-scenario', '--nodes', '1', '--http-allowed-hosts', 'devnet.test,other.test', '--http-allowed-origins', 'https://app.example https://*.example.org', '--api-sim-enabled=false', '--snapshot-dir', dir)
    try {
      const devnet = result.devnet!
      expect(devnet.server.access).toEqual({ allowedHosts: ['devnet.test', 'other.test'], allowedOrigins: ['https://app.example', 'https://*.example.org'], apiSimEnabled: false, snapshotDir: dir })
      expect(result.stdout).toContain('Network control:   disabled (--api-sim-enabled=true to serve /ext/sim)')
      const sim = await fetch(`${devnet.url}/ext/sim`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://app.example' }, body: '{"jsonrpc":"2.0","id":1,"method":"sim.getFaults","params":{}}' })
      expect(sim.status).toBe(404)
      expect(sim.headers.get('access-control-allow-origin')).toBe('https://app.example')
      expect(sim.headers.get('access-control-allow-credentials')).toBe('true')
    } finally {
      await result.devnet?.close()
    }
    const defaults = await run('start', '--port', '0', '--no-scenario', '--nodes', '1', '--api-sim-enabled')
    try {
      expect(defaults.devnet!.server.access).toMatchObject({ allowedHosts: ['localhost'], allowedOrigins: ['*'], apiSimEnabled: true })
      expect(defaults.stdout).toContain(`Network control:   /ext/sim (sim.*: faults, time, snapshot, revert, reset, saveSnapshot to ${join(process.cwd(), 'snapshots')})`)
    } finally {
      await defaults.devnet?.close()
    }
  })

  it('refuses bad node flags with usage errors', async () => {
    expect((await run('start', '--api-admin-enabled=maybe')).stderr).toContain('--api-admin-enabled must be true or false, got "maybe"')
    expect((await run('start', '--log-level', 'LOUD')).stderr).toContain('--log-level must be one of OFF, FATAL, ERROR, WARN, INFO, TRACE, DEBUG, VERBO, got "LOUD"')
    expect((await run('start', '--health-check-frequency', '30')).stderr).toContain('--health-check-frequency must be a duration such as 30s, 1m or 500ms, got "30"')
    expect((await run('start', '--health-check-frequency', '0s')).stderr).toContain('health-check-frequency must be positive')
    expect((await run('start', '--api-sim-enabled=maybe')).stderr).toContain('--api-sim-enabled must be true or false, got "maybe"')
    expect((await run('start', '--http-allowed-hosts', ',')).stderr).toContain('--http-allowed-hosts must list at least one name')
    expect((await run('start', '--snapshot-dir=')).stderr).toContain('--snapshot-dir must not be empty')
  })

  it('closes cleanly on SIGINT or SIGTERM', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const signals = new EventEmitter()
      const result: CliResult = await runCli(['start', '--port', '0', '--no-scenario'], { stdout: capture(), stderr: capture(), signals })
      expect(signals.listenerCount(signal)).toBe(1)
      signals.emit(signal)
      await result.closed
      expect(result.devnet!.server.server.listening).toBe(false)
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0)
    }
  })

  it('reports a port in use with exit code 1', async () => {
    const taken = await startDevnet({ port: 0 })
    try {
      const port = new URL(taken.url).port
      const result = await run('start', '--port', port, '--no-scenario')
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toBe(`l1sim: port ${port} on 127.0.0.1 is already in use\n`)
      expect(result.devnet).toBeUndefined()
    } finally {
      await taken.close()
    }
  })

  it('names the port that is taken when it is a later node\'s (node i listens on port + 2i)', async () => {
    const { port, blocker } = await portWithNextNodeTaken()
    try {
      const result = await run('start', '--port', String(port), '--no-scenario', '--nodes', '2')
      expect(result).toMatchObject({ exitCode: 1, stdout: '', stderr: `l1sim: port ${port + 2} on 127.0.0.1 is already in use\n` })
      expect(result.devnet).toBeUndefined()
    } finally {
      blocker.close()
    }
  })

  it('names the L1 and its files when subnet-EVM refuses its genesis or upgrade.json, with exit code 1', async () => {
    const dir = tmpDir('l1-refused')
    const fixtures = fileURLToPath(new URL('./fixtures/l1/', import.meta.url))
    const genesis = JSON.parse(readFileSync(`${fixtures}genesis.json`, 'utf8')) as Record<string, unknown>
    const badGenesis = join(dir, 'gas.json')
    writeFileSync(badGenesis, JSON.stringify({ ...genesis, gasLimit: '0xE4E1C0' }))
    const badUpgrade = join(dir, 'upgrade.json')
    writeFileSync(badUpgrade, JSON.stringify({ precompileUpgrades: [{}] }))
    const notJson = join(dir, 'text.json')
    writeFileSync(notJson, 'genesis: yes\n')
    for (const [flag, message] of [
      [`dex=${badGenesis}`, `L1 dex (${badGenesis}): failed to verify genesis: gas limit in fee config (20000000) does not match gas limit in header (15000000)`],
      [`dex=${fixtures}genesis.json,${badUpgrade}`, `L1 dex (${fixtures}genesis.json, ${badUpgrade}): failed to parse upgrade bytes: PrecompileUpgrade cannot be empty`],
      [`dex=${notJson}`, `L1 dex (${notJson}): genesis is not valid JSON: `],
    ] as const) {
      const refused = await run('start', '--port', '0', '--no-scenario', '--nodes', '1', '--l1', flag)
      expect(refused.exitCode).toBe(1)
      expect(refused.stdout).toBe('')
      expect(refused.stderr.startsWith(`l1sim: ${message}`)).toBe(true)
      expect(refused.stderr).not.toContain('--help')
      expect(refused.devnet).toBeUndefined()
    }
  })

  it('names the scenario, its position and the L1 when subnet-EVM refuses the L1 it describes (a scenario that does not validate: exit 2, no usage hint)', async () => {
    const dir = tmpDir('scenario-l1-refused')
    const file = join(dir, 'fees.yaml')
    const feeConfig = '{ gasLimit: 20000000, minBaseFee: 1000000000, targetGas: 100000000, baseFeeChangeDenominator: 48, minBlockGasCost: 20000000, maxBlockGasCost: 10000000, targetBlockRate: 2, blockGasCostStep: 500000 }'
    writeFileSync(file, ['name: fees', 'l1s:', '  - name: dex', '    chainId: 99999', `    feeConfig: ${feeConfig}`, 'steps: []', ''].join('\n'))
    const refused = await run('start', '--port', '0', '--scenario', file, '--nodes', '1')
    expect(refused).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: `${file}:3:5: l1s[0]: chain dex: failed to verify genesis: invalid fee config: minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = 20000000, maxBlockGasCost = 10000000\n`,
    })
  })
})

describe('l1sim start with scenarios and snapshots', () => {
  it('runs scenarios/default.yaml when given no --scenario, and reset returns to the state it left', async () => {
    expect(DEFAULT_SCENARIO).toBe(fileURLToPath(new URL('../scenarios/default.yaml', import.meta.url)))
    const result = await run('start', '--port', '0')
    try {
      expect(result.exitCode).toBe(0)
      const devnet = result.devnet!
      expect(result.stdout).toContain(`Scenario:          ${DEFAULT_SCENARIO} (3 assertions passed, 0 failed)`)
      expect(result.stdout).toMatch(/L1 dex: {12}\w+ \(EVM chain id 99999, subnet \w+\)/)
      expect(result.stdout).toContain('(3) 0x90F79bf6EB2c4f870365E785982E1f101E93b906 (10001.5 AVAX)')
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(`l1sim ready at ${devnet.url}`)
      // The steps ran on the scenario's clock; the server then follows the wall clock from there.
      expect(devnet.network.clock.mode).toBe('realtime')
      const height = await rpc(devnet.rpcUrl(), 'eth_blockNumber')
      await rpc(devnet.rpcUrl(), 'anvil_setBalance', [CAROL, '0x0'])
      expect(await rpc(devnet.rpcUrl(), 'eth_getBalance', [CAROL, 'latest'])).toBe('0x0')
      expect(await rpc(devnet.rpcUrl(), 'anvil_reset')).toBe(null)
      expect(BigInt(await rpc(devnet.rpcUrl(), 'eth_getBalance', [CAROL, 'latest']))).toBe(10_001_500_000_000_000_000_000n)
      expect(await rpc(devnet.rpcUrl(), 'eth_blockNumber')).toBe(height)
      expect(BigInt(await rpc(devnet.rpcUrl('dex'), 'eth_getBalance', [CAROL, 'latest']))).toBe(5n * 10n ** 18n)
    } finally {
      await result.devnet?.close()
    }
  })

  it.each([
    ['fuji', 5, 1761750000],
    ['mainnet', 1, 1763568000],
  ] as const)('runs scenarios/default.yaml on %s: its L1 begins at the network\'s latest upgrade (Granite), with warp on from genesis', async (preset, networkId, granite) => {
    const result = await run('start', '--port', '0', '--network', preset)
    try {
      expect(result.exitCode).toBe(0)
      const devnet = result.devnet!
      expect(result.stdout).toContain(`Preset:            ${preset} (network id ${networkId})`)
      expect(result.stdout).toContain(`Scenario:          ${DEFAULT_SCENARIO} (3 assertions passed, 0 failed)`)
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(`l1sim ready at ${devnet.url}`)
      const dex = devnet.rpcUrl('dex')
      expect((await rpc(dex, 'eth_getBlockByNumber', ['0x0', false])).timestamp).toBe(`0x${granite.toString(16)}`)
      expect(await rpc(dex, 'eth_getActivePrecompilesAt', [])).toMatchObject({ warpConfig: { blockTimestamp: granite }, txAllowListConfig: { blockTimestamp: granite } })
      expect(BigInt(await rpc(dex, 'eth_getBalance', [CAROL, 'latest']))).toBe(5n * 10n ** 18n)
    } finally {
      await result.devnet?.close()
    }
  })

  it('starts from genesis with --no-scenario, and when the package has no default scenario', async () => {
    const none = await runCli(['start', '--port', '0', '--nodes', '1'], { stdout: capture(), stderr: capture(), defaultScenario: join(tmpDir('no-default'), 'default.yaml') })
    try {
      expect(none.devnet!.scenario).toBeUndefined()
      expect(none.devnet!.network.l1s).toEqual([])
    } finally {
      await none.devnet?.close()
    }
  })

  it('runs --scenario <file> with the flags overriding it, and reports failed assertions without refusing to start', async () => {
    const dir = tmpDir('scenario')
    const file = join(dir, 'failing.yaml')
    writeFileSync(file, ['name: failing', 'steps:', '  - send: { from: acct:1, to: acct:3, value: 1 ether }', '  - assert: { balance: { account: acct:3, equals: 1 ether } }', ''].join('\n'))
    const result = await run('start', '--port', '0', '--scenario', file, '--nodes', '1', '--accounts', '4')
    try {
      expect(result.exitCode).toBe(0)
      expect(result.devnet!.network.nodes).toHaveLength(1)
      expect(result.stdout).toContain(`Scenario:          ${file} (0 assertions passed, 1 failed)`)
      expect(result.stdout).not.toContain('(4) 0x')
      expect(result.stderr).toBe(`l1sim: assertion failed: ${file}:4:5: steps[1].assert.balance: balance of acct:3 on C: expected 1000000000000000000 wei, got 10001000000000000000000\n`)
    } finally {
      await result.devnet?.close()
    }
  })

  it('prints every issue of an invalid --scenario and exits 2; a missing one is a usage error', async () => {
    const dir = tmpDir('invalid')
    const file = join(dir, 'bad.yaml')
    writeFileSync(file, ['name: bad', 'steps:', '  - send: { from: acct:1, value: lots }', ''].join('\n'))
    const bad = await run('start', '--port', '0', '--scenario', file)
    expect(bad.exitCode).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: steps\\[0\\]`))
    const missing = await run('start', '--port', '0', '--scenario', join(dir, 'missing.yaml'))
    expect(missing).toMatchObject({ exitCode: 2, stderr: `l1sim: cannot read ${join(dir, 'missing.yaml')}: ENOENT\n` })
  })

  it('shows a scenario\'s progress as one redrawn line on a terminal, erased before the banner', async () => {
    const stderr = capture(true)
    const result = await runCli(['start', '--port', '0'], { stdout: capture(), stderr })
    try {
      expect(stderr.text).toMatch(/^\r\x1b\[K.*default\.yaml: step 0\/6, \d+ blocks?, \d+\.\d s \(steps\[0\] send\)/)
      expect(stderr.text.endsWith('\r\x1b[K')).toBe(true)
      expect(stderr.text).not.toContain('\n')
    } finally {
      await result.devnet?.close()
    }
  })

  it('saves on exit (--save-on-exit), then continues from the file (--snapshot, snapshot load) and inspects it', async () => {
    const dir = tmpDir('save-on-exit')
    const file = join(dir, 'paid.l1sim')
    const signals = new EventEmitter()
    const stdout = capture()
    const first = await runCli(['start', '--port', '0', '--no-scenario', '--nodes', '1', '--save-on-exit', file], { stdout, stderr: capture(), signals })
    const from = first.devnet!.network.devAccounts[0]!.address
    await rpc(first.devnet!.rpcUrl(), 'eth_sendTransaction', [{ from, to: CAROL, value: '0x7' }])
    signals.emit('SIGTERM')
    expect(await first.closed).toBe(0)
    expect(stdout.text).toMatch(new RegExp(`l1sim: saved the network to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ bytes, sha256 [0-9a-f]{64}\\)\\n$`))
    expect(existsSync(file)).toBe(true)

    for (const argv of [['start', '--snapshot', file], ['snapshot', 'load', file]]) {
      const loaded = await run(...argv, '--port', '0')
      try {
        expect(loaded.exitCode).toBe(0)
        expect(loaded.stdout).toContain(`Snapshot:          ${file}`)
        expect(loaded.stdout).not.toContain('Scenario:')
        expect(loaded.devnet!.network.nodes).toHaveLength(1)
        expect(loaded.devnet!.network.clock.mode).toBe('realtime')
        expect(await rpc(loaded.devnet!.rpcUrl(), 'eth_getBalance', [CAROL, 'latest'])).toBe('0x21e19e0c9bab2400007')
        expect(await rpc(loaded.devnet!.rpcUrl(), 'eth_blockNumber')).toBe('0x1')
      } finally {
        await loaded.devnet?.close()
      }
    }

    const inspected = await run('snapshot', 'inspect', file)
    expect(inspected.exitCode).toBe(0)
    const lines = inspected.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`file:      ${file}`)
    expect(lines[1]).toBe('format:    3 (saved by l1sim 0.1.0)')
    expect(lines[2]).toMatch(/^time: {6}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z \(network time\)$/)
    expect(lines[3]).toBe('network:   local (network id 12345), 1 node')
    expect(lines[4]).toMatch(/^chains: {4}P  platform {2}height 0  \w+$/)
    expect(lines[5]).toMatch(/^ {11}X  avm {7}height 0  \w+$/)
    expect(lines[6]).toMatch(/^ {11}C  evm {7}height 1  0x[0-9a-f]{64}$/)
    expect(lines[7]).toMatch(/^size: {6}\d+ bytes \(header \d+, state \d+\)$/)
    expect(lines[8]).toMatch(/^sha256: {4}[0-9a-f]{64} \(checksum ok\)$/)
    expect(lines).toHaveLength(9)
  })

  it('reports a save on exit that fails with exit code 1, and still closes', async () => {
    const dir = tmpDir('save-fails')
    const gone = join(dir, 'gone')
    mkdirSync(gone)
    const signals = new EventEmitter()
    const stderr = capture()
    const result = await runCli(['start', '--port', '0', '--no-scenario', '--nodes', '1', '--save-on-exit', join(gone, 'x.l1sim')], { stdout: capture(), stderr, signals })
    expect(result.exitCode).toBe(0)
    // Writable at the start, gone by the end.
    rmSync(gone, { recursive: true })
    signals.emit('SIGINT')
    expect(await result.closed).toBe(1)
    expect(stderr.text).toMatch(/^l1sim: cannot save the network to .+gone.+x\.l1sim: .*no such file or directory\n$/)
    expect(result.devnet!.server.server.listening).toBe(false)
  })

  it('refuses a --save-on-exit path the save could not write, before starting', async () => {
    const dir = tmpDir('save-refused')
    const file = join(dir, 'file')
    writeFileSync(file, 'not a directory\n')
    const hint = 'Run "l1sim --help" for usage.\n'
    for (const [target, problem] of [
      [join(dir, 'no-such-dir', 'x.l1sim'), `${join(dir, 'no-such-dir')}: no such file or directory`],
      [join(file, 'x.l1sim'), `${file} is not a directory`],
      [dir, 'it is a directory'],
    ] as const) {
      const refused = await run('start', '--port', '0', '--no-scenario', '--nodes', '1', '--save-on-exit', target)
      expect(refused).toMatchObject({ exitCode: 2, stdout: '', stderr: `l1sim: --save-on-exit: snapshot ${target}: cannot be written: ${problem}\n${hint}` })
      expect(refused.devnet).toBeUndefined()
    }
    // Nothing was left behind by the check.
    expect(readdirSync(dir)).toEqual(['file'])
  })

  it('refuses a file that is not a snapshot, before starting', async () => {
    const dir = tmpDir('foreign')
    const file = join(dir, 'notes.l1sim')
    writeFileSync(file, 'not a snapshot\n')
    const started = await run('start', '--port', '0', '--snapshot', file)
    expect(started.exitCode).toBe(1)
    expect(started.stderr).toMatch(new RegExp(`^l1sim: snapshot ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+\\n$`))
    const inspected = await run('snapshot', 'inspect', file)
    expect(inspected.exitCode).toBe(1)
    expect(inspected.stderr).toMatch(new RegExp(`^l1sim: snapshot ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+\\n$`))
  })

  it('inspects a damaged file (a flipped byte): prints what its header claims, says so and exits 1', async () => {
    const dir = tmpDir('inspect-damaged')
    const file = join(dir, 'damaged.l1sim')
    const network = await createNetwork({ nodes: 1 })
    try {
      await network.save(file)
    } finally {
      await network.close()
    }
    const bytes = readFileSync(file)
    bytes[bytes.length - 100]! ^= 0x10
    writeFileSync(file, bytes)
    const inspected = await run('snapshot', 'inspect', file)
    expect(inspected.exitCode).toBe(1)
    expect(inspected.stdout).toMatch(/^sha256: {4}[0-9a-f]{64} \(CHECKSUM MISMATCH: the file is damaged\)$/m)
    expect(inspected.stderr).toBe(`l1sim: snapshot ${file}: checksum mismatch: the file is corrupt\n`)
    expect(await run('start', '--port', '0', '--snapshot', file)).toMatchObject({ exitCode: 1, stderr: `l1sim: snapshot ${file}: checksum mismatch: the file is corrupt\n` })
  })
})

describe('l1sim snapshot save', () => {
  it("asks a running server to save its network (sim.saveSnapshot), under the server's snapshot directory", async () => {
    const dir = tmpDir('snapshot-save')
    const devnet = await startDevnet({ port: 0, nodes: 1, snapshotDir: dir })
    try {
      await rpc(devnet.rpcUrl(), 'anvil_setBalance', [CAROL, '0x2a'])
      const saved = await run('snapshot', 'save', 'set.l1sim', '--url', devnet.url)
      expect(saved.exitCode).toBe(0)
      expect(saved.stdout).toMatch(new RegExp(`^saved ${join(dir, 'set.l1sim').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ bytes, sha256 [0-9a-f]{64}\\)\\n$`))
    } finally {
      await devnet.close()
    }
    const network = await loadNetwork(join(dir, 'set.l1sim'))
    try {
      expect(await createEIP1193Provider({ network }).request({ method: 'eth_getBalance', params: [CAROL, 'latest'] })).toBe('0x2a')
    } finally {
      await network.close()
    }
  })

  it('exits 1 with the server\'s refusal, or when no server answers', async () => {
    const dir = tmpDir('snapshot-save-fails')
    const devnet = await startDevnet({ port: 0, nodes: 1, snapshotDir: dir })
    const url = devnet.url
    try {
      const refused = await run('snapshot', 'save', join('missing-dir', 'x.l1sim'), '--url', url)
      expect(refused.exitCode).toBe(1)
      expect(refused.stderr).toMatch(/^l1sim: cannot save the snapshot to .*missing-dir.+x\.l1sim: .+\n$/)
      const outside = await run('snapshot', 'save', join(dir, '..', 'x.l1sim'), '--url', url)
      expect(outside).toMatchObject({ exitCode: 1, stdout: '' })
      expect(outside.stderr).toContain(`: the path is outside the snapshot directory ${dir}: over HTTP, snapshot files are written only under it\n`)
    } finally {
      await devnet.close()
    }
    const unreachable = await run('snapshot', 'save', join(dir, 'x.l1sim'), '--url', url)
    expect(unreachable).toMatchObject({ exitCode: 1, stdout: '', stderr: `l1sim: cannot reach ${url}: ECONNREFUSED\n` })
  })
})

describe('l1sim run', () => {
  it('runs a scenario to its end and prints the summary', async () => {
    const result = await run('run', DEFAULT_SCENARIO)
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^${DEFAULT_SCENARIO.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 6 steps, \\d+ blocks in \\d+\\.\\d s; 3 assertions passed, 0 failed: ok\\n$`))
  })

  it('prints each failed assertion and exits 1', async () => {
    const dir = tmpDir('run-fails')
    const file = join(dir, 'failing.yaml')
    writeFileSync(file, ['name: failing', 'steps:', '  - send: { from: acct:1, to: acct:3, value: 1 ether }', '  - assert: { balance: { account: acct:3, equals: 1 ether } }', '  - assert: { balance: { account: acct:3, equals: 10001 ether } }', ''].join('\n'))
    const result = await run('run', file)
    expect(result.exitCode).toBe(1)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe(`FAIL ${file}:4:5: steps[1].assert.balance: balance of acct:3 on C: expected 1000000000000000000 wei, got 10001000000000000000000`)
    expect(lines[1]).toMatch(/: 3 steps, 1 block in \d+\.\d s; 1 assertion passed, 1 failed: FAILED$/)
  })

  it('prints the validation issues of a bad file and exits 2; nothing runs', async () => {
    const dir = tmpDir('run-invalid')
    const file = join(dir, 'bad.yaml')
    writeFileSync(file, ['name: bad', 'steps:', '  - send: { from: acct:1, value: lots }', '  - frobnicate: {}', ''].join('\n'))
    const result = await run('run', file)
    expect(result.exitCode).toBe(2)
    expect(result.stdout).toBe('')
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines.at(-1)).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ problems, nothing ran$`))
    expect(lines.slice(0, -1).every((l) => l.startsWith(`${file}:`))).toBe(true)
    expect(lines.some((l) => l.startsWith(`${file}:4:`))).toBe(true)
    const missing = await run('run', join(dir, 'missing.yaml'))
    expect(missing).toMatchObject({ exitCode: 2, stderr: `l1sim: cannot read ${join(dir, 'missing.yaml')}: ENOENT\n` })
  })

  it('refuses a YAML alias bomb in a step\'s args at the alias, before expanding it: exit 2, nothing ran', async () => {
    const dir = tmpDir('run-alias-bomb')
    const file = join(dir, 'bomb.yaml')
    // Each level is ten aliases of the one before: 10^5 values at five levels, 10^9 at nine.
    const levels = ['&l0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 5 }, (_, i) => `&l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`)]
    writeFileSync(file, ['name: bomb', 'steps:', `  - call: { contract: "0x0000000000000000000000000000000000000001", method: "f(uint256)", args: [${levels.join(', ')}] }`, ''].join('\n'))
    const result = await run('run', file)
    expect(result).toMatchObject({ exitCode: 2, stdout: '' })
    expect(result.stderr).toMatch(new RegExp(`^${escape(file)}:3:\\d+: steps\\[0\\]\\.call\\.args\\[4\\]\\[7\\]: alias \\*l3 takes the document's aliases past 100000 expanded values .+\\n${escape(file)}: 1 problem, nothing ran\\n$`))
  })

  it('refuses an L1 balance beyond uint256 and a genesis subnet-EVM would refuse, positioned, exit 2, as start --scenario does', async () => {
    const dir = tmpDir('run-bad-genesis')
    const big = join(dir, 'big.yaml')
    const digits = '1234567890'.repeat(8)
    writeFileSync(big, ['name: big', 'l1s:', '  - name: dex', '    chainId: 99999', `    alloc: { acct:0: ${digits} }`, 'steps: []', ''].join('\n'))
    const issue = `${big}:5:22: l1s[0].alloc.acct:0: expected at most 2^256-1 wei (a uint256), got ${digits}\n`
    expect(await run('run', big)).toMatchObject({ exitCode: 2, stdout: '', stderr: `${issue}${big}: 1 problem, nothing ran\n` })
    expect(await run('start', '--port', '0', '--scenario', big)).toMatchObject({ exitCode: 2, stdout: '', stderr: issue })

    const both = join(dir, 'both.yaml')
    writeFileSync(both, ['name: both', 'l1s:', '  - name: dex', '    chainId: 99999', '    precompiles: { txAllowList: { admins: [acct:0], enabled: [acct:0] } }', 'steps: []', ''].join('\n'))
    expect(await run('run', both)).toMatchObject({
      exitCode: 2,
      stderr: `${both}:3:5: l1s[0]: chain dex: failed to verify genesis: invalid precompile upgrades: cannot set address as both admin and enabled: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n${both}: 1 problem, nothing ran\n`,
    })
  })

  it('exits 1 with the step\'s position when a step cannot be carried out', async () => {
    const dir = tmpDir('run-step-fails')
    const file = join(dir, 'broke.yaml')
    writeFileSync(file, ['name: broke', 'accounts: { count: 2 }', 'steps:', '  - send: { from: acct:1, to: acct:0, value: 1000000 ether }', ''].join('\n'))
    const result = await run('run', file)
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(new RegExp(`^l1sim: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: steps\\[0\\]\\.send: .*insufficient funds`))
  })
})

describe('scenario progress', () => {
  const at = (stepsDone: number, elapsedMs: number, step?: string) => ({ stepsDone, stepsTotal: 4, blocks: stepsDone * 2, elapsedMs, ...(step ? { step } : {}) })

  it('formats steps, blocks, elapsed time and the step', () => {
    expect(formatProgress('s.yaml', at(1, 1234, 'steps[1] send'))).toBe('s.yaml: step 1/4, 2 blocks, 1.2 s (steps[1] send)')
    expect(formatProgress('s.yaml', { stepsDone: 4, stepsTotal: 4, blocks: 1, elapsedMs: 50 })).toBe('s.yaml: step 4/4, 1 block, 0.1 s')
  })

  it('redraws one line on a terminal, at most every 100 ms, and erases it at the end', () => {
    const out = capture(true)
    const progress = createProgressReporter(out, 's.yaml')
    progress.report(at(0, 0, 'a'))
    progress.report(at(1, 50, 'b')) // too soon
    progress.report(at(2, 150, 'c'))
    progress.report(at(4, 160)) // the end is always drawn
    progress.done()
    expect(out.text).toBe('\r\x1b[Ks.yaml: step 0/4, 0 blocks, 0.0 s (a)\r\x1b[Ks.yaml: step 2/4, 4 blocks, 0.1 s (c)\r\x1b[Ks.yaml: step 4/4, 8 blocks, 0.2 s\r\x1b[K')
    expect(progress.last).toEqual(at(4, 160))
  })

  it('prints a plain line once per second elsewhere, nothing for a run under a second', () => {
    const out = capture(false)
    const progress = createProgressReporter(out, 's.yaml')
    progress.report(at(0, 0))
    progress.report(at(1, 900))
    expect(out.text).toBe('')
    progress.report(at(2, 1000))
    progress.report(at(3, 1999))
    progress.report(at(3, 2500, 'x'))
    progress.report(at(4, 2600))
    progress.done()
    expect(out.text).toBe('s.yaml: step 2/4, 4 blocks, 1.0 s\ns.yaml: step 3/4, 6 blocks, 2.5 s (x)\n')
  })
})
