import { InvalidArgumentError } from '../core/errors.js'
import { INITIAL_DELAY_EXCESS } from './acp176.js'
import type { FeeRules } from './feeRules.js'

/** The fee parameters of an Avalanche EVM chain (subnet-EVM `commontype.FeeConfig`). */
export type FeeConfig = {
  gasLimit: bigint
  targetBlockRate: bigint
  minBaseFee: bigint
  targetGas: bigint
  baseFeeChangeDenominator: bigint
  minBlockGasCost: bigint
  maxBlockGasCost: bigint
  blockGasCostStep: bigint
}

/** The fields in `commontype.FeeConfig`'s order: its JSON, its ABI tuple and the fee manager's storage slots 1–8. */
export const FEE_CONFIG_FIELDS = [
  'gasLimit',
  'targetBlockRate',
  'minBaseFee',
  'targetGas',
  'baseFeeChangeDenominator',
  'minBlockGasCost',
  'maxBlockGasCost',
  'blockGasCostStep',
] as const satisfies readonly (keyof FeeConfig)[]

const UINT64_MAX = (1n << 64n) - 1n

/**
 * subnet-EVM `FeeConfig.Verify` (commontype/fee_config.go) past its nil checks: the Go message of
 * the first failing check, or undefined. Genesis validation and the fee manager both use it.
 */
export function feeConfigError(fc: FeeConfig): string | undefined {
  if (fc.gasLimit <= 0n) return `gasLimit cannot be less than or equal to 0: gasLimit = ${fc.gasLimit}`
  if (fc.targetBlockRate <= 0n) return `targetBlockRate cannot be less than or equal to 0: targetBlockRate = ${fc.targetBlockRate}`
  if (fc.minBaseFee < 0n) return `minBaseFee cannot be less than 0: minBaseFee = ${fc.minBaseFee}`
  if (fc.targetGas <= 0n) return `targetGas cannot be less than or equal to 0: targetGas = ${fc.targetGas}`
  if (fc.baseFeeChangeDenominator <= 0n)
    return `baseFeeChangeDenominator cannot be less than or equal to 0: baseFeeChangeDenominator = ${fc.baseFeeChangeDenominator}`
  if (fc.minBlockGasCost < 0n) return `minBlockGasCost cannot be less than 0: minBlockGasCost = ${fc.minBlockGasCost}`
  if (fc.minBlockGasCost > fc.maxBlockGasCost)
    return `minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = ${fc.minBlockGasCost}, maxBlockGasCost = ${fc.maxBlockGasCost}`
  if (fc.blockGasCostStep < 0n) return `blockGasCostStep cannot be less than 0: blockGasCostStep = ${fc.blockGasCostStep}`
  if (fc.maxBlockGasCost < 0n || fc.maxBlockGasCost > UINT64_MAX)
    return `maxBlockGasCost is not a valid uint64: maxBlockGasCost = ${fc.maxBlockGasCost}`
  for (const name of FEE_CONFIG_FIELDS) if ((fc[name] < 0n ? -fc[name] : fc[name]) >= 1n << 256n) return `${name} exceeds hash length: 32 bytes`
  return undefined
}

/** subnet-EVM `DefaultFeeConfig` (params/extras/config.go). */
export const DEFAULT_FEE_CONFIG: FeeConfig = {
  gasLimit: 8_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 25_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
}

/**
 * The C-chain's window parameters between Etna and Fortuna: Cortina's 15M gas, ApricotPhase5's
 * target of 15M per 10 s window and denominator 36, Etna's 1 gwei minimum (ACP-125). Since
 * Fortuna the C-chain prices gas with ACP-176 (`acp176.ts`); this stays for history and tests.
 */
export const C_CHAIN_FEE_CONFIG: FeeConfig = {
  gasLimit: 15_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 1_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
}

/** Seconds covered by the rolling gas window kept in the header's extra data. */
export const FEE_WINDOW_LENGTH = 10
const WINDOW_BYTES = FEE_WINDOW_LENGTH * 8
const MAX_UINT64 = (1n << 64n) - 1n

export type FeeWindow = bigint[]

export function emptyFeeWindow(): FeeWindow {
  return new Array<bigint>(FEE_WINDOW_LENGTH).fill(0n)
}

/** Reads the 10 × uint64 big-endian window from the first 80 bytes of a header's extra data. */
export function decodeFeeWindow(extra: Uint8Array): FeeWindow {
  if (extra.length < WINDOW_BYTES) return emptyFeeWindow()
  const view = new DataView(extra.buffer, extra.byteOffset, WINDOW_BYTES)
  return Array.from({ length: FEE_WINDOW_LENGTH }, (_, i) => view.getBigUint64(i * 8))
}

export function encodeFeeWindow(window: FeeWindow): Uint8Array {
  const out = new Uint8Array(WINDOW_BYTES)
  const view = new DataView(out.buffer)
  window.forEach((v, i) => view.setBigUint64(i * 8, v))
  return out
}

const saturatingAdd = (a: bigint, b: bigint) => (a + b > MAX_UINT64 ? MAX_UINT64 : a + b)

export type ParentFeeInfo = {
  number: bigint
  timestamp: bigint
  gasUsed: bigint
  baseFeePerGas: bigint
  extraData: Uint8Array
}

