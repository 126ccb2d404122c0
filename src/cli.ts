/**
 * `l1sim start | run | snapshot save|load|inspect | --help | --version`. {@link runCli} does the
 * work and returns instead of exiting, so tests run it in-process; {@link main} at the bottom only
 * wires it to the real process, for the bin. The commands' parts live in `src/cli/`.
 */
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DEFAULT_HOST, DEFAULT_PORT } from './api/server.js'
import { BaseError, InvalidArgumentError } from './core/errors.js'
import { startDevnet, type Devnet, type DevnetOptions } from './devnet.js'
import { L1ConfigError } from './network/l1.js'
import { ScenarioValidationError } from './scenario/errors.js'
import { readPreparsedScenario } from './scenario/preparsed.js'
import { rememberSecp256k1Results, type Secp256k1Results } from './evm/knownSignatures.js'
import { SnapshotFileError } from './snapshot/errors.js'
import { checkSnapshotTarget } from './snapshot/format.js'
import { banner } from './cli/banner.js'
import { DEFAULT_URL, parseCommandLine, type CommandLine } from './cli/commandLine.js'
import { createProgressReporter, type ProgressOutput } from './cli/progress.js'

type Output = { write(text: string): unknown }

/** Where signals come from: the process in the bin, an EventEmitter in tests. */
type SignalSource = {
  once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
}

export type CliIO = {
  stdout?: Output
  /** Errors, and a scenario's progress (one redrawn line when `isTTY`, plain lines otherwise). */
  stderr?: ProgressOutput
  /** SIGINT and SIGTERM from here close the devnet; none by default. */
  signals?: SignalSource
  /** The scenario `start` runs when given neither --scenario, --snapshot nor --no-scenario; default: the package's `scenarios/default.yaml`, when it exists. */
  defaultScenario?: string
}

export type CliResult = {
  /** 0 for success, 1 for a failure (to start, an assertion, a server's refusal), 2 for a usage error or an invalid scenario file. */
  exitCode: number
  /** The running devnet of `start`; the caller (or a signal) closes it. */
  devnet?: Devnet
  /** Resolves once the devnet of `start` is closed, by a signal or by `devnet.close()`, with the exit code (1 when `--save-on-exit` failed). */
  closed?: Promise<number>
}

/** The package's default scenario: `../scenarios/default.yaml` from `src/` (tests) and from `dist/` (the bin and its bundle) alike. */
export const DEFAULT_SCENARIO = fileURLToPath(new URL('../scenarios/default.yaml', import.meta.url))

/**
 * The default scenario as `npm run build` parsed it (`scripts/bundle-cli.mjs`, `src/scenario/preparsed.ts`),
 * beside the CLI in `dist/`: a start that runs it unchanged decodes it instead of parsing it again.
 */
const PREPARSED_DEFAULT_SCENARIO = fileURLToPath(new URL('./scenario/default.preparsed.json', import.meta.url))

/**
 * What the default scenario signs and recovers, as libsecp256k1 computed it at build time
 * (`scripts/bundle-cli.mjs`, `src/evm/knownSignatures.ts`): a start running the preparsed default
 * scenario answers those without loading libsecp256k1 first.
 */
const DEFAULT_SCENARIO_SIGNATURES = fileURLToPath(new URL('./scenario/default.signatures.json', import.meta.url))

/** The build's {@link DEFAULT_SCENARIO_SIGNATURES}, or undefined when it is missing or unreadable (then everything is computed). */
function readDefaultScenarioSignatures(): Secp256k1Results | undefined {
  try {
    return JSON.parse(readFileSync(DEFAULT_SCENARIO_SIGNATURES, 'utf8')) as Secp256k1Results
  } catch {
    return undefined
  }
}

