/**
 * `debug_traceTransaction` and `debug_traceCall` as coreth serves them (eth/tracers/api.go over
 * libevm's tracers): a mined transaction is replayed on a copy of the state before its block,
 * after the block's earlier transactions, with a tracer listening to the EVM; a call is traced
 * on scratch state at a block. The default tracer is geth's struct logger; `callTracer` and
 * `noopTracer` are the named tracers served.
 */
import type { EVM } from '@ethereumjs/evm'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bigIntToBytes, bytesToHex, createAddressFromString, setLengthLeft, toChecksumAddress } from '@ethereumjs/util'
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { BaseError } from '../core/errors.js'
import type { Hex } from '../core/hex.js'
import { applyOverrides, contextBlock, RPC_GAS_CAP, txDataOf, withScratchVM, type CallRequest, type StateOverrides } from './call.js'
import type { EvmChain } from './chain.js'
import { TxRejectedError } from './errors.js'
import { intrinsicGas } from './intrinsicGas.js'
import { CallTracer, type CallFrameJson, type CallTracerConfig } from './tracers/callTracer.js'
import { attachTracer, type EvmTracer } from './tracers/common.js'
import { StructLogger, type StructLoggerConfig, type StructLoggerResult } from './tracers/structLogger.js'
import type { BlockTag, StoredBlock } from './types.js'
import { createUnsignedTx } from './unsignedTx.js'

export type { CallFrameJson, CallLogJson, CallTracerConfig } from './tracers/callTracer.js'
export type { StructLogJson, StructLoggerConfig, StructLoggerResult } from './tracers/structLogger.js'

/** geth's `tracers.TraceConfig`: the struct logger's options, or a named tracer and its config. */
export type TraceConfig = StructLoggerConfig & {
  /** `callTracer`, `noopTracer`; the struct logger when absent. */
  tracer?: string
  /** The named tracer's own config (`callTracer`: onlyTopCall, withLog). */
  tracerConfig?: CallTracerConfig
}

/** geth's `TraceCallConfig`: a {@link TraceConfig} plus the state to trace on. */
export type TraceCallConfig = TraceConfig & {
  stateOverrides?: StateOverrides
  /** Trace on the state before this transaction of the block, instead of after the block. */
  txIndex?: number
}

export type TraceResult = StructLoggerResult | CallFrameJson | Record<string, never>

/** A trace the node refuses (unknown transaction, unsupported tracer, failed message); -32000. */
export class TraceError extends BaseError {
  override name = 'TraceError'
}

/** Tracers by the name `tracer` takes, as geth's `DefaultDirectory` registers them. */
const NAMED_TRACERS: Record<string, (config: TraceConfig) => { tracer: EvmTracer; result: () => TraceResult }> = {
  callTracer: (config) => {
    const tracer = new CallTracer(config.tracerConfig ?? {})
    return { tracer, result: () => tracer.result() }
  },
  noopTracer: () => ({ tracer: {}, result: () => ({}) }),
}

function createTracer(config: TraceConfig): { tracer: EvmTracer; result: () => TraceResult } {
  if (config.tracer === undefined) {
    const tracer = new StructLogger(config)
    return { tracer, result: () => tracer.result() }
  }
  const make = Object.hasOwn(NAMED_TRACERS, config.tracer) ? NAMED_TRACERS[config.tracer] : undefined
  if (!make) throw new TraceError(`tracer ${JSON.stringify(config.tracer)} is not supported (callTracer, noopTracer or the default struct logger)`)
  return make(config)
}

/**
 * debug_traceTransaction: replays the transaction's block up to it on a copy of the parent
 * state, then runs it with the tracer attached. Errors: `transaction not found`,
 * `genesis is not traceable` (coreth's texts).
 */
export async function traceTransaction(chain: EvmChain, hash: Hex, config: TraceConfig = {}): Promise<TraceResult> {
  const mined = chain.store.tx(hash)
  if (!mined) throw new TraceError('transaction not found')
  if (mined.blockNumber === 0n) throw new TraceError('genesis is not traceable')
  const { tracer, result } = createTracer(config)
  return chain.lock.run(async () => {
    const stored = chain.store.byNumber(mined.blockNumber)
    if (!stored || stored.hash !== mined.blockHash) throw new TraceError('transaction not found')
    await withBlockPrefix(chain, stored, mined.index, async (vm) => {
      await runTraced(vm, tracer, mined.tx.gasLimit, () => runTx(vm, txOptions(mined.tx, stored)))
    })
    return result()
  })
}

/**
 * The call tree (geth's `callTracer`) of every transaction of the stored block `hash`, in block
 * order, from one replay of the block: what the indexer's internal transactions read. Undefined
 * when the block is not (or no longer) on the chain.
 */
