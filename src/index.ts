/**
 * The library entry. `startDevnet()` is the one-call start for integration tests: a network and
 * its HTTP server on a port (0 for a free one), optionally from a scenario file or a snapshot file;
 * `createNetwork()` gives the network alone, to drive in-process or to serve with `createServer()`;
 * `loadNetwork()` gives one back from a snapshot file.
 *
 * @example
 * const devnet = await startDevnet({ port: 0, scenario: 'scenarios/default.yaml' })
 * const client = createPublicClient({ transport: http(devnet.rpcUrl()) })
 * // …
 * await devnet.close()
 */
export { startDevnet, type Devnet, type DevnetNode, type DevnetOptions } from './devnet.js'
export { createDataApiServer } from './api/dataApiServer.js'
export { createNetwork, DEFAULT_DEV_BALANCE, Network, type NetworkOptions } from './network/network.js'
export { SimNode, type NodeOptions } from './network/node.js'
export type { Fault, FaultState } from './network/faults.js'
export { NETWORK_PRESETS, type NetworkPreset, type NetworkPresetName } from './network/presets.js'
export {
  createServer,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_ALLOWED_ORIGINS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SNAPSHOT_DIR,
  type HttpAccessOptions,
  type L1simServer,
  type ServerOptions,
} from './api/server.js'
export type { DataApiOptions, RateBudget, RateLimitOptions, RateTierName } from './api/routes/data/config.js'
export { DEFAULT_MNEMONIC, type DevAccount, type NodeIdentity } from './core/keys.js'
export type { ClockMode, ClockOptions } from './core/clock.js'
export type { EvmChain, MiningMode } from './evm/chain.js'
export type { Hex } from './core/hex.js'
export type { L1, L1Options } from './network/l1.js'
export { L1ConfigError } from './network/l1.js'
export { ValidatorRegistry, type ValidatorEntry } from './network/validators.js'
export { signWarpMessage, findWarpMessage, warpMessageId, type SignWarpOptions } from './network/warp.js'
export { signPChainWarpMessage, verifyPChainWarpRequest, pchainWarpMessage, PChainWarpRefusal, PCHAIN_WARP_ERROR_CODES } from './network/pchainWarp.js'
export { AggregationError, DEFAULT_QUORUM_PERCENTAGE, type AggregateSignaturesRequest, type SignatureAggregator, type WarpMessageSource } from './network/aggregator.js'
export { createRelayerServer, createSignatureAggregatorServer } from './api/aggregatorServer.js'
export { parseRelayerMode, type DeliveryStatus, type IcmDelivery, type IcmRelayer, type RelayerMode, type RelayerOptions } from './network/relayer.js'
export { TxWarpMessageError, warpRequestOfTx } from './network/txWarpMessages.js'
export { packPredicate, packPredicateHex, WARP_ADDRESS } from './evm/warp/predicate.js'
export { parseUnsignedMessage, parseMessage } from './evm/warp/codec.js'
export { ICM_MESSENGER_ABI, ICM_MESSENGER_BYTECODE, ICM_MESSENGER_DEPLOYED_BYTECODE } from './evm/icm/messenger.js'
export { ICM_MESSENGER_ADDRESS, ICM_MESSENGER_DEPLOYER } from './evm/icm/predeploy.js'
export type { EvmChainConfig } from './evm/unprotectedTxs.js'
export {
  createScenarioNetwork,
  networkOptionsOf,
  parseScenario,
  readScenario,
  runScenario,
  ScenarioStepError,
  ScenarioValidationError,
  type AssertionFailure,
  type RunOptions,
  type Scenario,
  type ScenarioIssue,
  type ScenarioRefs,
  type ScenarioRun,
  type StepProgress,
} from './scenario/index.js'
export { inspectSnapshot, loadNetwork, saveNetwork, SnapshotFileError, type LoadOverrides, type SnapshotInfo } from './snapshot/index.js'

export { createEIP1193Provider, ProviderRPCError, type EIP1193Provider } from './rpc/provider.js'