export const USAGE = `Usage: l1sim <command> [options]

Commands:
  start                    start a network and serve it over HTTP and WebSocket; without
                           --scenario, --snapshot or --no-scenario it runs the package's
                           scenarios/default.yaml first
  run <scenario file>      run a scenario to its end (no server) and print its assertions;
                           exit 1 if one fails, 2 if the file is invalid
  snapshot save <file>     ask a running server to save its network to <file>, under the
                           server's snapshot directory (--snapshot-dir)
      --url <url>          the server (default ${DEFAULT_URL})
  snapshot load <file>     start from a snapshot file (start --snapshot <file>)
  snapshot inspect <file>  print what a snapshot file holds, without loading it

Options for start:
  --scenario <file>     run this scenario before serving; reset (anvil_reset, sim.reset)
                        returns to the state it leaves; the flags below override its settings
  --no-scenario         start from genesis, without the default scenario
  --snapshot <file>     continue from a snapshot file (not with --scenario); the file fixes
                        the network, so --network, --nodes, --mnemonic, --accounts, --balance,
                        --block-time, --l1 and --icm do not apply
  --save-on-exit <file> save the network to <file> when the server stops (SIGINT, SIGTERM);
                        its directory must exist and be writable
  --port <port>         HTTP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host <host>         address to bind (default ${DEFAULT_HOST})
  --network <name>      local, fuji or mainnet ids and rules (default local)
  --nodes <n>           simulated nodes, 1 to 100 (default 5)
  --mnemonic <words>    BIP-39 mnemonic of the dev accounts (default: the Hardhat/anvil one)
  --accounts <n>        dev accounts to fund (default 20)
  --balance <tokens>    balance of each dev account in AVAX (default 10000)
  --block-time <secs>   mine a block every <secs> seconds (default: one block per transaction)
  --data-api-port <port>
                        also serve the /v1 data API alone on this port (0 picks a free one);
                        every node's port serves /v1 either way
  --signature-aggregator-port <port>
                        also serve the signature aggregator (POST /aggregate-signatures, as
                        icm-services' signature-aggregator) alone on this port; every node's
                        port serves it either way
  --relayer <mode>      the built-in ICM relayer: auto (deliver each Teleporter message once its
                        block is accepted; default), manual (only when asked: POST /relay…),
                        delay=<N>s (N seconds of network time later) or delay=<N>blocks
  --relayer-port <port> also serve the relayer's API (icm-relayer's POST /relay, POST
                        /relay/message, GET /health) at the root of this port; every node's
                        port serves it under /icm-relayer either way
  --l1 <name>=<file>[,<upgrade file>]
                        add an L1 whose subnet-EVM chain has this genesis (and upgrade.json);
                        repeatable; served at /ext/bc/<name>/rpc
  --icm                 predeploy the Interchain Messaging messenger (TeleporterMessenger v1's
                        ABI) at 0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf on the C-chain and
                        every L1, as its keyless deployment leaves it

Node options (every simulated node; node i listens on port + 2i):
  --api-admin-enabled[=true|false]   serve /ext/admin (default false)
  --data-dir <dir>                   node i keeps logs, profiles, plugins in <dir>/node-<i> (default .l1sim)
  --profile-dir <dir>                admin profiles go to <dir>/node-<i> (default <node data dir>/profiles)
  --plugin-dir <dir>                 where admin.loadVMs looks for VM plugins (default <node data dir>/plugins)
  --log-level <level>                OFF FATAL ERROR WARN INFO TRACE DEBUG VERBO: what is written (default INFO)
  --log-display-level <level>        what is shown on stderr (default: the log level)
  --health-check-frequency <dur>     e.g. 30s, 1m, 500ms of network time (default 30s)

Access (every node's server):
  --http-allowed-hosts <names>       Host names requests may carry, comma-separated; * for any
                                     (default localhost; the --host name, IP addresses and no
                                     Host are always allowed; others get 403)
  --http-allowed-origins <origins>   origins browsers may call from (CORS and WebSocket), e.g.
                                     "https://app.example https://*.example" (default *)
  --api-sim-enabled[=true|false]     serve /ext/sim, the network control (default true)
  --snapshot-dir <dir>               where sim.saveSnapshot (and snapshot save) may write
                                     (default ./snapshots)

  -h, --help            show this help
  -v, --version         print the version

Exit codes: 0 success, 1 failure (to start, a failed assertion, a server's refusal), 2 usage
error or invalid scenario file.
`

