import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

/** `gas.Config`: `Gas`/`Price` are plain uint64s, so bare numbers (bigints here). */
export type GetFeeConfigResult = {
  weights: bigint[]
  maxCapacity: bigint
  maxPerSecond: bigint
  targetPerSecond: bigint
  minPrice: bigint
  excessConversionConstant: bigint
}

/** `platform.getFeeConfig`: the dynamic (ACP-103) fee config. */
export const getFeeConfig = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetFeeConfigResult => {
  const c = ctx.pchain.config.dynamicFee
  return {
    weights: [...c.weights],
    maxCapacity: c.maxCapacity,
    maxPerSecond: c.maxPerSecond,
    targetPerSecond: c.targetPerSecond,
    minPrice: c.minPrice,
    excessConversionConstant: c.excessConversionConstant,
  }
})
