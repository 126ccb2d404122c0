import { join } from 'node:path'
import type { LogLevelName } from './logging.js'

/**
 * The node settings the admin API reports (`admin.getConfig`) and the node's pieces are built
 * from. Field names are camel-cased avalanchego flags (`--api-admin-enabled` → `apiAdminEnabled`);
 * {@link nodeConfigJson} writes them under avalanchego's `node.Config` JSON keys.
 */
export type NodeConfig = {
  /** `--api-admin-enabled` (default false: `/ext/admin` is not routed). */
  apiAdminEnabled: boolean
  /** `--data-dir`: logs, profiles, plugins and `stacktrace.txt` live under it. */
  dataDir: string
  /** `--profile-dir` (default `<dataDir>/profiles`). */
  profileDir: string
  /** `--plugin-dir` (default `<dataDir>/plugins`). */
  pluginDir: string
  /** `--log-level` (default INFO). */
  logLevel: LogLevelName
  /** `--log-display-level` (default: the log level). */
  logDisplayLevel: LogLevelName
  /** `--health-check-frequency`, in milliseconds (default 30000). */
  healthCheckFrequency: number
  /** `--http-host` (default `127.0.0.1`): the host the node's server was given, once serving. */
  httpHost: string
  /** `--http-port` (default 9650): the port the node's server is bound to, once serving. */
  httpPort: number
  /** `--network-id`. */
  networkId: number
}

/** avalanchego's defaults, with every directory under `dataDir`. */
export function defaultNodeConfig(dataDir: string, overrides: Partial<NodeConfig> = {}): NodeConfig {
  const logLevel = overrides.logLevel ?? 'INFO'
  return {
    apiAdminEnabled: false,
    dataDir,
    profileDir: join(dataDir, 'profiles'),
    pluginDir: join(dataDir, 'plugins'),
    logDisplayLevel: logLevel,
    healthCheckFrequency: 30_000,
    httpHost: '127.0.0.1',
    httpPort: 9650,
    networkId: 12345,
    ...overrides,
    logLevel,
  }
}

/**
 * `admin.getConfig`'s reply: the part of avalanchego's `node.Config` the emulator has, under the
 * same JSON keys and in the same order (durations as integer nanoseconds, as Go writes them).
 */
export function nodeConfigJson(config: NodeConfig) {
  return {
    httpConfig: {
      apiConfig: { adminAPIEnabled: config.apiAdminEnabled },
      httpHost: config.httpHost,
      httpPort: config.httpPort,
    },
    networkID: config.networkId,
    healthCheckFreq: Math.round(config.healthCheckFrequency * 1e6),
    profilerConfig: { dir: config.profileDir },
    loggingConfig: {
      directory: join(config.dataDir, 'logs'),
      logLevel: config.logLevel,
      displayLevel: config.logDisplayLevel,
    },
    pluginDir: config.pluginDir,
    chainDataDir: join(config.dataDir, 'chainData'),
  }
}
