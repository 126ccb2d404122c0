import { createBlock, type Block } from '@ethereumjs/block'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { TransactionType, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { runTx, type VM } from '@ethereumjs/vm'
import type { Hex } from '../core/hex.js'
import type { EvmChain } from './chain.js'
import { stateTransitionErrors, TxRejectedError } from './errors.js'
import { cleanJournal, warmPrecompiles, warmSlot } from './ethereumjsInternals.js'
import { watchGasNeed } from './gasNeed.js'
import { intrinsicGas } from './intrinsicGas.js'
import type { BlockTag, StoredBlock } from './types.js'
import { createUnsignedTx } from './unsignedTx.js'

/** geth's default `RPCGasCap`: the gas an eth_call or eth_estimateGas may use at most. */
export const RPC_GAS_CAP = 50_000_000n

export type CallRequest = {
  from?: Hex
  to?: Hex
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  value?: bigint
  data?: Uint8Array
  nonce?: bigint
  accessList?: { address: Hex; storageKeys: Hex[] }[]
  type?: number
}

export type AccountOverride = {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  /** Replaces the whole storage. */
  state?: Record<Hex, Hex>
  /** Changes single slots. */
  stateDiff?: Record<Hex, Hex>
}
export type StateOverrides = Record<Hex, AccountOverride>

/** Outcome of a message; reverts and halts stay data until the protocol edge. */
export type ExecutionResult = {
  success: boolean
  /** Return data, or revert data when `reverted`. */
  returnValue: Uint8Array
  gasUsed: bigint
  reverted: boolean
  /** EVM error name for a failed execution (`revert`, `out of gas`, …). */
  error?: string
}

const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000'

/** Header of `block` with base fee 0: geth's NoBaseFee context for calls that set no gas price. */
const zeroFeeBlocks = new WeakMap<StoredBlock, Block>()
export function contextBlock(chain: EvmChain, stored: StoredBlock, zeroFee: boolean): Block {
  if (!zeroFee) return stored.block
  let block = zeroFeeBlocks.get(stored)
  if (!block) {
    const header = stored.block.header
    block = createBlock(
      { header: { ...header.toJSON(), baseFeePerGas: 0n } },
      { common: chain.common, setHardfork: true, skipConsensusFormatValidation: true },
    )
    zeroFeeBlocks.set(stored, block)
  }
  return block
}

export async function applyOverrides(state: MerkleStateManager, overrides: StateOverrides | undefined): Promise<void> {
  for (const [address, o] of Object.entries(overrides ?? {})) {
    const addr = createAddressFromString(address)
    if (o.balance !== undefined || o.nonce !== undefined) {
      await state.modifyAccountFields(addr, {
        ...(o.balance !== undefined ? { balance: o.balance } : {}),
        ...(o.nonce !== undefined ? { nonce: o.nonce } : {}),
      })
    }
    if (o.code !== undefined) await state.putCode(addr, o.code)
    if (o.state) await state.clearStorage(addr)
    for (const [slot, value] of Object.entries({ ...o.state, ...o.stateDiff })) {
      await state.putStorage(addr, setLengthLeft(hexToBytes(slot as Hex), 32), hexToBytes(value))
    }
  }
}

/**
 * Runs `fn` with a VM on the state at `tag`, with overrides applied, and throws every change
 * away afterwards. The live state is used in place between a checkpoint and a revert; an older
 * block gets a VM copy at that block's state root. The message starts with nothing warm and
 * leaves nothing warm or touched behind (EIP-2929, EIP-161): the live VM is the miner's too, so
 * what one call read must change neither the next call's gas nor the next transaction.
 */
export async function withScratchVM<T>(
  chain: EvmChain,
  tag: BlockTag,
  overrides: StateOverrides | undefined,
  fn: (vm: VM, block: StoredBlock) => Promise<T>,
): Promise<T> {
  return chain.withState(tag, async (_state, block, live) => {
    const vm = live ? chain.vm : await chain.copyVM(block)
    if (!live) await vm.stateManager.setStateRoot(block.block.header.stateRoot)
    const sm = vm.stateManager as MerkleStateManager
    clearMessageState(vm)
    // The live state manager caches reads as clean (ethereumjsInternals.ts): the revert throws
    // away what the message wrote and keeps what it read warm for the next call.
    await sm.checkpoint()
    try {
      await applyOverrides(sm, overrides)
      return await fn(vm, block)
    } finally {
      await sm.revert()
      clearMessageState(vm)
    }
  })
}

/**
 * Forgets what the last message warmed: the journal's warm addresses and slots, the accounts it
 * touched (which the next transaction would delete if empty, EIP-161) and its reported access
 * list. ethereumjs does this around each transaction in `runTx`; a message run by `runCall` has
 * to do it itself, or each call starts warm where the last one left off and costs less gas. (The
 * EIP-2200 original values go with the state manager's last checkpoint.)
 */
function clearMessageState(vm: VM): void {
  cleanJournal(vm)
}

/**
 * geth's `StateDB.Prepare` for a message: the sender, the recipient, the active precompiles, the
 * coinbase (EIP-3651) and the message's access list start warm (EIP-2929). Subnet-EVM's stateful
 * precompiles are not among the EVM's precompiles (`statefulHost.ts` resolves them per call), so
 * they stay cold, as on the real node.
 */
function prepareMessage(vm: VM, message: { from: Hex; to: Hex | undefined; coinbase: Uint8Array; accessList: CallRequest['accessList'] }): void {
  if (!vm.common.isActivatedEIP(2929)) return
  const journal = vm.evm.journal
  warmPrecompiles(vm)
  // The journal keys addresses by their lowercase hex.
  journal.addAlwaysWarmAddress(message.from.toLowerCase())
  if (message.to) journal.addAlwaysWarmAddress(message.to.toLowerCase())
  if (vm.common.isActivatedEIP(3651)) journal.addAlwaysWarmAddress(bytesToHex(message.coinbase))
  for (const { address, storageKeys } of message.accessList ?? []) {
    journal.addAlwaysWarmAddress(address.toLowerCase(), true)
    for (const key of storageKeys) warmSlot(vm, address.toLowerCase(), bytesToHex(setLengthLeft(hexToBytes(key), 32)).slice(2))
  }
}

function gasPriceOf(request: CallRequest): bigint {
  return request.gasPrice ?? request.maxFeePerGas ?? 0n
}

/** The state transition's `buyGas` check: `gas * feeCap + value` must be covered by the balance. */
async function checkFunds(vm: VM, from: Hex, gas: bigint, request: CallRequest) {
  const cost = gas * gasPriceOf(request) + (request.value ?? 0n)
  if (cost === 0n) return
  const balance = (await vm.stateManager.getAccount(createAddressFromString(from)))?.balance ?? 0n
  if (balance < cost) throw stateTransitionErrors.insufficientFunds({ from, have: balance, want: cost })
}

/**
 * The state transition's fee checks, which a call makes only when it names a price (geth runs
 * calls with NoBaseFee and skips them when every fee field is zero).
 */
function feeCapRefusal(from: Hex, request: CallRequest, baseFee: bigint | undefined): TxRejectedError | undefined {
  const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n
  const tip = request.gasPrice ?? request.maxPriorityFeePerGas ?? 0n
  if (feeCap === 0n && tip === 0n) return undefined
  if (feeCap < tip) return stateTransitionErrors.tipAboveFeeCap({ from, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap })
  if (baseFee !== undefined && feeCap < baseFee) return stateTransitionErrors.feeCapTooLow({ from, maxFeePerGas: feeCap, baseFee })
  return undefined
}

/** eth_call: executes a message without a transaction, as geth's DoCall does. */
export async function call(chain: EvmChain, request: CallRequest, tag: BlockTag, overrides?: StateOverrides): Promise<ExecutionResult> {
  const from = request.from ?? ZERO_ADDRESS
  // geth caps the gas of a call at RPCGasCap.
  const gas = request.gas === undefined || request.gas > RPC_GAS_CAP ? RPC_GAS_CAP : request.gas
  const data = request.data ?? new Uint8Array()
  return withScratchVM(chain, tag, overrides, async (vm, stored) => {
    const refusal = feeCapRefusal(from, request, stored.block.header.baseFeePerGas)
    if (refusal) throw refusal
    await checkFunds(vm, from, gas, request)
    // Warp predicates in the access list are verified for the call and priced as the chain prices them.
    const intrinsic = intrinsicGas({ data, isCreate: request.to === undefined, accessList: request.accessList }) + (chain.hooks.beginCall?.(chain, request.accessList ?? []) ?? 0n)
    if (gas < intrinsic) throw stateTransitionErrors.intrinsicGasTooLow({ have: gas, want: intrinsic })
    const block = contextBlock(chain, stored, gasPriceOf(request) === 0n)
    prepareMessage(vm, { from, to: request.to, coinbase: block.header.coinbase.bytes, accessList: request.accessList })
    const caller = createAddressFromString(from)
    const result = await vm.evm.runCall({
      caller,
      origin: caller,
      to: request.to ? createAddressFromString(request.to) : undefined,
      value: request.value ?? 0n,
      data,
      gasLimit: gas - intrinsic,
      gasPrice: gasPriceOf(request),
      block,
      skipBalance: true,
    })
    const err = result.execResult.exceptionError
    return {
      success: err === undefined,
      returnValue: result.execResult.returnValue,
      gasUsed: result.execResult.executionGasUsed + intrinsic,
      reverted: err?.error === 'revert',
      error: err?.error,
    }
  })
}

export function txDataOf(chain: EvmChain, request: CallRequest, gas: bigint): TypedTxData {
  const base = {
    nonce: request.nonce,
    gasLimit: gas,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ? bytesToHex(request.data) : '0x',
  }
  if (request.gasPrice !== undefined)
    return { ...base, type: request.accessList ? TransactionType.AccessListEIP2930 : TransactionType.Legacy, gasPrice: request.gasPrice, accessList: request.accessList, chainId: chain.chainId } as TypedTxData
  return {
    ...base,
    type: TransactionType.FeeMarketEIP1559,
    maxFeePerGas: request.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? 0n,
    accessList: request.accessList,
    chainId: chain.chainId,
  } as TypedTxData
}

export type EstimateResult = { ok: true; gas: bigint } | { ok: false; result: ExecutionResult; gas: bigint }

/**
 * eth_estimateGas: geth's estimator — run at the cap, then an optimistic guess, then a binary
 * search to within 1.5%. Every run happens on scratch state.
 */
export async function estimateGas(chain: EvmChain, request: CallRequest, tag: BlockTag, overrides?: StateOverrides): Promise<EstimateResult> {
  const from = request.from ?? ZERO_ADDRESS
  return withScratchVM(chain, tag, overrides, async (vm, stored) => {
    let hi = request.gas ?? stored.block.header.gasLimit
    if (hi > RPC_GAS_CAP) hi = RPC_GAS_CAP
    const price = gasPriceOf(request)
    if (price > 0n) {
      // geth's estimator: a priced estimate needs the value strictly below the balance.
      const balance = (await vm.stateManager.getAccount(createAddressFromString(from)))?.balance ?? 0n
      const value = request.value ?? 0n
      if (value >= balance) throw stateTransitionErrors.insufficientFundsForTransfer()
      const allowance = (balance - value) / price
      if (hi > allowance) hi = allowance
    }
    // Every run would fail the same way; geth's estimator reports the run at the cap.
    const refusal = feeCapRefusal(from, request, stored.block.header.baseFeePerGas)
    if (refusal) throw new TxRejectedError(`failed with ${hi} gas: ${refusal.shortMessage}`, { cause: refusal })
    const block = contextBlock(chain, stored, price === 0n)
    const sm = vm.stateManager as MerkleStateManager
    // The least gas a creation needs, when the run at the cap proves it (see watchGasNeed).
    let need: bigint | undefined
    const run = async (gas: bigint, watch = false): Promise<ExecutionResult> => {
      await sm.checkpoint()
      const watcher = watch ? watchGasNeed(vm, gas) : undefined
      try {
        const tx = createUnsignedTx(chain.common, txDataOf(chain, request, gas), from)
        const r = await runTx(vm, { tx, block, skipNonce: true, skipBalance: price === 0n, skipBlockGasLimitValidation: true, skipHardForkValidation: true })
        const err = r.execResult.exceptionError
        need = watcher?.need(r)
        return { success: !err, returnValue: r.execResult.returnValue, gasUsed: r.totalGasSpent, reverted: err?.error === 'revert', error: err?.error }
      } catch (error) {
        // A refusal of the message itself (a voided execution): geth's estimator bails out with it.
        if (error instanceof TxRejectedError) throw new TxRejectedError(`failed with ${gas} gas: ${error.shortMessage}`, { cause: error })
        const message = (error as Error).message
        // geth's estimator treats ErrIntrinsicGas as too little gas ("gas required exceeds allowance").
        if (/^INTRINSIC_GAS_TOO_LOW|^intrinsic gas too low/.test(message)) return { success: false, returnValue: new Uint8Array(), gasUsed: gas, reverted: false, error: 'out of gas' }
        return { success: false, returnValue: new Uint8Array(), gasUsed: gas, reverted: false, error: message.replace(/ \(.*$/s, '') }
      } finally {
        watcher?.stop()
        await sm.revert()
      }
    }
    // A run below the cap, or its outcome when the cap's run proved it.
    const succeeds = async (gas: bigint): Promise<boolean> => (need !== undefined ? gas >= need : (await run(gas)).success)
    // geth's shortcut: a plain transfer to an account without code costs exactly 21000.
    if (request.to !== undefined && (request.data?.length ?? 0) === 0 && hi >= 21_000n) {
      const code = await vm.stateManager.getCode(createAddressFromString(request.to))
      if (code.length === 0) {
        const plain = await run(21_000n)
        if (plain.success) return { ok: true, gas: 21_000n }
      }
    }
    const first = await run(hi, request.to === undefined)
    if (!first.success) return { ok: false, result: first, gas: hi }
    let lo = first.gasUsed - 1n
    const optimistic = ((first.gasUsed + 2_300n) * 64n) / 63n
    if (optimistic < hi) {
      if (await succeeds(optimistic)) hi = optimistic
      else lo = optimistic
    }
    // geth stops once (hi - lo) / hi < 1.5% (a float comparison; this is it in integers).
    while (lo + 1n < hi && (hi - lo) * 1000n >= 15n * hi) {
      let mid = (hi + lo) / 2n
      if (mid > lo * 2n) mid = lo * 2n
      if (await succeeds(mid)) hi = mid
      else lo = mid
    }
    return { ok: true, gas: hi }
  })
}
