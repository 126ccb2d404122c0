import { calculatePrice } from '../../../platform/pchain/feeMath.js'
import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { goTime } from './common.js'
import type { PlatformContext } from './context.js'

export type GetValidatorFeeStateResult = { excess: bigint; price: bigint; timestamp: string }

/** `platform.getValidatorFeeState`: the L1 validator fee excess, its price per second, the chain time. */
export const getValidatorFeeState = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetValidatorFeeStateResult => {
  const excess = ctx.pchain.state.l1ValidatorExcess
  const c = ctx.pchain.config.validatorFee
  return { excess, price: calculatePrice(c.minPrice, excess, c.excessConversionConstant), timestamp: goTime(ctx.pchain.timestamp) }
})
