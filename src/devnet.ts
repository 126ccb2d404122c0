/**
 * `startDevnet`: a network (from genesis, a scenario or a snapshot file) served by every node's
 * HTTP server. The `l1sim` command's start, kept apart from the library entry (`index.ts`, which
 * re-exports it) so that the bundled CLI loads only what a start needs before it answers: the
 * scenario runner, the snapshot format and the side servers (the data API's, the signature
 * aggregator's and the relayer's own ports) are imported by the starts that use them.
 */
import type { FastifyInstance } from 'fastify'
import { closeServer, createServer, DEFAULT_HOST, DEFAULT_PORT, listenServer, type HttpAccessOptions, type L1simServer } from './api/server.js'
import { InvalidArgumentError } from './core/errors.js'
import { createNetwork, type Network, type NetworkOptions } from './network/network.js'
import type { Scenario, ScenarioRun, StepProgress } from './scenario/index.js'
import type { LoadOverrides } from './snapshot/index.js'

/**
 * The network's options, what every node's server exposes ({@link HttpAccessOptions}: allowed
 * hosts, which the data API's own port checks too, allowed origins, `/ext/sim`, the snapshot
 * directory), and where to serve and start from.
 */
export type DevnetOptions = NetworkOptions & HttpAccessOptions & {
  /** Default `127.0.0.1`. */
  host?: string
  /** Node 0's port, default 9650; node i listens on port + 2i (9652, 9654, …), as avalanchego nodes side by side. 0 gives every node a free port (what tests should use). */
  port?: number
  /**
   * A scenario to start from: a scenario file's path or a parsed {@link Scenario}. Its network
   * options apply, overridden by the ones given here (`node` and `dataApi` field by field); its
   * steps run on its own clock before the servers start (a `clock.mode` given here applies after
   * them), and the state they leave is what `network.reset()` (and `anvil_reset`, `sim.reset`)
   * return to. The run's result (assertions passed and failed) is `devnet.scenario`; a failed
   * assertion does not stop the start, a step that cannot run does (`ScenarioStepError`).
   */
  scenario?: string | Scenario
  /**
   * A snapshot file (`network.save(path)`, `sim.saveSnapshot`, `l1sim start --save-on-exit`) to
   * continue from: the network is the saved one, so the options that shape a network (preset,
   * nodes, accounts, seed, L1s, mining) come from the file; `clock`, `node` and `dataApi` here
   * still apply. Not together with `scenario`: the snapshot already holds the state its scenario
   * left.
   */
  snapshot?: string
  /** Called as the scenario's steps run (steps done, blocks, elapsed time): the CLI's progress line. */
  onScenarioProgress?: (progress: StepProgress) => void
  /**
   * Also serve the signature aggregator's `POST /aggregate-signatures` on this port, as the real
   * icm-services service runs beside the nodes (8080 is its default; 0 picks a free port). Every
   * node's server answers the same path anyway.
   */
  signatureAggregatorPort?: number
  /**
   * Also serve the built-in ICM relayer's API (icm-relayer's `/relay`, `/relay/message`, `/health`)
   * at the root of this port, as the real relayer's `api-port` (8080 by default; 0 picks a free
   * port). Every node's server answers it under `/icm-relayer` anyway.
   */
  relayerPort?: number
}

/** One simulated node's server. */
export type DevnetNode = {
  index: number
  nodeId: string
  /** `http://HOST:PORT` of this node. */
  url: string
  server: L1simServer
}

export type Devnet = {
  /** Node 0's `http://HOST:PORT`, with the port actually bound. */
  url: string
  /** `http://HOST:PORT/ext/bc/<chain>/rpc` on node 0; `chain` is an alias or blockchain id, `C` by default. */
  rpcUrl(chain?: string): string
  /** `ws://HOST:PORT/ext/bc/<chain>/ws` on node 0. */
  wsUrl(chain?: string): string
  /** Every node's server: each serves every chain, with its own NodeID, aliases, admin state and health. */
  nodes: DevnetNode[]
  network: Network
  /** Node 0's server. */
  server: L1simServer
  /** `http://HOST:PORT` of the data API's own server (only /v1), when `dataApi.port` was given. */
  dataApiUrl?: string
  /** `http://HOST:PORT` of the signature aggregator's own server, when `signatureAggregatorPort` was given. */
  signatureAggregatorUrl?: string
  /** `http://HOST:PORT` of the ICM relayer API's own server, when `relayerPort` was given. */
  relayerUrl?: string
  /** The scenario's run (assertions passed and failed, named snapshots), when started from one. */
  scenario?: ScenarioRun
  /** Closes client sockets, every server and the network's timers; safe to call twice. */
  close(): Promise<void>
}

