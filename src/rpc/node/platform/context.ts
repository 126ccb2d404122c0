import type { SharedMemory } from '../../../platform/atomic.js'
import type { PChain } from '../../../platform/pchain/chain.js'
import type { PChainSignedTx } from '../../../platform/txs.js'
import type { ValidatorEntry } from '../../../network/validators.js'

/** What the answering node sees of a primary-network validator. */
export type ValidatorView = {
  /** Uptime since the validator's start time, as a fraction in [0, 1] (`CalculateUptimePercentFrom`). */
  uptime: number
  /** Whether the node is connected to it (`Network.Peers().Has`, `uptimeManager.IsConnected`). */
  connected: boolean
}

/**
 * The context slice of the `platform` service (`/ext/bc/P`, aliases `/ext/P`, `/ext/bc/platform`)
 * on one node. Only `pchain` and `uptime` are required; each optional member has the default
 * given in its comment.
 */
export interface PlatformContext {
  /** The P-chain whose last accepted state every method reads (network id and AVAX id come from its config). */
  pchain: PChain
  /**
   * The answering node's view of a primary-network validator that started at `startTime` (unix
   * seconds): uptime fraction and connection. Called once per primary validator listed by
   * `getCurrentValidators`, and for `connected` of pending validators.
   */
  uptime(nodeId: string, startTime: number): ValidatorView
  /**
   * The node's chain aliaser (`BCLookup.Lookup`): an alias (`P`, `X`, `C`, …) or a chain id → the
   * chain id (cb58); undefined when unknown. Used for address prefixes and `getUTXOs` `sourceChain`.
   * Default: `P`, `platform` and the P-chain's own id resolve to the P-chain; nothing else does.
   */
  lookupChain?(alias: string): string | undefined
  /** The node clock (unix seconds) that `getBalance` compares locktimes with. Default: the chain time. */
  now?(): number
  /**
   * Shared memory, for `getUTXOs` with a `sourceChain` other than the P-chain (UTXOs exported to
   * the P-chain and not yet imported). Default: none, so such a call returns no UTXOs.
   */
  sharedMemory?: Pick<SharedMemory, 'indexed'>
  /** The mempool's drop reason of a tx (`Builder.GetDropReason`). Default: the P-chain mempool's. */
  dropReason?(txId: string): string | undefined
  /**
   * Issues a signed tx (`platform.issueTx`): its id, or a `PChainTxError` with the mempool's text.
   * Default: `pchain.mempool.issue`. The network's also waits for a chain the tx creates to start.
   */
  issue?(signed: PChainSignedTx): Promise<string> | string
  /**
   * The validator set of a subnet at a past P-chain height (≤ the current height), for
   * `getValidatorsAt`. Default: the current set (`pchain.validatorSets()`) whatever the height,
   * since the state keeps no per-height history.
   */
  validatorSetAt?(subnetId: string, height: number): readonly ValidatorEntry[]
  /** The proposervm's minimum P-chain height, for `getValidatorsAt` with `"proposed"`. Default: the current height. */
  proposedHeight?(): number
}
