import { EventEmitter } from 'node:events'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli, USAGE, type CliResult } from '../src/cli.js'
import { startDevnet } from '../src/index.js'

function capture() {
  return { text: '', write(chunk: string) { this.text += chunk } }
}

async function run(...argv: string[]) {
  const stdout = capture()
  const stderr = capture()
  const result = await runCli(argv, { stdout, stderr })
  return { ...result, stdout: stdout.text, stderr: stderr.text }
}

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
    const result = await run('start', '--port', '0', '--accounts', '2')
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
    const result = await run('start', '--port', '0', '--network', 'fuji', '--nodes', '1', '--accounts', '1', '--balance', '1.5', '--block-time', '2')
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
    const result = await run('start', '--port', '0', '--l1', `dex=${fixtures}genesis.json,${fixtures}upgrade.json`)
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
    const result = await run('start', '--port', '0', '--nodes', '2', '--api-admin-enabled', '--data-dir', dir, '--log-level', 'debug', '--log-display-level', 'warn', '--health-check-frequency', '1m30s')
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

  it('refuses bad node flags with usage errors', async () => {
    expect((await run('start', '--api-admin-enabled=maybe')).stderr).toContain('--api-admin-enabled must be true or false, got "maybe"')
    expect((await run('start', '--log-level', 'LOUD')).stderr).toContain('--log-level must be one of OFF, FATAL, ERROR, WARN, INFO, TRACE, DEBUG, VERBO, got "LOUD"')
    expect((await run('start', '--health-check-frequency', '30')).stderr).toContain('--health-check-frequency must be a duration such as 30s, 1m or 500ms, got "30"')
    expect((await run('start', '--health-check-frequency', '0s')).stderr).toContain('health-check-frequency must be positive')
  })

  it('closes cleanly on SIGINT or SIGTERM', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const signals = new EventEmitter()
      const result: CliResult = await runCli(['start', '--port', '0'], { stdout: capture(), stderr: capture(), signals })
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
      const result = await run('start', '--port', port)
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toBe(`l1sim: port ${port} on 127.0.0.1 is already in use\n`)
      expect(result.devnet).toBeUndefined()
    } finally {
      await taken.close()
    }
  })
})
