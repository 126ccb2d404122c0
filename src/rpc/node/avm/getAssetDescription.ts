import { getAssetDescription as build, type GetAssetDescriptionResult } from '../../../platform/xchain/api.js'
import { objectParams, str } from '../params.js'
import { defineNodeMethod } from '../types.js'
import type { AvmContext } from './context.js'

export type { GetAssetDescriptionResult }

/**
 * `avm.getAssetDescription({assetID})`: name, symbol and denomination (json.Uint8) of an asset
 * given by alias (`AVAX`) or id. Errors: `asset '<x>' not found`, `not found`,
 * `transaction doesn't create an asset`.
 */
export const getAssetDescription = defineNodeMethod(objectParams({ assetID: str }), (args, ctx: AvmContext): GetAssetDescriptionResult => build(ctx.xchain, args))