export async function traceBlockCalls(chain: EvmChain, hash: Hex): Promise<CallFrameJson[] | undefined> {
  return chain.lock.run(async () => {
    const stored = chain.store.byHash(hash)
    if (!stored || stored.number === 0n) return undefined
    return withBlockPrefix(chain, stored, 0, async (vm) => {
      const state = vm.stateManager as MerkleStateManager
      const frames: CallFrameJson[] = []
      for (const mined of stored.txs) {
        const tracer = new CallTracer()
        const result = await runTraced(vm, tracer, mined.tx.gasLimit, () => runTx(vm, txOptions(mined.tx, stored)))
        await creditCoinbase(state, stored, result)
        frames.push(tracer.result())
      }
      return frames
    })
  })
}

/**
 * debug_traceCall: runs `request` as a transaction (nonce unchecked, base fee waived when no fee
 * is set) on scratch state at `tag`, after `stateOverrides`, with the tracer attached. State
 * checks fail as geth's `ApplyMessage` does, behind `tracing failed: `.
 */
export async function traceCall(chain: EvmChain, request: CallRequest, tag: BlockTag, config: TraceCallConfig = {}): Promise<TraceResult> {
  if (tag === 'pending') throw new TraceError('tracing on top of pending is not supported')
  const stored = chain.findBlock(tag)
  if (!stored) {
    // coreth: numbers above the last accepted block are unfinalized; an unknown hash is not found.
    if (typeof tag === 'object') throw new TraceError(`block ${tag.hash.toLowerCase()} not found`)
    throw new TraceError('cannot query unfinalized data')
  }
  const { tracer, result } = createTracer(config)
  const body = async (vm: VM, block: StoredBlock) => {
    await traceMessage(chain, vm, block, request, tracer)
    return result()
  }
  if (config.txIndex === undefined) {
    // The block found above, by hash when it was named by number, so a block mined meanwhile
    // does not change what is traced.
    return withScratchVM(chain, tag === 'latest' || tag === 'safe' || tag === 'finalized' ? tag : { hash: stored.hash }, config.stateOverrides, body)
  }
  const txIndex = config.txIndex
  return chain.lock.run(async () => {
    if (stored.number === 0n) throw new TraceError('no transaction in genesis')
    if (txIndex >= stored.txs.length && !(txIndex === 0 && stored.txs.length === 0))
      throw new TraceError(`transaction index ${txIndex} out of range for block ${stored.hash}`)
    return withBlockPrefix(chain, stored, txIndex, async (vm) => {
      await applyOverrides(vm.stateManager as MerkleStateManager, config.stateOverrides)
      return body(vm, stored)
    })
  })
}

/**
 * Runs `fn` on a VM copy holding the state before transaction `index` of `stored`: the parent's
 * state, the block's system call, and the transactions before it, each followed by the fee credit
 * the miner gives the coinbase. Nothing reaches the chain's database. Call under the chain lock.
 */
async function withBlockPrefix<T>(chain: EvmChain, stored: StoredBlock, index: number, fn: (vm: VM) => Promise<T>): Promise<T> {
  const parent = chain.store.byNumber(stored.number - 1n)
  if (!parent) throw new TraceError(`parent ${bytesToHex(stored.block.header.parentHash)} not found`)
  const vm = await chain.copyVM(stored)
  const state = vm.stateManager as MerkleStateManager
  await state.setStateRoot(preStateRoot(stored, parent))
  // One checkpoint around everything: the transactions' commits stay in memory, never flushed.
  await state.checkpoint()
  try {
    await beaconRootSystemCall(vm, stored)
    for (const prior of stored.txs.slice(0, index)) {
      const result = await runTx(vm, txOptions(prior.tx, stored))
      await creditCoinbase(state, stored, result)
    }
    return await fn(vm)
  } finally {
    await state.revert()
  }
}

/**
 * The state `stored` was built on. That is its parent's state root, unless state was edited
 * between the two blocks (anvil_setCode & co. change the live state at once): then only a root
 * the miner recorded when it started the block (`preStateRoot`, if the chain keeps one) has it.
 */
function preStateRoot(stored: StoredBlock, parent: StoredBlock): Uint8Array {
  return (stored as StoredBlock & { preStateRoot?: Uint8Array }).preStateRoot ?? parent.block.header.stateRoot
}

function txOptions(tx: TypedTransaction, stored: StoredBlock) {
  return { tx, block: stored.block, skipHardForkValidation: true, skipBlockGasLimitValidation: true }
}

