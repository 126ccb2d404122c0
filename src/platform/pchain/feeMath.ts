import type { RewardConfig, ValidatorFeeConfig } from './config.js'
import { PERCENT_DENOMINATOR } from './config.js'

const U64 = (1n << 64n) - 1n

/** `gas.CalculatePrice`: minPrice · e^(excess / k) by Taylor series, saturating at MaxUint64. */
export function calculatePrice(minPrice: bigint, excess: bigint, k: bigint): bigint {
  let output = 0n
  let acc = minPrice * k
  const maxOutput = k * U64
  let i = 1n
  while (acc > 0n) {
    output += acc
    if (output >= maxOutput) return U64
    acc = (acc * excess) / k / i
    i++
  }
  return k === 0n ? 0n : output / k
}

const sat = (v: bigint) => (v > U64 ? U64 : v)
const addOverTime = (g: bigint, rate: bigint, d: bigint) => sat(g + rate * d)
const subOverTime = (g: bigint, rate: bigint, d: bigint) => (rate * d > U64 ? 0n : g > rate * d ? g - rate * d : 0n)

/** The P-chain dynamic fee state (`gas.State`). */
export type GasState = { capacity: bigint; excess: bigint }

export function advanceGasState(s: GasState, maxCapacity: bigint, maxPerSecond: bigint, targetPerSecond: bigint, seconds: bigint): GasState {
  const cap = addOverTime(s.capacity, maxPerSecond, seconds)
  return { capacity: cap < maxCapacity ? cap : maxCapacity, excess: subOverTime(s.excess, targetPerSecond, seconds) }
}

/** The ACP-77 validator fee state (`validators/fee.State`): current = active L1 validators. */
export type ValidatorFeeState = { current: bigint; excess: bigint }

export function advanceValidatorFeeState(s: ValidatorFeeState, target: bigint, seconds: bigint): ValidatorFeeState {
  let excess = s.excess
  if (s.current < target) excess = subOverTime(excess, target - s.current, seconds)
  else if (s.current > target) excess = addOverTime(excess, s.current - target, seconds)
  return { current: s.current, excess }
}

/** `fee.State.CostOf`: what ONE active validator pays over `seconds`. */
export function validatorFeeCostOf(s: ValidatorFeeState, c: ValidatorFeeConfig, seconds: bigint): bigint {
  if (s.current === c.target) return sat(seconds * calculatePrice(c.minPrice, s.excess, c.excessConversionConstant))
  let cost = 0n
  for (let i = 0n; i < seconds; i++) {
    s = advanceValidatorFeeState(s, c.target, 1n)
    if (s.excess === 0n) return sat(cost + c.minPrice * (seconds - i))
    cost = sat(cost + calculatePrice(c.minPrice, s.excess, c.excessConversionConstant))
  }
  return cost
}

/** `fee.State.SecondsRemaining`: how long `funds` last, capped at `maxSeconds`. */
export function validatorFeeSecondsRemaining(s: ValidatorFeeState, c: ValidatorFeeConfig, maxSeconds: bigint, funds: bigint): bigint {
  if (c.minPrice === 0n) return maxSeconds
  if (s.current === c.target) {
    const secs = funds / calculatePrice(c.minPrice, s.excess, c.excessConversionConstant)
    return secs < maxSeconds ? secs : maxSeconds
  }
  for (let seconds = 0n; seconds < maxSeconds; seconds++) {
    s = advanceValidatorFeeState(s, c.target, 1n)
    if (s.excess === 0n) {
      const total = seconds + funds / c.minPrice
      return total < maxSeconds ? total : maxSeconds
    }
    const price = calculatePrice(c.minPrice, s.excess, c.excessConversionConstant)
    if (price > funds) return seconds
    funds -= price
  }
  return maxSeconds
}

/**
 * `reward.calculator.Calculate` (pre-Helicon rates): reward for staking `amount` for
 * `durationSeconds` given the current supply. Durations are in nanoseconds in Go; the ratio
 * duration/mintingPeriod is unit-free, so seconds give the same result.
 */
export function calculateReward(c: RewardConfig, durationSeconds: bigint, amount: bigint, currentSupply: bigint): bigint {
  const d = durationSeconds * 1_000_000_000n
  const mp = c.mintingPeriod * 1_000_000_000n
  const num = (c.maxConsumptionRate - c.minConsumptionRate) * d + c.minConsumptionRate * mp
  const den = mp * PERCENT_DENOMINATOR
  const remaining = c.supplyCap - currentSupply
  if (currentSupply === 0n) return 0n
  const reward = (((((remaining * num * amount * d) / den) / currentSupply)) / mp)
  return reward < remaining ? reward : remaining
}

/** `reward.Split`: returns [amountFromShares (delegatee), remainder (delegator)]. */
export function splitReward(total: bigint, shares: number): [bigint, bigint] {
  const remainderShares = PERCENT_DENOMINATOR - BigInt(shares)
  let remainder = remainderShares * (total / PERCENT_DENOMINATOR)
  if (remainderShares * total <= U64) remainder = (remainderShares * total) / PERCENT_DENOMINATOR
  return [total - remainder, remainder]
}
