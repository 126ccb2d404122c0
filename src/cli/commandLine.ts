/**
 * The `l1sim` command line: one flag table for every command, each command's own flags, and the
 * network options the flags give. Flags shape only what they name, so a scenario's own settings
 * stay unless a flag overrides them.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { DEFAULT_HOST, DEFAULT_PORT, type HttpAccessOptions } from '../api/server.js'
import { BaseError } from '../core/errors.js'
import type { MiningMode } from '../evm/chain.js'
import type { DevnetOptions } from '../devnet.js'
import type { L1Options } from '../network/l1.js'
import { formatLogLevel, parseLogLevel, type LogLevelName } from '../network/logging.js'
import type { NodeOptions } from '../network/node.js'
import { NETWORK_PRESETS, type NetworkPresetName } from '../network/presets.js'
import { parseRelayerMode } from '../network/relayer.js'

/** The server `snapshot save` asks when given no `--url`: node 0 at the default address. */
export const DEFAULT_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`

/** A bad command line: reported with the usage hint and exit code 2. */
export class UsageError extends BaseError {
  override name = 'UsageError'
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  network: { type: 'string' },
  nodes: { type: 'string' },
  mnemonic: { type: 'string' },
  accounts: { type: 'string' },
  balance: { type: 'string' },
  'block-time': { type: 'string' },
  'data-api-port': { type: 'string' },
  'signature-aggregator-port': { type: 'string' },
  relayer: { type: 'string' },
  'relayer-port': { type: 'string' },
  l1: { type: 'string', multiple: true },
  icm: { type: 'boolean' },
  'api-admin-enabled': { type: 'string' },
  'data-dir': { type: 'string' },
  'profile-dir': { type: 'string' },
  'plugin-dir': { type: 'string' },
  'log-level': { type: 'string' },
  'log-display-level': { type: 'string' },
  'health-check-frequency': { type: 'string' },
  'http-allowed-hosts': { type: 'string' },
  'http-allowed-origins': { type: 'string' },
  'api-sim-enabled': { type: 'string' },
  'snapshot-dir': { type: 'string' },
  scenario: { type: 'string' },
  'no-scenario': { type: 'boolean' },
  snapshot: { type: 'string' },
  'save-on-exit': { type: 'string' },
  url: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

type Flag = keyof typeof OPTIONS

/** The flags that start a server: `start` and `snapshot load`. */
const SERVER_FLAGS: readonly Flag[] = [
  'port', 'host', 'network', 'nodes', 'mnemonic', 'accounts', 'balance', 'block-time', 'data-api-port', 'signature-aggregator-port', 'relayer', 'relayer-port', 'l1', 'icm',
  'api-admin-enabled', 'data-dir', 'profile-dir', 'plugin-dir', 'log-level', 'log-display-level', 'health-check-frequency',
  'save-on-exit', 'http-allowed-hosts', 'http-allowed-origins', 'api-sim-enabled', 'snapshot-dir',
]

/** What a snapshot file fixes: these flags cannot change a network loaded from one. */
const SNAPSHOT_FIXES = ['network', 'nodes', 'mnemonic', 'accounts', 'balance', 'block-time', 'l1', 'icm'] as const satisfies readonly Flag[]

/** Each command, its positional arguments and the flags it takes. */
const COMMANDS = {
  start: { args: [], flags: [...SERVER_FLAGS, 'scenario', 'no-scenario', 'snapshot'] },
  run: { args: ['scenario file'], flags: [] },
  'snapshot save': { args: ['file'], flags: ['url'] },
  'snapshot load': { args: ['file'], flags: SERVER_FLAGS },
  'snapshot inspect': { args: ['file'], flags: [] },
} as const satisfies Record<string, { args: readonly string[]; flags: readonly Flag[] }>

export type CommandName = keyof typeof COMMANDS

export type CommandLine =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'command'
      command: CommandName
      /** The positional arguments after the command's name. */
      args: string[]
      /** What the network flags given say, and only that (plus the CLI's realtime clock). */
      options: DevnetOptions
      /** `--scenario`, `--snapshot`, `--no-scenario`, `--save-on-exit`, `--url` as given. */
      scenario?: string
      noScenario: boolean
      snapshot?: string
      saveOnExit?: string
      url?: string
      /** The files each `--l1` was read from, by L1 name (genesis, then upgrade), to name them in errors. */
      l1Files: Record<string, string[]>
    }

export function parseCommandLine(argv: string[]): CommandLine {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true; tokens: true }>>
  try {
    // A bare Go bool flag means true.
    const args = argv.map((arg) => (arg === '--api-admin-enabled' || arg === '--api-sim-enabled' ? `${arg}=true` : arg))
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values, positionals, tokens } = parsed
  if (values.help === true) return { kind: 'help' }
  if (values.version === true) return { kind: 'version' }

  const [first, second] = positionals
  if (first === undefined) throw new UsageError('missing command')
  let command: CommandName
  if (first === 'snapshot') {
    if (second === undefined) throw new UsageError('missing snapshot command: save, load or inspect')
    command = `snapshot ${second}` as CommandName
    if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`unknown snapshot command "${second}" (save, load or inspect)`)
  } else {
    if (!Object.hasOwn(COMMANDS, first)) throw new UsageError(`unknown command "${first}"`)
    command = first as CommandName
  }
  const spec = COMMANDS[command]
  const args = positionals.slice(command.split(' ').length)
  if (args.length < spec.args.length) throw new UsageError(`${command}: missing ${spec.args[args.length]}`)
  if (args.length > spec.args.length) throw new UsageError(`unexpected argument "${args[spec.args.length]}"`)
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === 'help' || token.name === 'version') continue
    if (!(spec.flags as readonly string[]).includes(token.name)) throw new UsageError(`${token.rawName.split('=')[0]} is not an option of "${command}"`)
  }

  if (values.scenario !== undefined && values.snapshot !== undefined)
    throw new UsageError('give --scenario or --snapshot, not both: a snapshot already holds the state its scenario left')
  if (values.snapshot !== undefined || command === 'snapshot load')
    for (const flag of SNAPSHOT_FIXES)
      if (values[flag] !== undefined) throw new UsageError(`--${flag} does not apply to a snapshot: the file fixes the network it continues`)
  if (values['no-scenario'] === true && (values.scenario !== undefined || values.snapshot !== undefined))
    throw new UsageError('--no-scenario starts from genesis: not with --scenario or --snapshot')
  for (const flag of ['scenario', 'snapshot', 'save-on-exit', 'url'] as const)
    if (values[flag] === '') throw new UsageError(`--${flag} must not be empty`)

  return {
    kind: 'command',
    command,
    args,
    options: networkOptions(values),
    noScenario: values['no-scenario'] === true,
    ...(values.scenario === undefined ? {} : { scenario: values.scenario }),
    ...(values.snapshot === undefined ? {} : { snapshot: values.snapshot }),
    ...(values['save-on-exit'] === undefined ? {} : { saveOnExit: values['save-on-exit'] }),
    ...(values.url === undefined ? {} : { url: values.url }),
    l1Files: Object.fromEntries((values.l1 ?? []).map(l1Flag).map(({ name, files }) => [name, files.filter((file) => file !== undefined)])),
  }
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values']

function networkOptions(values: Values): DevnetOptions {
  const node: NodeOptions = {
    ...(values['api-admin-enabled'] !== undefined ? { apiAdminEnabled: goBool('--api-admin-enabled', values['api-admin-enabled']) } : {}),
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
    ...(values['profile-dir'] !== undefined ? { profileDir: values['profile-dir'] } : {}),
    ...(values['plugin-dir'] !== undefined ? { pluginDir: values['plugin-dir'] } : {}),
    ...(values['log-level'] !== undefined ? { logLevel: logLevel('--log-level', values['log-level']) } : {}),
    ...(values['log-display-level'] !== undefined ? { logDisplayLevel: logLevel('--log-display-level', values['log-display-level']) } : {}),
    ...(values['health-check-frequency'] !== undefined ? { healthCheckFrequency: goDurationSeconds('--health-check-frequency', values['health-check-frequency']) } : {}),
    display: process.stderr,
  }
  const options: DevnetOptions = {
    host: values.host ?? DEFAULT_HOST,
    port: values.port === undefined ? DEFAULT_PORT : integer('--port', values.port, 0, 65535),
    // Block timestamps follow the wall clock in the CLI, as anvil's do.
    clock: { mode: 'realtime' },
    node,
    ...(values.network !== undefined ? { preset: presetName(values.network) } : {}),
    ...(values.nodes !== undefined ? { nodes: integer('--nodes', values.nodes, 1, 100) } : {}),
    ...(values.mnemonic !== undefined ? { mnemonic: values.mnemonic } : {}),
    ...(values.accounts !== undefined ? { accounts: integer('--accounts', values.accounts, 0, 10_000) } : {}),
    ...(values.balance !== undefined ? { balance: tokens('--balance', values.balance) } : {}),
    ...(values['block-time'] !== undefined ? { mining: blockTime(values['block-time']) } : {}),
    ...(values.l1 !== undefined ? { l1s: values.l1.map(l1Option) } : {}),
    ...(values.icm === true ? { icm: true } : {}),
    ...(values['data-api-port'] !== undefined ? { dataApi: { port: integer('--data-api-port', values['data-api-port'], 0, 65535) } } : {}),
    ...(values['signature-aggregator-port'] !== undefined ? { signatureAggregatorPort: integer('--signature-aggregator-port', values['signature-aggregator-port'], 0, 65535) } : {}),
    ...(values.relayer !== undefined ? { relayer: { mode: relayerMode(values.relayer) } } : {}),
    ...(values['relayer-port'] !== undefined ? { relayerPort: integer('--relayer-port', values['relayer-port'], 0, 65535) } : {}),
    ...httpAccess(values),
  }
  if (options.host === '') throw new UsageError('--host must not be empty')
  return options
}

/** What the servers expose: avalanchego's `--http-allowed-hosts` / `--http-allowed-origins` (comma- or space-separated lists), `--api-sim-enabled`, `--snapshot-dir`. */
function httpAccess(values: Values): HttpAccessOptions {
  const list = (flag: string, text: string) => {
    const items = text.split(/[\s,]+/).filter((item) => item !== '')
    if (items.length === 0) throw new UsageError(`${flag} must list at least one name`)
    return items
  }
  if (values['snapshot-dir'] === '') throw new UsageError('--snapshot-dir must not be empty')
  return {
    ...(values['http-allowed-hosts'] !== undefined ? { allowedHosts: list('--http-allowed-hosts', values['http-allowed-hosts']) } : {}),
    ...(values['http-allowed-origins'] !== undefined ? { allowedOrigins: list('--http-allowed-origins', values['http-allowed-origins']) } : {}),
    ...(values['api-sim-enabled'] !== undefined ? { apiSimEnabled: goBool('--api-sim-enabled', values['api-sim-enabled']) } : {}),
    ...(values['snapshot-dir'] !== undefined ? { snapshotDir: values['snapshot-dir'] } : {}),
  }
}

/** Go's `strconv.ParseBool`, as a bool flag's `=value` is read. */
function goBool(flag: string, text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false
  throw new UsageError(`${flag} must be true or false, got "${text}"`)
}

function logLevel(flag: string, text: string): LogLevelName {
  try {
    return formatLogLevel(parseLogLevel(text)) as LogLevelName
  } catch {
    throw new UsageError(`${flag} must be one of OFF, FATAL, ERROR, WARN, INFO, TRACE, DEBUG, VERBO, got "${text}"`)
  }
}

/** A Go duration (`30s`, `1m30s`, `500ms`) in seconds; must be positive, as avalanchego requires. */
function goDurationSeconds(flag: string, text: string): number {
  const units: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text)
    throw new UsageError(`${flag} must be a duration such as 30s, 1m or 500ms, got "${text}"`)
  const seconds = parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]!]!, 0)
  if (!(seconds > 0)) throw new UsageError('health-check-frequency must be positive')
  return seconds
}

/** `--l1 name=genesis.json[,upgrade.json]`: the L1's name and its files. */
function l1Flag(text: string): { name: string; files: [genesis: string, upgrade?: string] } {
  const match = /^([^=]+)=([^,]+)(?:,(.+))?$/.exec(text)
  if (!match) throw new UsageError(`--l1 must be <name>=<genesis file>[,<upgrade file>], got "${text}"`)
  return { name: match[1]!, files: match[3] ? [match[2]!, match[3]] : [match[2]!] }
}

/** An `--l1`'s options: the files are read now, so a typo fails before the start. */
function l1Option(text: string): L1Options {
  const { name, files: [genesis, upgrade] } = l1Flag(text)
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8')
    } catch (error) {
      throw new UsageError(`--l1 ${name}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
    }
  }
  return { name, genesis: read(genesis), ...(upgrade === undefined ? {} : { upgrade: read(upgrade) }) }
}

function integer(flag: string, text: string, min: number, max: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`)
  return n
}

function presetName(text: string): NetworkPresetName {
  if (!Object.hasOwn(NETWORK_PRESETS, text)) throw new UsageError(`--network must be local, fuji or mainnet, got "${text}"`)
  return text as NetworkPresetName
}

/** Decimal AVAX (up to 18 decimals) to wei. */
function tokens(flag: string, text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text)
  if (!match) throw new UsageError(`${flag} must be an amount of AVAX such as 10000 or 0.5, got "${text}"`)
  return BigInt(match[1]!) * 10n ** 18n + BigInt((match[2] ?? '').padEnd(18, '0'))
}

/** `--relayer auto|manual|delay=<N>s|delay=<N>blocks`, checked as the relayer reads it. */
function relayerMode(text: string): string {
  try {
    parseRelayerMode(text)
  } catch {
    throw new UsageError(`--relayer must be auto, manual, delay=<N>s or delay=<N>blocks, got "${text}"`)
  }
  return text
}

function blockTime(text: string): MiningMode {
  const interval = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(interval) || interval < 1)
    throw new UsageError(`--block-time must be a whole number of seconds, 1 or more, got "${text}"`)
  return { mode: 'interval', interval }
}
