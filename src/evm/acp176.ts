import type { FeeRules, ParentHeaderInfo } from './feeRules.js'

/**
 * ACP-176 dynamic fees, as the C-chain prices gas since Fortuna (avalanchego
 * `vms/evm/acp176/acp176.go`, coreth `customheader/dynamic_fee_state.go`), with Granite's
 * millisecond accounting. The fee state (capacity, excess, target excess) after each block is
 * kept in the first 24 bytes of its extra data; the base fee of a block is the price of the
 * state before its own gas is consumed.
 */
export const ACP176 = {
  minTargetPerSecond: 1_000_000n,
  targetConversion: 1n << 25n,
  minGasPrice: 1n,
  targetToMaxCapacity: 10n,
  targetToMax: 2n,
  targetToPriceUpdateConversion: 87n,
  stateSize: 24,
} as const

/** ACP-226: the initial minimum-delay excess, whose delay is 2000 ms. */
export const INITIAL_DELAY_EXCESS = 7_970_124n
const DELAY_CONVERSION = 1n << 20n

const MAX_UINT64 = (1n << 64n) - 1n
const mulSat = (a: bigint, b: bigint) => (a * b > MAX_UINT64 ? MAX_UINT64 : a * b)
const addSat = (a: bigint, b: bigint) => (a + b > MAX_UINT64 ? MAX_UINT64 : a + b)

/** avalanchego's integer approximation of `factor · e^(numerator/denominator)` (gas.CalculatePrice). */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n
  let output = 0n
  let accumulator = factor * denominator
  const maxOutput = denominator * MAX_UINT64
  while (accumulator > 0n) {
    output += accumulator
    if (output >= maxOutput) return MAX_UINT64
    accumulator = (accumulator * numerator) / denominator / i
    i++
  }
  return output / denominator
}

export type FeeState = { capacity: bigint; excess: bigint; targetExcess: bigint }

export const targetPerSecond = (targetExcess: bigint) =>
  fakeExponential(ACP176.minTargetPerSecond, targetExcess, ACP176.targetConversion)
export const maxCapacity = (targetExcess: bigint) => mulSat(targetPerSecond(targetExcess), ACP176.targetToMaxCapacity)
export const gasPrice = (state: FeeState) =>
  fakeExponential(ACP176.minGasPrice, state.excess, mulSat(targetPerSecond(state.targetExcess), ACP176.targetToPriceUpdateConversion))
/** ACP-226 `Delay()` in milliseconds. */
export const minDelayMs = (excess: bigint) => fakeExponential(1n, excess, DELAY_CONVERSION)

/** Granite's minimum block delay at the initial excess (~2,000 ms), in whole seconds of block time. */
export const GRANITE_MIN_DELAY_SECONDS = (minDelayMs(INITIAL_DELAY_EXCESS) + 999n) / 1000n

export function decodeFeeState(extra: Uint8Array): FeeState {
  if (extra.length < ACP176.stateSize) return { capacity: 0n, excess: 0n, targetExcess: 0n }
  const view = new DataView(extra.buffer, extra.byteOffset, ACP176.stateSize)
  return { capacity: view.getBigUint64(0), excess: view.getBigUint64(8), targetExcess: view.getBigUint64(16) }
}

/** The state followed by empty predicate results (codec version 0, no entries: 6 zero bytes). */
export function encodeFeeState(state: FeeState): Uint8Array {
  const out = new Uint8Array(ACP176.stateSize + 6)
  const view = new DataView(out.buffer)
  view.setBigUint64(0, state.capacity)
  view.setBigUint64(8, state.excess)
  view.setBigUint64(16, state.targetExcess)
  return out
}

/** Granite: capacity refills and excess drains per elapsed millisecond. */
export function advance(state: FeeState, elapsedMs: bigint): FeeState {
  const target = targetPerSecond(state.targetExcess)
  const perMs = target / 1000n
  const max = mulSat(mulSat(target, ACP176.targetToMax), 5n)
  const capacity = addSat(state.capacity, mulSat(perMs * ACP176.targetToMax, elapsedMs))
  const drained = mulSat(perMs, elapsedMs)
  return {
    capacity: capacity > max ? max : capacity,
    excess: state.excess > drained ? state.excess - drained : 0n,
    targetExcess: state.targetExcess,
  }
}

/** The fee state a block at `timestamp` starts from (coreth `feeStateBeforeBlock`). */
export function stateBeforeBlock(parent: ParentHeaderInfo, timestamp: bigint): FeeState {
  const state = parent.number === 0n ? { capacity: 0n, excess: 0n, targetExcess: 0n } : decodeFeeState(parent.extraData)
  const elapsed = timestamp > parent.timestamp ? timestamp - parent.timestamp : 0n
  return advance(state, elapsed * 1000n)
}

export function createAcp176FeeRules(): FeeRules {
  return {
    name: 'acp176',
    minBlockDelay: () => GRANITE_MIN_DELAY_SECONDS,
    next(parent, timestamp) {
      const before = stateBeforeBlock(parent, timestamp)
      return {
        baseFee: gasPrice(before),
        gasLimit: maxCapacity(before.targetExcess),
        gasAvailable: before.capacity,
        headerExtras: { minDelayExcess: INITIAL_DELAY_EXCESS },
        blockGasCost: 0n,
        extraData: (gasUsed) =>
          encodeFeeState({ capacity: before.capacity - gasUsed, excess: addSat(before.excess, gasUsed), targetExcess: before.targetExcess }),
      }
    },
    timestampForGas(parent, from, gas) {
      let t = from
      // Capacity refills at 2 × target per second: a few seconds at most for any block-sized amount.
      for (let i = 0; i < 600 && stateBeforeBlock(parent, t).capacity < gas; i++) t++
      return t
    },
  }
}