export async function runCli(argv: string[], io: CliIO = {}): Promise<CliResult> {
  const stdout = io.stdout ?? process.stdout
  const stderr = io.stderr ?? process.stderr
  let line: CommandLine
  try {
    line = parseCommandLine(argv)
  } catch (error) {
    return usageFailure(stderr, error)
  }
  if (line.kind === 'help') {
    stdout.write(USAGE)
    return { exitCode: 0 }
  }
  if (line.kind === 'version') {
    stdout.write(`${version()}\n`)
    return { exitCode: 0 }
  }
  switch (line.command) {
    // The commands other than `start` load their code when run: a start does not wait for it.
    case 'run': {
      const { runCommand } = await import('./cli/runCommand.js')
      return { exitCode: await runCommand(line.args[0]!, stdout, stderr) }
    }
    case 'snapshot save': {
      const { snapshotSave } = await import('./cli/snapshotCommands.js')
      return { exitCode: await snapshotSave(line.args[0]!, line.url ?? DEFAULT_URL, stdout, stderr) }
    }
    case 'snapshot inspect': {
      const { snapshotInspect } = await import('./cli/snapshotCommands.js')
      return { exitCode: await snapshotInspect(line.args[0]!, stdout, stderr) }
    }
    case 'snapshot load':
      return start({ ...line, snapshot: line.args[0]! }, io, stdout, stderr)
    case 'start':
      return start(line, io, stdout, stderr)
  }
}

async function start(line: Extract<CommandLine, { kind: 'command' }>, io: CliIO, stdout: Output, stderr: ProgressOutput): Promise<CliResult> {
  const defaultScenario = io.defaultScenario ?? DEFAULT_SCENARIO
  const scenario = line.scenario ?? (line.snapshot === undefined && !line.noScenario && existsSync(defaultScenario) ? defaultScenario : undefined)
  const progress = scenario === undefined ? undefined : createProgressReporter(stderr, scenario)
  // The default scenario, unchanged since the build, need not be parsed (same document, same artifacts).
  const preparsed = scenario !== undefined && line.scenario === undefined ? readPreparsedScenario(scenario, PREPARSED_DEFAULT_SCENARIO) : undefined
  const options: DevnetOptions = {
    ...line.options,
    ...(scenario === undefined ? {} : { scenario: preparsed ?? scenario }),
    ...(line.snapshot === undefined ? {} : { snapshot: line.snapshot }),
    ...(progress === undefined ? {} : { onScenarioProgress: (p) => progress.report(p) }),
  }
  if (line.saveOnExit !== undefined) {
    try {
      await checkSnapshotTarget(line.saveOnExit)
    } catch (error) {
      if (!(error instanceof SnapshotFileError)) throw error
      return usageFailure(stderr, `--save-on-exit: ${error.shortMessage}`)
    }
  }
  let devnet: Devnet
  const known = preparsed === undefined ? undefined : readDefaultScenarioSignatures()
  const forgetSignatures = known === undefined ? undefined : rememberSecp256k1Results(known)
  try {
    devnet = await startDevnet(options)
  } catch (error) {
    forgetSignatures?.()
    progress?.done()
    // Not a usage error: the command line was fine, the L1's files are not. Named by the files
    // they came from (--l1) or by the scenario that describes them.
    if (error instanceof L1ConfigError) {
      const files = line.l1Files[error.l1]
      const where = files !== undefined ? `L1 ${error.l1} (${files.join(', ')})` : scenario !== undefined ? `${scenario}: L1 ${error.l1}` : `L1 ${error.l1}`
      stderr.write(`l1sim: ${where}: ${error.reason}\n`)
      return { exitCode: 1 }
    }
    if (error instanceof InvalidArgumentError) return usageFailure(stderr, error)
    if (error instanceof ScenarioValidationError) {
      stderr.write(`${error.shortMessage}\n`)
      return { exitCode: 2 }
    }
    const unreadable = error as NodeJS.ErrnoException
    if (unreadable.path !== undefined && ['ENOENT', 'EACCES', 'EISDIR'].includes(unreadable.code ?? '')) {
      stderr.write(`l1sim: cannot read ${unreadable.path}: ${unreadable.code}\n`)
      return { exitCode: 2 }
    }
    // Node i listens on port + 2i: the error says which port was taken (node 0's or a later one's, or the data API's).
    const { code, port, address } = error as { code?: string; port?: number; address?: string }
    const message =
      code === 'EADDRINUSE'
        ? `port ${port ?? options.port} on ${address ?? options.host} is already in use`
        : error instanceof Error
          ? error.message
          : String(error)
    stderr.write(`l1sim: ${message}\n`)
    return { exitCode: 1 }
  }
  forgetSignatures?.()
  progress?.done()

  const closed = watchSignals(devnet, io.signals, line.saveOnExit, stdout, stderr)
  stdout.write(await banner(devnet, version(), { ...(scenario === undefined ? {} : { scenario }), ...(line.snapshot === undefined ? {} : { snapshot: line.snapshot }) }))
  for (const failure of devnet.scenario?.failures ?? []) stderr.write(`l1sim: assertion failed: ${failure.file}:${failure.line}:${failure.column}: ${failure.path}: ${failure.message}\n`)
  try {
    await answersChainId(devnet)
  } catch (error) {
    stderr.write(`l1sim: the server does not answer: ${(error as Error).message}\n`)
    await devnet.close()
    return { exitCode: 1 }
  }
  stdout.write(`l1sim ready at ${devnet.url}\n`)
  return { exitCode: 0, devnet, closed }
}

