import { cb58Id, objectParams } from '../params.js'
import { NodeRpcError, defineNodeMethod } from '../types.js'
import { quoteId } from './common.js'
import type { PlatformContext } from './context.js'
import { apiL1Validator, type ApiL1Validator } from './validatorJson.js'

/** `GetL1ValidatorReply`: the `APIL1Validator`, its subnet and the current height. */
export type GetL1ValidatorResult = ApiL1Validator & { subnetID: string; height: string }

/**
 * `platform.getL1Validator({validationID})`: an L1 validator (active or not; a disabled one
 * stays with balance 0). One removed by weight 0, or never registered, fails
 * `fetching L1 validator "<id>" failed: not found`.
 */
export const getL1Validator = defineNodeMethod(objectParams({ validationID: cb58Id }), ({ validationID }, ctx: PlatformContext): GetL1ValidatorResult => {
  const v = ctx.pchain.state.getL1Validator(validationID)
  if (!v) throw new NodeRpcError(`fetching L1 validator ${quoteId(validationID)} failed: not found`)
  return { ...apiL1Validator(ctx, ctx.pchain, v), subnetID: v.subnetId, height: String(ctx.pchain.height) }
})