/**
 * Creates a network (from genesis, a scenario or a snapshot file) and serves every node over HTTP
 * and WebSocket; resolves once every port is bound.
 */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const { host = DEFAULT_HOST, port = DEFAULT_PORT, scenario, snapshot, onScenarioProgress, allowedHosts, allowedOrigins, apiSimEnabled, snapshotDir, signatureAggregatorPort, relayerPort, ...networkOptions } = options
  const access: HttpAccessOptions = { allowedHosts, allowedOrigins, apiSimEnabled, snapshotDir }
  if (scenario !== undefined && snapshot !== undefined)
    throw new InvalidArgumentError('give a scenario or a snapshot, not both: a snapshot already holds the state its scenario left')
  let network: Network
  let run: ScenarioRun | undefined
  // The snapshot and scenario code loads only for a start that uses it (see the module's comment).
  if (snapshot !== undefined) {
    const { loadNetwork } = await import('./snapshot/index.js')
    network = await loadNetwork(snapshot, runtimeSettings(networkOptions))
  } else if (scenario !== undefined) {
    // The YAML parser and the schema load only for a file (a parsed scenario, as the CLI's
    // preparsed default one, needs only the runner).
    const parsed = typeof scenario === 'string' ? await (await import('./scenario/parse.js')).readScenario(scenario) : scenario
    const [{ networkOptionsOf }, { runScenario }] = await Promise.all([import('./scenario/options.js'), import('./scenario/run.js')])
    ;({ network, run } = await startScenario({ networkOptionsOf, runScenario }, parsed, networkOptions, onScenarioProgress))
  } else {
    network = await createNetwork(networkOptions)
  }
  return serveNetwork(network, { host, port, access, signatureAggregatorPort, relayerPort, ...(run === undefined ? {} : { scenario: run }) })
}

/**
 * A scenario's network, its steps run, and that state marked as the one `reset()` returns to (what
 * `createScenarioNetwork` does, with progress reports). The options given override the scenario's
 * (`node` and `dataApi` field by field); the steps run on the scenario's own clock, since their
 * times count from its start, and a `clock.mode` given applies from the end of the steps (the CLI
 * serves a scenario's network in realtime from where its timeline ended).
 */
async function startScenario(
  { networkOptionsOf, runScenario }: Pick<typeof import('./scenario/index.js'), 'networkOptionsOf' | 'runScenario'>,
  scenario: Scenario,
  overrides: NetworkOptions,
  onProgress: ((progress: StepProgress) => void) | undefined,
): Promise<{ network: Network; run: ScenarioRun }> {
  const { clock, node, dataApi, ...rest } = overrides
  const own = networkOptionsOf(scenario, rest.preset)
  const network = await createNetwork({
    ...own,
    ...rest,
    ...(node === undefined ? {} : { node: { ...own.node, ...node } }),
    ...(dataApi === undefined ? {} : { dataApi: { ...own.dataApi, ...dataApi } }),
  })
  try {
    const run = await runScenario(network, scenario, onProgress === undefined ? {} : { onProgress })
    if (clock?.mode !== undefined && clock.mode !== network.clock.mode) network.setClockMode(clock.mode)
    await network.markInitial()
    return { network, run }
  } catch (error) {
    await network.close()
    throw error
  }
}

/** The options a loaded snapshot still takes: how it runs, not what it is. */
function runtimeSettings(options: NetworkOptions): LoadOverrides {
  const { clock, node, dataApi, relayer } = options
  return { ...(clock === undefined ? {} : { clock }), ...(node === undefined ? {} : { node }), ...(dataApi === undefined ? {} : { dataApi }), ...(relayer === undefined ? {} : { relayer }) }
}

