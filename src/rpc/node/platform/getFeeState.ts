import { calculatePrice } from '../../../platform/pchain/feeMath.js'
import { noParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { goTime } from './common.js'
import type { PlatformContext } from './context.js'

/** `GetFeeStateReply`: the embedded `gas.State`, the price, the chain time. */
export type GetFeeStateResult = { capacity: bigint; excess: bigint; price: bigint; timestamp: string }

/** `platform.getFeeState`: the dynamic fee state of the last accepted block and its gas price. */
export const getFeeState = defineNodeMethod(noParams, (_params, ctx: PlatformContext): GetFeeStateResult => {
  const { capacity, excess } = ctx.pchain.state.feeState
  const c = ctx.pchain.config.dynamicFee
  return { capacity, excess, price: calculatePrice(c.minPrice, excess, c.excessConversionConstant), timestamp: goTime(ctx.pchain.timestamp) }
})