/**
 * The base fee of the block after `parent` at `timestamp`, and the window to store in that
 * block's extra data (subnet-EVM `customheader/dynamic_fee_windower.go`): the parent's gas is
 * added to the newest slot, the window slides by the elapsed seconds, and the base fee moves by
 * at most 1/denominator of the distance to target, multiplied when whole windows were empty.
 */
export function calcNextBaseFee(
  config: FeeConfig,
  parent: ParentFeeInfo,
  timestamp: bigint,
): { baseFee: bigint; window: FeeWindow } {
  if (timestamp < parent.timestamp)
    throw new InvalidArgumentError(`timestamp ${timestamp} is before the parent's ${parent.timestamp}`)
  if (parent.number === 0n) return { baseFee: config.minBaseFee, window: emptyFeeWindow() }

  const window = decodeFeeWindow(parent.extraData)
  window[FEE_WINDOW_LENGTH - 1] = saturatingAdd(window[FEE_WINDOW_LENGTH - 1]!, parent.gasUsed)
  const elapsed = timestamp - parent.timestamp
  const shifted: FeeWindow =
    elapsed >= BigInt(FEE_WINDOW_LENGTH)
      ? emptyFeeWindow()
      : [...window.slice(Number(elapsed)), ...new Array<bigint>(Number(elapsed)).fill(0n)]
  const total = shifted.reduce(saturatingAdd, 0n)

  const target = config.targetGas
  let baseFee = parent.baseFeePerGas
  if (total > target) {
    let delta = ((total - target) * parent.baseFeePerGas) / target / config.baseFeeChangeDenominator
    if (delta < 1n) delta = 1n
    baseFee = parent.baseFeePerGas + delta
  } else if (total < target) {
    let delta = ((target - total) * parent.baseFeePerGas) / target / config.baseFeeChangeDenominator
    if (delta < 1n) delta = 1n
    const windowsElapsed = elapsed / BigInt(FEE_WINDOW_LENGTH)
    if (windowsElapsed > 1n) delta *= windowsElapsed
    baseFee = parent.baseFeePerGas - delta
  }
  if (baseFee < config.minBaseFee) baseFee = config.minBaseFee
  return { baseFee, window: shifted }
}

/**
 * Subnet-EVM's block gas cost (`customheader/block_gas_cost.go`): it rises by `blockGasCostStep`
 * for each second a block comes sooner than `targetBlockRate` after its parent and falls as much
 * for each second later, within [min, max]. A parent without one (before Etna at genesis) starts
 * the chain at the minimum.
 */
export function calcBlockGasCost(config: FeeConfig, parentCost: bigint | undefined, parentTime: bigint, time: bigint): bigint {
  if (parentCost === undefined) return config.minBlockGasCost
  const elapsed = time > parentTime ? time - parentTime : 0n
  const target = config.targetBlockRate
  const change = config.blockGasCostStep * (target > elapsed ? target - elapsed : elapsed - target)
  let cost = elapsed > target ? parentCost - change : parentCost + change
  if (cost < config.minBlockGasCost) cost = config.minBlockGasCost
  if (cost > config.maxBlockGasCost) cost = config.maxBlockGasCost
  return cost
}

/** Bytes after the fee window once Durango is active: the codec's empty predicate-results map. */
export const EMPTY_PREDICATE_RESULTS = new Uint8Array(6)

export type WindowFeeRulesOptions = {
  /** The fee config governing the block after the current head (the fee manager can change it). */
  feeConfig: () => FeeConfig
  isDurango?: (timestamp: bigint) => boolean
  /** Granite: no block gas cost, millisecond timestamps and ACP-226's minimum delay. */
  isGranite?: (timestamp: bigint) => boolean
  /** Minimum delay after a Granite parent, in seconds (ACP-226's ~2 s). */
  graniteMinDelay?: bigint
}

/**
 * Subnet-EVM's fee rules over {@link calcNextBaseFee}: the header carries the window, every block
 * may use the configured gas limit, and before Granite a block must pay the block gas cost.
 */
export function createWindowFeeRules(options: FeeConfig | WindowFeeRulesOptions): FeeRules {
  const opts: WindowFeeRulesOptions = 'gasLimit' in options ? { feeConfig: () => options } : options
  const isDurango = opts.isDurango ?? (() => false)
  const isGranite = opts.isGranite ?? (() => false)
  return {
    name: 'window',
    minBlockDelay: (parentTimestamp) => (isGranite(parentTimestamp) ? (opts.graniteMinDelay ?? 2n) : 1n),
    next(parent, timestamp) {
      const config = opts.feeConfig()
      const { baseFee, window } = calcNextBaseFee(config, parent, timestamp)
      const encoded = encodeFeeWindow(window)
      const extra = isDurango(timestamp) ? concat(encoded, EMPTY_PREDICATE_RESULTS) : encoded
      const granite = isGranite(timestamp)
      const blockGasCost = granite ? 0n : calcBlockGasCost(config, parent.extras?.blockGasCost, parent.timestamp, timestamp)
      const headerExtras: Record<string, bigint> = granite
        ? { blockGasCost, timestampMilliseconds: timestamp * 1000n, minDelayExcess: INITIAL_DELAY_EXCESS }
        : { blockGasCost }
      return { baseFee, gasLimit: config.gasLimit, gasAvailable: config.gasLimit, headerExtras, blockGasCost, extraData: () => extra }
    },
    timestampForGas: (_parent, from) => from,
  }
}


function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