function usageFailure(stderr: Output, error: unknown): CliResult {
  const message = error instanceof BaseError ? error.shortMessage : String(error)
  stderr.write(`l1sim: ${message}\nRun "l1sim --help" for usage.\n`)
  return { exitCode: 2 }
}

function version(): string {
  // ../package.json from src/ (tests) and from dist/ (the installed bin) alike.
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version
}

/** One eth_chainId over the bound socket, so "ready" means a client would get an answer. */
function answersChainId(devnet: Devnet): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(devnet.rpcUrl(), { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume()
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))))
    })
    req.on('error', reject)
    req.end('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}')
  })
}

/**
 * The first SIGINT/SIGTERM closes the devnet; `closed` resolves however it was closed. With
 * `--save-on-exit`, the network is saved first (the servers stop answering only after).
 */
function watchSignals(devnet: Devnet, signals: SignalSource | undefined, saveOnExit: string | undefined, stdout: Output, stderr: Output): Promise<number> {
  const close = devnet.close
  let resolveClosed!: (code: number) => void
  const closed = new Promise<number>((resolve) => (resolveClosed = resolve))
  const onSignal = () => void devnet.close()
  let closing: Promise<void> | undefined
  devnet.close = () =>
    (closing ??= (async () => {
      signals?.off('SIGINT', onSignal)
      signals?.off('SIGTERM', onSignal)
      let code = 0
      if (saveOnExit !== undefined) {
        try {
          const saved = await devnet.network.save(saveOnExit)
          stdout.write(`l1sim: saved the network to ${saved.path} (${saved.bytes} bytes, sha256 ${saved.sha256})\n`)
        } catch (error) {
          stderr.write(`l1sim: cannot save the network to ${saveOnExit}: ${error instanceof BaseError ? error.shortMessage : (error as Error).message}\n`)
          code = 1
        }
      }
      await close()
      resolveClosed(code)
    })())
  signals?.once('SIGINT', onSignal)
  signals?.once('SIGTERM', onSignal)
  return closed
}

/**
 * The `l1sim` bin: runs this process's command line and sets its exit code. `dist/l1sim.mjs` (the
 * launcher, `scripts/launcher.mjs`) calls it from the bundle; `onServing` runs once `start` is
 * ready and serving (the launcher then saves its compile cache, see there).
 */
export async function main(onServing?: () => void): Promise<void> {
  const result = await runCli(process.argv.slice(2), { signals: process })
  process.exitCode = result.exitCode
  if (result.closed) {
    onServing?.()
    process.exitCode = await result.closed
  }
}
