import { getTx as build, type GetTxResult } from '../../../platform/xchain/api.js'
import { cb58Id, objectParams } from '../params.js'
import { defineNodeMethod } from '../types.js'
import { encodingField } from '../platform/common.js'
import type { AvmContext } from './context.js'

export type { GetTxResult }

/**
 * `avm.getTx({txID, encoding})`: an accepted tx as bytes under `encoding` (default hex), or as
 * JSON after `txInit` (fx ids, `X-…` addresses). The empty id fails `nil transaction ID`, an
 * unknown one `not found`.
 */
export const getTx = defineNodeMethod(objectParams({ txID: cb58Id, encoding: encodingField }), (args, ctx: AvmContext): GetTxResult => build(ctx.xchain, args))
