import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { EVMResult } from '@ethereumjs/evm'
import type { AccessListBytes, TypedTransaction } from '@ethereumjs/tx'
import { Account, bytesToHex, createAddressFromString } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { InvalidArgumentError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { idToString } from '../core/ids.js'
import { EMPTY_PREDICATE_RESULTS } from './fees.js'
import type { FeeRules } from './feeRules.js'
import type { SignedMessage } from './warp/codec.js'
import { createWarpPrecompile } from './warp/precompile.js'
import { accessListGas, encodeBlockPredicateResults, verifyPredicates, WARP_ADDRESS, type AccessListEntry, type PredicateVerification } from './warp/predicate.js'
import { canonicalValidatorSet, verifyWarpMessage, warpSourceSubnet, type WarpValidatorInput, type WarpValidatorSet } from './warp/signature.js'
import type { StatefulPrecompile } from './precompiles/types.js'

/** What warp needs from the network: ids and the validator sets that sign. */
export type WarpEnvironment = {
  networkId: number
  blockchainId: Uint8Array
  subnetId: Uint8Array
  /** The subnet a chain belongs to (the primary network's empty id for C, X and P); undefined for an unknown chain. */
  subnetOf(chainId: Uint8Array): Uint8Array | undefined
  /** A subnet's validators now (the emulator has no P-chain heights yet). */
  validatorsOf(subnetId: Uint8Array): readonly WarpValidatorInput[]
  /** Their canonical set, when the network keeps it built (else built from {@link validatorsOf} per message). */
  canonicalSetOf?(subnetId: Uint8Array): WarpValidatorSet
}

/** The warp config in force at a block (`warp.Config`): 0 is the default quorum of 67. */
export type WarpConfigAt = { quorumNumerator: bigint; requirePrimaryNetworkSigners: boolean }

export type WarpRulesOptions = {
  env: WarpEnvironment
  /** The active warp config at a timestamp; undefined while warp is not active. */
  configAt(timestamp: bigint): WarpConfigAt | undefined
  isGranite(timestamp: bigint): boolean
}

/** The code an activated precompile's account gets (`ApplyPrecompileActivations`), so `eth_getCode` is non-empty. */
export const PRECOMPILE_CODE = Uint8Array.of(0x01)

/** `ApplyPrecompileActivations` for an enabling config: nonce 1 and code 0x01 (its config is the caller's). */
export async function activatePrecompileAccount(sm: MerkleStateManager, address: Hex): Promise<void> {
  const at = createAddressFromString(address)
  const account = (await sm.getAccount(at)) ?? new Account()
  account.nonce = 1n
  await sm.putAccount(at, account)
  await sm.putCode(at, PRECOMPILE_CODE)
}

/**
 * Warp on one chain, the same in subnet-EVM (an L1) and coreth (the C-chain): the precompile,
 * predicate verification and gas before each transaction, and the block's predicate results in
 * its header. The chain's own rules say when warp is active and with which config.
 */
export class WarpRules {
  readonly env: WarpEnvironment
  readonly precompile: StatefulPrecompile
  readonly #configAt: (timestamp: bigint) => WarpConfigAt | undefined
  readonly #isGranite: (timestamp: bigint) => boolean
  /** Predicates of the transaction in execution (everything runs under the chain lock). */
  #predicates: PredicateVerification | undefined
  /** Extra intrinsic gas of the transaction in execution: warp predicates cost more than access-list keys. */
  #pendingIntrinsic = 0n
  /** Predicate results of the block being built: tx hash → failed bits of its warp tuples (`predicate.BlockResults`). */
  #blockPredicateResults: Map<Hex, Uint8Array> | undefined

  constructor(options: WarpRulesOptions) {
    this.env = options.env
    this.#configAt = options.configAt
    this.#isGranite = options.isGranite
    this.precompile = createWarpPrecompile({
      networkId: options.env.networkId,
      blockchainId: options.env.blockchainId,
      getPredicate: (index) => this.#predicates?.getPredicate(index),
    })
  }

  /**
   * Verifies a signed warp message as the chain does for a predicate at `timestamp`
   * (`warp.Config.VerifyPredicate`): the source subnet's validators (or this chain's own for
   * primary-network messages, unless `requirePrimaryNetworkSigners`), the quorum of the active
   * config. Returns the error text, or undefined when it verifies.
   */
  verify(message: SignedMessage, timestamp: bigint): string | undefined {
    const config = this.#configAt(timestamp)
    if (!config) return 'warp is not active'
    const subnet = this.signingSubnet(message.unsigned.sourceChainId, timestamp)
    if (!subnet) return `cannot verify warp signature: failed to get subnetID for chain ${idToString(message.unsigned.sourceChainId)}`
    return verifyWarpMessage({
      message,
      networkId: this.env.networkId,
      validators: this.env.canonicalSetOf ? this.env.canonicalSetOf(subnet) : canonicalValidatorSet(this.env.validatorsOf(subnet)),
      quorumNumerator: config.quorumNumerator,
    })
  }

  /** The warp config in force at `timestamp` (undefined while warp is not active): a relayer reads its quorum. */
  configAt(timestamp: bigint): WarpConfigAt | undefined {
    return this.#configAt(timestamp)
  }

  /**
   * The subnet whose validators must sign a message from `sourceChainId` for this chain to take it
   * at `timestamp`: the source's subnet, or this chain's own for a primary-network source unless
   * `requirePrimaryNetworkSigners` (never for the P-chain). Undefined for an unknown source.
   */
  signingSubnet(sourceChainId: Uint8Array, timestamp: bigint): Uint8Array | undefined {
    const sourceSubnetId = this.env.subnetOf(sourceChainId)
    if (!sourceSubnetId) return undefined
    const config = this.#configAt(timestamp)
    return warpSourceSubnet({
      sourceChainId,
      sourceSubnetId,
      ownSubnetId: this.env.subnetId,
      requirePrimaryNetworkSigners: config?.requirePrimaryNetworkSigners ?? false,
    })
  }

  /**
   * Sets up the predicates of a transaction about to run with `accessList` in a block at
   * `timestamp`, and returns how much more intrinsic gas its warp tuples cost than plain
   * access-list keys (`AccessListGasWithPredicates`). Throws when a predicate does not parse.
   */
  beginTransaction(accessList: readonly AccessListEntry[], timestamp: bigint): bigint {
    this.#predicates = undefined
    // A transaction refused between 'beforeTx' and its call (runTx's own intrinsic or balance
    // checks) leaves its charge pending; a new message must not pay it (eth_call runs no beforeTx).
    this.#pendingIntrinsic = 0n
    if (!this.#configAt(timestamp) || !accessList.some(isWarpTuple)) return 0n
    const delta = this.intrinsicGasDelta(accessList, timestamp)
    this.#predicates = verifyPredicates(accessList, (message) => this.verify(message, timestamp))
    return delta
  }

  /** Extra intrinsic gas of a transaction's warp predicates at `timestamp`; throws when one does not parse. */
  intrinsicGasDelta(accessList: readonly AccessListEntry[], timestamp: bigint): bigint {
    if (!this.#configAt(timestamp) || !accessList.some(isWarpTuple)) return 0n
    const isGranite = this.#isGranite(timestamp)
    return accessListGas(accessList, { warpActive: true, isGranite }) - accessListGas(accessList, { warpActive: false, isGranite })
  }

  /** A block starts being built: its transactions' predicate results are collected. */
  beginBlock(): void {
    this.#blockPredicateResults = new Map()
  }

  /** The head moved (a block was stored, or a revert): no block is being built. */
  endBlock(): void {
    this.#blockPredicateResults = undefined
  }

  /**
   * `rules` with the block's predicate results in the header's extra data: from Durango it ends
   * with them (6 bytes for none), after the fee state.
   */
  withPredicateResults(rules: FeeRules): FeeRules {
    return {
      ...rules,
      next: (parent, timestamp) => {
        const fees = rules.next(parent, timestamp)
        return { ...fees, extraData: (gasUsed) => this.#withPredicateResults(fees.extraData(gasUsed)) }
      },
    }
  }

  #withPredicateResults(extra: Uint8Array): Uint8Array {
    const results = this.#blockPredicateResults
    if (!results || results.size === 0 || extra.length < EMPTY_PREDICATE_RESULTS.length) return extra
    const window = extra.subarray(0, extra.length - EMPTY_PREDICATE_RESULTS.length)
    const encoded = encodeBlockPredicateResults(new Map([...results].map(([hash, bits]) => [hash, new Map([[WARP_ADDRESS, bits]])])))
    const out = new Uint8Array(window.length + encoded.length)
    out.set(window)
    out.set(encoded, window.length)
    return out
  }

  /**
   * Warp predicates live in a transaction's access list: before each transaction the VM runs,
   * they are verified and their extra intrinsic gas is charged from the top call's gas (ethereumjs
   * computes intrinsic gas itself and its transactions are frozen, so the difference is taken
   * there). `timestamp` gives the block in execution's time.
   */
  watchTransactions(vm: VM, timestamp: () => bigint): void {
    vm.events.on('beforeTx', (tx: TypedTransaction) => {
      const list = 'accessList' in tx ? accessListOf(tx.accessList as AccessListBytes) : []
      this.#pendingIntrinsic = this.beginTransaction(list, timestamp())
    })
    // A transaction the block includes records its warp tuples' failed bits (`SetTxResults`).
    vm.events.on('afterTx', (event: { transaction: TypedTransaction }) => {
      const failed = this.#predicates?.failed
      if (this.#blockPredicateResults && failed) this.#blockPredicateResults.set(bytesToHex(event.transaction.hash()), failed)
    })
    const evm = vm.evm as unknown as { runCall(opts: { message?: unknown; gasLimit?: bigint }): Promise<EVMResult> }
    const runCall = evm.runCall.bind(evm)
    evm.runCall = async (opts) => {
      const extra = opts.message === undefined ? this.#pendingIntrinsic : 0n
      if (extra === 0n) return runCall(opts)
      this.#pendingIntrinsic = 0n
      if ((opts.gasLimit ?? 0n) < extra) throw new InvalidArgumentError(`intrinsic gas too low: warp predicates need ${extra} more gas`)
      const result = await runCall({ ...opts, gasLimit: opts.gasLimit! - extra })
      result.execResult.executionGasUsed += extra
      return result
    }
  }
}

const isWarpTuple = (tuple: AccessListEntry) =>
  (typeof tuple.address === 'string' ? tuple.address.toLowerCase() : `0x${Buffer.from(tuple.address).toString('hex')}`) === WARP_ADDRESS

/** ethereumjs' access-list bytes as warp's tuples. */
export function accessListOf(list: AccessListBytes): AccessListEntry[] {
  return list.map(([address, storageKeys]) => ({ address, storageKeys }))
}