/** A node's server through {@link closeServer} (which leaves unbuilt routes unbuilt), a side service's as fastify closes it. */
function closeAny(server: FastifyInstance): Promise<void> {
  return 'lazyRoutes' in server ? closeServer(server as L1simServer) : server.close()
}

/** Serves every node of `network`; on a failure to bind, closes what was opened and the network. */
async function serveNetwork(network: Network, options: { host: string; port: number; access: HttpAccessOptions; signatureAggregatorPort?: number | undefined; relayerPort?: number | undefined; scenario?: ScenarioRun }): Promise<Devnet> {
  const { host, port, access } = options
  const servers = network.nodes.map((node) => createServer({ ...access, network, node, host, port: port === 0 ? 0 : port + 2 * node.index, lazyRoutes: true }))
  // Every server to close: the nodes' and, when asked for, the data API's own.
  const toClose: FastifyInstance[] = [...servers]
  const nodes: DevnetNode[] = []
  let dataApiUrl: string | undefined
  let signatureAggregatorUrl: string | undefined
  let relayerUrl: string | undefined
  // A side service's own server: closed with the rest, its URL with the port bound.
  const listenSide = async (app: FastifyInstance, sidePort: number, what: string): Promise<string> => {
    toClose.push(app)
    await app.listen({ host, port: sidePort })
    const address = app.server.address()
    if (address === null || typeof address === 'string') throw new Error(`unexpected ${what} address ${String(address)}`)
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
  }
  try {
    for (const [index, server] of servers.entries()) {
      const url = await listenServer(server)
      const node = network.nodes[index]!
      nodes.push({ index, nodeId: node.nodeId, url, server })
    }
    if (network.dataApi.port !== undefined) {
      const { createDataApiServer } = await import('./api/dataApiServer.js')
      const dataServer = createDataApiServer(network, { host, ...(access.allowedHosts === undefined ? {} : { allowedHosts: access.allowedHosts }) })
      toClose.push(dataServer)
      await dataServer.listen({ host, port: network.dataApi.port })
      const address = dataServer.server.address()
      if (address === null || typeof address === 'string') throw new Error(`unexpected data API server address ${String(address)}`)
      dataApiUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
    }
    if (options.signatureAggregatorPort !== undefined) {
      const { createSignatureAggregatorServer } = await import('./api/aggregatorServer.js')
      const aggregator = createSignatureAggregatorServer(network, { host, allowedHosts: access.allowedHosts, allowedOrigins: access.allowedOrigins })
      signatureAggregatorUrl = await listenSide(aggregator, options.signatureAggregatorPort, 'signature aggregator')
    }
    if (options.relayerPort !== undefined) {
      const { createRelayerServer } = await import('./api/aggregatorServer.js')
      const relayer = createRelayerServer(network, { host, allowedHosts: access.allowedHosts, allowedOrigins: access.allowedOrigins })
      relayerUrl = await listenSide(relayer, options.relayerPort, 'ICM relayer API')
    }
  } catch (error) {
    for (const server of toClose) await closeAny(server)
    await network.close()
    throw error
  }
  const url = nodes[0]!.url
  const wsBase = url.replace(/^http/, 'ws')
  let closing: Promise<void> | undefined
  return {
    url,
    rpcUrl: (chain = 'C') => `${url}/ext/bc/${chain}/rpc`,
    wsUrl: (chain = 'C') => `${wsBase}/ext/bc/${chain}/ws`,
    nodes,
    network,
    server: nodes[0]!.server,
    ...(dataApiUrl === undefined ? {} : { dataApiUrl }),
    ...(signatureAggregatorUrl === undefined ? {} : { signatureAggregatorUrl }),
    ...(relayerUrl === undefined ? {} : { relayerUrl }),
    ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
    close: () =>
      (closing ??= (async () => {
        for (const server of toClose) await closeAny(server)
        await network.close()
        // Closed handles are released in the loop's close phase; two turns, and none is left.
        for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve))
      })()),
  }
}