/** The miner's step after each transaction: Avalanche gives the coinbase the base fee too. */
async function creditCoinbase(state: MerkleStateManager, stored: StoredBlock, result: RunTxResult): Promise<void> {
  const burned = (stored.block.header.baseFeePerGas ?? 0n) * result.totalGasSpent
  if (burned === 0n) return
  const coinbase = stored.block.header.coinbase
  const account = await state.getAccount(coinbase)
  await state.modifyAccountFields(coinbase, { balance: (account?.balance ?? 0n) + burned })
}

const BEACON_ROOTS_ADDRESS = createAddressFromString('0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02')
const HISTORY_BUFFER_LENGTH = 8191n

/** EIP-4788's system call, which the block builder runs before the first transaction. */
async function beaconRootSystemCall(vm: VM, stored: StoredBlock): Promise<void> {
  if (!vm.common.isActivatedEIP(4788)) return
  const header = stored.block.header
  const state = vm.stateManager
  if ((await state.getCode(BEACON_ROOTS_ADDRESS)).length === 0) return
  const index = header.timestamp % HISTORY_BUFFER_LENGTH
  await state.putStorage(BEACON_ROOTS_ADDRESS, setLengthLeft(bigIntToBytes(index), 32), bigIntToBytes(header.timestamp))
  await state.putStorage(
    BEACON_ROOTS_ADDRESS,
    setLengthLeft(bigIntToBytes(index + HISTORY_BUFFER_LENGTH), 32),
    header.parentBeaconBlockRoot ?? new Uint8Array(32),
  )
}

/**
 * Runs a transaction with `tracer` attached, between geth's CaptureTxStart (the gas limit) and
 * CaptureTxEnd (the gas used), and detaches the tracer whatever happens.
 */
async function runTraced(vm: VM, tracer: EvmTracer, gasLimit: bigint, run: () => Promise<RunTxResult>): Promise<RunTxResult> {
  tracer.captureTxStart?.(gasLimit)
  const attached = attachTracer(vm.evm as EVM, tracer)
  let result: RunTxResult
  try {
    result = await run()
  } finally {
    attached.detach()
  }
  if (attached.errors.length > 0) throw attached.errors[0]
  tracer.captureTxEnd?.(result.totalGasSpent)
  return result
}

const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000'

/**
 * geth's `TransactionArgs.ToMessage` and `ApplyMessage` for a call: the checks come first, with
 * geth's messages, then the message runs as an unsigned transaction.
 */
async function traceMessage(chain: EvmChain, vm: VM, stored: StoredBlock, request: CallRequest, tracer: EvmTracer): Promise<void> {
  if (request.gasPrice !== undefined && (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined))
    throw new TraceError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  const from = (request.from ?? ZERO_ADDRESS).toLowerCase() as Hex
  const fromHex = toChecksumAddress(from)
  let gas = request.gas ?? RPC_GAS_CAP
  if (gas > RPC_GAS_CAP) gas = RPC_GAS_CAP
  const baseFee = stored.block.header.baseFeePerGas ?? 0n
  const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n
  const tipCap = request.gasPrice ?? request.maxPriorityFeePerGas ?? 0n
  const value = request.value ?? 0n
  const data = request.data ?? new Uint8Array()
  const fail = (message: string) => new TraceError(`tracing failed: ${message}`)
  // preCheck: the base fee is waived (NoBaseFee) only for a message without any fee.
  const zeroFee = feeCap === 0n && tipCap === 0n
  if (!zeroFee) {
    if (feeCap < tipCap)
      throw fail(`max priority fee per gas higher than max fee per gas: address ${fromHex}, maxPriorityFeePerGas: ${tipCap}, maxFeePerGas: ${feeCap}`)
    if (feeCap < baseFee) throw fail(`max fee per gas less than block base fee: address ${fromHex}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`)
  }
  // buyGas
  const have = (await vm.stateManager.getAccount(createAddressFromString(from)))?.balance ?? 0n
  const want = gas * feeCap + value
  if (have < want) throw fail(`insufficient funds for gas * price + value: address ${fromHex} have ${have} want ${want}`)
  const intrinsic = intrinsicGas({ data, isCreate: request.to === undefined, accessList: request.accessList })
  if (gas < intrinsic) throw fail(`intrinsic gas too low: have ${gas}, want ${intrinsic}`)
  const tx = createUnsignedTx(chain.common, txDataOf(chain, { ...request, value, data }, gas), from)
  const block = contextBlock(chain, stored, zeroFee)
  try {
    await runTraced(vm, tracer, gas, () =>
      runTx(vm, { tx, block, skipNonce: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true }),
    )
  } catch (error) {
    // ApplyMessage's errors (a voided execution among them) fail the trace; others are the tracer's.
    if (error instanceof TxRejectedError) throw fail(error.shortMessage)
    if (error instanceof BaseError) throw error
    throw fail((error as Error).message.replace(/ \(.*$/s, ''))
  }
}
