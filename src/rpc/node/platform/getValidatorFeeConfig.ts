import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { PlatformContext } from './context.js'

/** `validators/fee.Config` (bare numbers). */
export type GetValidatorFeeConfigResult = { capacity: bigint; target: bigint; minPrice: bigint; excessConversionConstant: bigint }

/** `platform.getValidatorFeeConfig`: the ACP-77 continuous fee config. */
export const getValidatorFeeConfig = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetValidatorFeeConfigResult => {
  const c = ctx.pchain.config.validatorFee
  return { capacity: c.capacity, target: c.target, minPrice: c.minPrice, excessConversionConstant: c.excessConversionConstant }
})
